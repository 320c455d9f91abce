/**
 * Image links: where an image the server names can be loaded from. Links beginning with
 * `data:` or `http` are kept as they are; any other non-empty path (the server's own `/files/...`)
 * is prefixed with the chat host, the server in use; an empty link stays empty.
 */
export function imageLink(path: string | null | undefined, chatHost: string): string {
  const link = (path ?? '').trim();
  if (!link) return '';
  if (/^(data:|http)/i.test(link)) return link;
  const host = chatHost.replace(/\/+$/, '');
  return `${host}${link.startsWith('/') ? '' : '/'}${link}`;
}
