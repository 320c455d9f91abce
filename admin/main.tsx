import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { AdminGate } from './shell/admin-gate.tsx';
import { AdminLayout } from './shell/admin-layout.tsx';
import { AppProviders } from '../components/app-shell/app-providers.tsx';
import { startApp } from '../components/app-shell/start.ts';
import { LinkLoginDialog } from '../components/login/link-login-dialog.tsx';
import { loginFromUrl } from '../components/login/url-login.ts';
import { AdminRoutes } from './admin-routes.tsx';

/**
 * The operator's console (/admin): an unlisted web page on the server's origin, built apart from the
 * extension (admin.vite.config.ts). It shares the web app's login (the same origin's storage) and
 * signs in through the central login page, which comes back here with a temp key.
 */
async function main(): Promise<void> {
  const app = await startApp();
  // The console's Chinese strings, which the shared loader leaves out of the extension's pages. Added
  // once the shared Chinese bundle is there (the shared loader takes an existing bundle as loaded),
  // before the page re-renders: this listener is registered before any of react-i18next's.
  const adminZh = import.meta.glob<Record<string, unknown>>('../locales/features/admin-*.zh.json', { eager: true, import: 'default' });
  const addAdminZh = (language: string) => {
    if (language !== 'zh') return;
    for (const strings of Object.values(adminZh)) app.i18n.addResourceBundle('zh', 'translation', strings, true, false);
  };
  addAdminZh(app.i18n.language);
  app.i18n.on('languageChanged', addAdminZh);
  // Back from /login?callback=/admin...: the key in the address is exchanged for the login, which
  // is stored only when this browser asked for it, or after the user confirms (LinkLoginDialog).
  const urlLogin = loginFromUrl(app.store);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders store={app.store} queryClient={app.queryClient} i18n={app.i18n} platform={app.platform}>
        <Router>
          <LinkLoginDialog />
          <AdminGate urlLogin={urlLogin}>
            <AdminLayout>
              <AdminRoutes />
            </AdminLayout>
          </AdminGate>
        </Router>
      </AppProviders>
    </StrictMode>,
  );
}

void main();
