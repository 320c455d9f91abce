/** What separates a data URL's header from its base64 payload. */
const BASE64_MARKER = 'base64,';

/**
 * A screenshot as a file to upload. `data` is a data URL (`data:image/png;base64,...`, as
 * chrome.tabs.captureVisibleTab answers) or bare base64: only the part after the base64 marker is
 * decoded. The file is named `screenshot-<timestamp>.<subtype>`, the subtype taken from the MIME type.
 */
export function screenshotFile(data: string, now: number = Date.now()): File {
  const marker = data.indexOf(BASE64_MARKER);
  const base64 = marker >= 0 ? data.slice(marker + BASE64_MARKER.length) : data;
  const mime = /^data:([a-z]+\/[a-z0-9.+-]+)/i.exec(data)?.[1]?.toLowerCase() ?? 'image/png';
  // image/svg+xml names an svg; image/png a png.
  const subtype = mime.slice(mime.indexOf('/') + 1).replace(/\+.*$/, '');
  const binary = atob(base64.trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new File([bytes], `screenshot-${now}.${subtype}`, { type: mime });
}
