/** A header parameter value in RFC 5987 form (filename*=UTF-8''...). */
export const rfc5987 = (value: string) => encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * A Content-Disposition value naming `fileName`: an ASCII `filename` for old clients (other
 * characters as `_`) and the exact name as `filename*` (RFC 6266).
 */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_') || 'file';
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${rfc5987(fileName)}`;
}
