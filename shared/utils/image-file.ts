/** The largest image "Ask about this image" fetches (the upload takes no more anyway). */
export const MAX_PAGE_IMAGE_BYTES = 20 * 1024 * 1024;

/**
 * An image of a page (the context menu's "Ask about this image") as a File to attach. Extension
 * pages may read images of any site (the extension's host access), so the side panel fetches the
 * image itself, without cookies: what the user saw unless the image needs the site's login, in
 * which case the fetch fails and the user is told.
 */
export async function imageFileFrom(url: string, signal?: AbortSignal): Promise<File> {
  const response = await fetch(url, { credentials: 'omit', signal });
  if (!response.ok) throw new Error(`image fetch answered ${response.status}`);
  const blob = await response.blob();
  if (!blob.type.startsWith('image/')) throw new Error('not an image');
  if (blob.size > MAX_PAGE_IMAGE_BYTES) throw new Error('image too large');
  const extension = blob.type.slice('image/'.length).replace('jpeg', 'jpg').replace(/\+.*$/, '') || 'png';
  const base = decodeURIComponent(new URL(url, 'https://x.invalid').pathname.split('/').pop() ?? '').replace(/\.[a-z0-9]+$/i, '') || 'image';
  return new File([blob], `${base.slice(0, 80)}.${extension}`, { type: blob.type });
}
