import { isOwnMediaLink, loadedImage, loadOwnImage, loadProxiedImage } from '../api/image-proxy.ts';
import { IMAGE_PLACEHOLDER_ATTR } from './render.ts';

/** The chat's own images outside answers (attachments.tsx) load with the answer renderer's chunk. */
export { loadOwnImage };

/**
 * The rendered answer's image placeholders (render.ts renderImagePlaceholder) in the page: a click
 * loads the image through the server's proxy and puts it in place of its button; Tandem's own images
 * load with no click. The renderer's HTML is patched again on every update of a block (morph-html.ts),
 * which puts the buttons back: showLoadedImages runs after each patch and shows what was loaded.
 * See docs/security.md.
 */

const placeholdersIn = (root: ParentNode, url?: string) =>
  [...root.querySelectorAll<HTMLElement>(`[${IMAGE_PLACEHOLDER_ATTR}]`)].filter((holder) => url === undefined || addressOf(holder) === url);

const addressOf = (holder: Element) => holder.getAttribute(IMAGE_PLACEHOLDER_ATTR) ?? '';

/** Puts the image in place of the placeholder's button (once). */
function showImage(holder: HTMLElement, objectUrl: string): void {
  const current = holder.firstElementChild;
  if (current instanceof HTMLImageElement && current.getAttribute('src') === objectUrl) return;
  const image = holder.ownerDocument.createElement('img');
  image.src = objectUrl;
  image.alt = holder.getAttribute('data-alt') ?? '';
  holder.replaceChildren(image);
  holder.setAttribute('data-loaded', '');
  holder.removeAttribute('aria-busy');
}

/** Shows the load's failure (the server's reason, in the user's language) under the button, which stays for a retry. */
function showFailure(holder: HTMLElement, message: string): void {
  holder.removeAttribute('aria-busy');
  const button = holder.querySelector('button');
  if (button) button.disabled = false;
  let note = holder.querySelector<HTMLElement>('.md-image-error');
  if (!note) {
    note = holder.ownerDocument.createElement('span');
    note.className = 'md-image-error';
    note.setAttribute('role', 'alert');
    holder.append(note);
  }
  note.textContent = message;
}

async function load(root: Element, holder: HTMLElement, url: string, own: boolean): Promise<void> {
  holder.setAttribute('aria-busy', 'true');
  const button = holder.querySelector('button');
  if (button) button.disabled = true;
  try {
    const objectUrl = await (own ? loadOwnImage(url) : loadProxiedImage(url));
    // The block may have been patched meanwhile: every placeholder of this address shows it now.
    for (const each of placeholdersIn(root, url)) showImage(each, objectUrl);
  } catch (error) {
    showFailure(holder, error instanceof Error ? error.message : String(error));
  }
}

/**
 * After a block's HTML was set or patched: images loaded before show again at once, and Tandem's own
 * images (which need no click) start loading.
 */
export function showLoadedImages(root: Element, view: Element = root): void {
  for (const holder of placeholdersIn(root)) {
    const url = addressOf(holder);
    const objectUrl = loadedImage(url);
    if (objectUrl) showImage(holder, objectUrl);
    else if (isOwnMediaLink(url) && !holder.hasAttribute('aria-busy')) void load(view, holder, url, true);
  }
}

/**
 * The view's click handler for placeholders: loads the clicked image. Answers whether the click was
 * on a placeholder (its default, following a link around a badge, is then prevented).
 */
export function loadImageOnClick(view: Element, target: Element, preventDefault: () => void): boolean {
  const button = target.closest(`[${IMAGE_PLACEHOLDER_ATTR}] > button`);
  const holder = button?.parentElement;
  if (!button || !holder || !view.contains(button)) return false;
  preventDefault();
  if (!holder.hasAttribute('aria-busy')) void load(view, holder, addressOf(holder), isOwnMediaLink(addressOf(holder)));
  return true;
}
