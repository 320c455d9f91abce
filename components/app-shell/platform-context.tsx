import { createContext, useContext } from 'react';
import type { Platform } from '../../shared/platform/platform.ts';

/** What a page that was never told otherwise looks like: the desktop web page. */
const DESKTOP_WEB: Platform = { isExtension: false, scene: 'web', isH5: false, standalone: false, tabs: null };

/** The platform detected once at start-up (startApp), for components that lay out differently on mobile. */
export const PlatformContext = createContext<Platform>(DESKTOP_WEB);

export function usePlatform(): Platform {
  return useContext(PlatformContext);
}
