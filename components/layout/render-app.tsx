import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from '../app-shell/app-providers.tsx';
import { createAppRouter } from '../app-shell/router.ts';
import type { StartedApp } from '../app-shell/start.ts';
import { appRoutes } from './app-routes.tsx';

/** Renders the app's routes (web app, side panel) into `container` with what startApp prepared. */
export function renderApp(container: HTMLElement, started: StartedApp): void {
  const router = createAppRouter(appRoutes, started.platform);
  createRoot(container).render(
    <AppProviders store={started.store} queryClient={started.queryClient} i18n={started.i18n} platform={started.platform}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}
