import { getApiBase } from '../../shared/api/request.ts';

/** The full address of a share link: the server's web app (the page's own origin on the web). */
export const shareUrl = (path: string) => `${getApiBase() || window.location.origin}${path}`;
