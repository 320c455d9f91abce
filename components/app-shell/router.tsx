import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { useHashLocation } from 'wouter/use-hash-location';
import type { Platform } from '../../shared/platform/platform.ts';

/**
 * Inside the extension the page is a file of the package (app.html, sidepanel.html): only the hash
 * can carry the route. On the web the server answers every app route with app.html, so real paths
 * work (wouter's default, browser history). wouter rather than a full router: the app has three
 * routes and loads no data through the router, and every page's first JavaScript stays smaller.
 */
export function AppRouter({ platform, children }: { platform: Pick<Platform, 'isExtension'>; children: ReactNode }) {
  return platform.isExtension ? <Router hook={useHashLocation}>{children}</Router> : <Router>{children}</Router>;
}
