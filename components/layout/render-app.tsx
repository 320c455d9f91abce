import { createRoot } from 'react-dom/client';
import { AppProviders } from '../app-shell/app-providers.tsx';
import { AppRouter } from '../app-shell/router.tsx';
import type { StartedApp } from '../app-shell/start.ts';
import { AppRoutes } from './app-routes.tsx';
import { preloadChatLayout } from './chat-layout.tsx';

/**
 * Renders the app's routes (web app, side panel) into `container` with what startApp prepared, once
 * the code the first screen needs beyond the entry is there (the sidebar of the wide layout).
 */
export async function renderApp(container: HTMLElement, started: StartedApp): Promise<void> {
  await preloadChatLayout(started.platform);
  createRoot(container).render(
    <AppProviders store={started.store} queryClient={started.queryClient} i18n={started.i18n} platform={started.platform}>
      <AppRouter platform={started.platform}>
        <AppRoutes />
      </AppRouter>
    </AppProviders>,
  );
}
