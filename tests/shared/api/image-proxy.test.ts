import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadProxiedImage } from '../../../shared/api/image-proxy.ts';
import { ApiError, setApiBase } from '../../../shared/api/request.ts';
import { initI18n, setLanguage } from '../../../shared/i18n/i18n.ts';
import { installStorage } from '../../../shared/storage/active.ts';
import { createWebStorage } from '../../../shared/storage/web.ts';
import { startTestServer } from '../../helpers/http-server.ts';

// The spec's image-fetch failure (§8): a Chinese 'network request failed' message, logged and rethrown.
beforeAll(async () => {
  installStorage(createWebStorage());
  await initI18n(['en']);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await setLanguage('en');
});

/** An address on loopback where nothing listens any more: the fetch itself fails. */
async function deadAddress(): Promise<string> {
  const server = await startTestServer();
  const url = server.url;
  await server.close();
  return url;
}

describe('an image that cannot be fetched', () => {
  it("says 'network request failed' in the reader's language, logs the failure and rethrows it", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    setApiBase(await deadAddress());
    await setLanguage('zh');
    const failure = await loadProxiedImage('https://images.example/zh.png').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).toBe('网络请求失败');
    expect(warn).toHaveBeenCalledWith('Image fetch failed:', expect.stringContaining('/api/Chat/ProxyImage?'), expect.anything());

    await setLanguage('en');
    await expect(loadProxiedImage('https://images.example/en.png')).rejects.toThrow('Network request failed');
  });
});
