import { createRoot } from 'react-dom/client';
import { AppProviders } from '../app-shell/app-providers.tsx';
import { AppRouter } from '../app-shell/router.tsx';
import type { StartedApp } from '../app-shell/start.ts';
import { AppRoutes } from './app-routes.tsx';

/** Renders the app's routes (web app, side panel) into `container` with what startApp prepared. */
export function renderApp(container: HTMLElement, started: StartedApp): void {
  createRoot(container).render(
    <AppProviders store={started.store} queryClient={started.queryClient} i18n={started.i18n} platform={started.platform}>
      <AppRouter platform={started.platform}>
        <AppRoutes />
      </AppRouter>
    </AppProviders>,
  );
}
