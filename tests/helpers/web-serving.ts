import { connect } from 'node:net';
import { expect } from 'vitest';

/**
 * GET over a raw socket: the request line goes out exactly as written (inject and fetch would
 * normalize `..` and `%2e%2e` away before the server sees them).
 */
export function rawGet(port: number, target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nAccept: text/html\r\nConnection: close\r\n\r\n`);
    });
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), body: rest.join('\r\n\r\n') });
    });
  });
}

interface PageResponse {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

/**
 * What every served page (web app or console) must carry: the page itself, uncached, running only
 * its own scripts; `frames` is who may frame it ('self' for the web app, 'none' for the console).
 */
export function expectServedPage(res: PageResponse, url: string, title: string, frames: 'self' | 'none') {
  expect(res.statusCode, url).toBe(200);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.body).toContain(`<title>${title}</title>`);
  expect(res.headers['x-frame-options']).toBe(frames === 'self' ? 'SAMEORIGIN' : 'DENY');
  expect(res.headers['cache-control']).toBe('no-cache');
  const csp = String(res.headers['content-security-policy']);
  expect(csp).toContain("script-src 'self';");
  expect(csp).toContain("connect-src 'self'");
  expect(csp).toContain(`frame-src '${frames}'`);
  expect(csp).toMatch(new RegExp(`frame-ancestors '${frames}'$`));
  expect(csp).not.toContain('unsafe-eval');
}
