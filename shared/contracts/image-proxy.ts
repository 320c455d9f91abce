import { z } from 'zod';

/**
 * GET /api/Chat/ProxyImage: an image an answer names on another host, fetched by the server for the
 * signed-in user who clicked its placeholder (docs/security.md). The browser never contacts
 * that host itself.
 */
export const PROXY_IMAGE_PATH = '/api/Chat/ProxyImage';

/** The longest address the proxy takes (as the page reader's UploadMedia does). */
export const MAX_PROXIED_URL_CHARS = 2048;

/** The largest image the proxy passes on. */
export const PROXIED_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

export const ProxyImageQuerySchema = z.object({
  url: z.string().trim().min(1).max(MAX_PROXIED_URL_CHARS),
});
export type ProxyImageQuery = z.infer<typeof ProxyImageQuerySchema>;
