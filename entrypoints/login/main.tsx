import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from '../../components/app-shell/app-providers.tsx';
import { startApp } from '../../components/app-shell/start.ts';
import { LoginPage } from '../../components/login/login-page.tsx';

/**
 * The central login page: an unlisted page of the build that the server serves at /login. It is
 * only ever a web page on the server's origin, so start-up points the API at this same origin.
 */
async function main(): Promise<void> {
  const app = await startApp();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders store={app.store} queryClient={app.queryClient} i18n={app.i18n} platform={app.platform}>
        <LoginPage />
      </AppProviders>
    </StrictMode>,
  );
}

void main();
