import { createBrowserRouter, createHashRouter, type RouteObject } from 'react-router';
import type { Platform } from '../../shared/platform/platform.ts';

/**
 * Inside the extension the page is a file of the package (app.html, sidepanel.html): only the hash
 * can carry the route. On the web the server answers every app route with app.html, so real paths work.
 */
export function createAppRouter(routes: RouteObject[], platform: Pick<Platform, 'isExtension'>) {
  return platform.isExtension ? createHashRouter(routes) : createBrowserRouter(routes);
}
