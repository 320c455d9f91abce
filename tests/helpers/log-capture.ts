import { Writable } from 'node:stream';

/**
 * The server's log, caught line by line: pass `logger` to createTestApp (with LOG_LEVEL set in
 * its env) and read `text` or `entries` afterwards.
 */
export function captureLog() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return {
    logger: { stream },
    get text() {
      return lines.join('\n');
    },
    get entries(): Record<string, any>[] {
      return lines.map((l) => JSON.parse(l));
    },
    clear: () => void lines.splice(0),
  };
}
