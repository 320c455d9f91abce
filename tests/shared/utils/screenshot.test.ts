import { describe, expect, it } from 'vitest';
import { screenshotFile } from '../../../shared/utils/screenshot.ts';

/** A 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const bytesOf = async (file: File) => new Uint8Array(await file.arrayBuffer());

describe('screenshotFile', () => {
  it('names the file screenshot-<timestamp>.<MIME subtype> and decodes only what follows the base64 marker', async () => {
    const file = screenshotFile(`data:image/png;base64,${PNG_BASE64}`, 1_700_000_000_123);
    expect(file.name).toBe('screenshot-1700000000123.png');
    expect(file.type).toBe('image/png');
    const bytes = await bytesOf(file);
    // The PNG signature: the header was not decoded with the data.
    expect([...bytes.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(bytes.length).toBe(atob(PNG_BASE64).length);
  });

  it('takes the extension from other subtypes too', () => {
    expect(screenshotFile('data:image/jpeg;base64,/9j/4AAQ', 5).name).toBe('screenshot-5.jpeg');
    expect(screenshotFile('data:image/webp;base64,UklGRg==', 6).name).toBe('screenshot-6.webp');
    expect(screenshotFile('data:image/svg+xml;base64,PHN2Zz4=', 7).name).toBe('screenshot-7.svg');
  });

  it('reads bare base64 as a PNG, and stamps the current time by default', async () => {
    const before = Date.now();
    const file = screenshotFile(PNG_BASE64);
    const stamp = Number(/^screenshot-(\d+)\.png$/.exec(file.name)?.[1]);
    expect(stamp).toBeGreaterThanOrEqual(before);
    expect(stamp).toBeLessThanOrEqual(Date.now());
    expect(file.type).toBe('image/png');
    expect((await bytesOf(file)).length).toBe(atob(PNG_BASE64).length);
  });
});
