import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { browser } from 'wxt/browser';
import { AppProviders } from '../../components/app-shell/app-providers.tsx';
import { startApp } from '../../components/app-shell/start.ts';
import { CampaignCards } from '../../components/campaigns/campaign-card.tsx';
import { QuickActions } from '../../components/popup/quick-actions.tsx';
import { settingValue } from '../../shared/api/system.ts';
import { systemConfigPersisted } from '../../shared/atoms/auth.ts';
import { togglePageTranslation } from '../../shared/platform/page-translate.ts';
import { serverUrlFor, serverUrlPersisted } from '../../shared/platform/server-url.ts';
import { peekPersisted } from '../../shared/storage/active.ts';

/** The popup's composition root: the shared start-up, and the browser APIs its buttons need. */
async function main(): Promise<void> {
  // The window is read before any click: sidePanel.open must be called in the click's own turn (user gesture).
  const [app, { id: windowId }] = await Promise.all([startApp(), browser.windows.getCurrent()]);
  const serverUrl = () => serverUrlFor(peekPersisted(serverUrlPersisted));
  const openTab = (url: string) => {
    void browser.tabs.create({ url }).then(() => window.close());
  };

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders store={app.store} queryClient={app.queryClient} i18n={app.i18n} platform={app.platform}>
        <QuickActions
          onOpenSidePanel={async () => {
            // Firefox: the sidebar (sidebar_action), opened in the click's own turn as well.
            const sidebar = (browser as unknown as { sidebarAction?: { open(): Promise<void> } }).sidebarAction;
            if (sidebar) await sidebar.open();
            else if (windowId === undefined) throw new Error('No window to open the side panel in');
            else await browser.sidePanel.open({ windowId });
            window.close();
          }}
          onOpenWebApp={() => openTab(`${serverUrl()}/`)}
          onOpenHelp={() => openTab(`${serverUrl()}/helper`)}
          onTranslatePage={async () => {
            const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
            if (tab?.id === undefined) throw new Error('No tab to translate');
            await togglePageTranslation(tab.id, app.i18n.language === 'zh' ? 'zh' : 'en');
            window.close();
          }}
          // The login page the server names (as the login dialog uses), from the last stored settings.
          onSignIn={() => openTab(settingValue(peekPersisted(systemConfigPersisted), 'login_page_url') || `${serverUrl()}/login`)}
          // The newest campaign for the user, dismissable; all of them on the web app's campaigns page.
          extra={<CampaignCards limit={1} onSeeAll={() => openTab(`${serverUrl()}/campaigns`)} />}
        />
      </AppProviders>
    </StrictMode>,
  );
}

void main();
