import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { browser } from 'wxt/browser';
import { AppProviders } from '../../components/app-shell/app-providers.tsx';
import { startApp } from '../../components/app-shell/start.ts';
import { QuickActions } from '../../components/popup/quick-actions.tsx';
import { serverUrlFor, serverUrlPersisted } from '../../shared/platform/server-url.ts';
import { peekPersisted } from '../../shared/storage/active.ts';

/** The popup's composition root: the shared start-up, and the browser APIs its buttons need. */
async function main(): Promise<void> {
  const app = await startApp();
  // Read before any click: sidePanel.open must be called in the click's own turn (user gesture).
  const { id: windowId } = await browser.windows.getCurrent();
  const serverUrl = () => serverUrlFor(peekPersisted(serverUrlPersisted));
  const openTab = (url: string) => {
    void browser.tabs.create({ url }).then(() => window.close());
  };

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders store={app.store} queryClient={app.queryClient} i18n={app.i18n} platform={app.platform}>
        <QuickActions
          onOpenSidePanel={async () => {
            if (windowId === undefined) throw new Error('No window to open the side panel in');
            await browser.sidePanel.open({ windowId });
            window.close();
          }}
          onOpenWebApp={() => openTab(`${serverUrl()}/`)}
          onSignIn={() => openTab(`${serverUrl()}/login`)}
        />
      </AppProviders>
    </StrictMode>,
  );
}

void main();
