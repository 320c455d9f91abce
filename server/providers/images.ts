import type { Config } from '../config.ts';

/**
 * Image generation through an OpenAI-compatible images API (`POST {IMAGES_BASE_URL}/images/generations`),
 * configured by the operator: OpenAI itself, or any server speaking the same protocol.
 */

export type GeneratedImage = { bytes: Buffer; mimeType: string; revisedPrompt: string | null };

/** The images service failed, refused the prompt, or was too slow; the message is for logs. */
export class ImagesError extends Error {
  override name = 'ImagesError';
}

/** Generating takes a while (tens of seconds for large models); beyond this it is given up. */
export const IMAGES_TIMEOUT_MS = 120_000;
/** Larger images are refused. */
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

export const imagesConfigured = (config: Config): boolean => !!(config.IMAGES_BASE_URL && config.IMAGES_API_KEY);

/** Where to draw: an images API's base URL, its key (none for a local server) and the `model` to send. */
export type ImagesTarget = { baseUrl: string; apiKey: string | null; model?: string };

/** The operator's IMAGES_* endpoint (imagesConfigured first). */
export const configuredImagesTarget = (config: Config): ImagesTarget => ({
  baseUrl: config.IMAGES_BASE_URL!,
  apiKey: config.IMAGES_API_KEY ?? null,
  model: config.IMAGES_MODEL,
});

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** The type from the bytes themselves: what the service says is not trusted for serving. */
export function sniffImageType(bytes: Buffer): string | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

async function readBytes(res: Response): Promise<Buffer> {
  if (Number(res.headers.get('content-length')) > MAX_IMAGE_BYTES) throw new ImagesError('image too large');
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > MAX_IMAGE_BYTES) throw new ImagesError('image too large');
  return bytes;
}

export async function generateImage(
  target: ImagesTarget,
  req: { prompt: string; size: string; signal?: AbortSignal },
): Promise<GeneratedImage> {
  const timeout = AbortSignal.timeout(IMAGES_TIMEOUT_MS);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  const model = target.model;
  const fail = (err: unknown): never => {
    req.signal?.throwIfAborted();
    if (err instanceof ImagesError) throw err;
    throw new ImagesError(timeout.aborted ? `no image within ${IMAGES_TIMEOUT_MS} ms` : (err as Error).message);
  };
  try {
    const res = await fetch(`${trimSlash(target.baseUrl)}/images/generations`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}),
      },
      body: JSON.stringify({
        ...(model ? { model } : {}),
        prompt: req.prompt,
        n: 1,
        size: req.size,
        // gpt-image models always answer base64 and refuse the parameter.
        ...(model?.startsWith('gpt-image') ? {} : { response_format: 'b64_json' }),
      }),
      signal,
    });
    if (!res.ok) {
      const detail = (await res.text().catch(() => '')).slice(0, 300);
      throw new ImagesError(`HTTP ${res.status} ${detail}`);
    }
    const body = (await res.json()) as { data?: { b64_json?: unknown; url?: unknown; revised_prompt?: unknown }[] };
    const first = body?.data?.[0];
    let bytes: Buffer;
    if (typeof first?.b64_json === 'string') bytes = Buffer.from(first.b64_json, 'base64');
    else if (typeof first?.url === 'string' && /^https?:\/\//.test(first.url)) {
      // A service that answers an address (its own storage) despite response_format.
      const image = await fetch(first.url, { signal });
      if (!image.ok) throw new ImagesError(`image download HTTP ${image.status}`);
      bytes = await readBytes(image);
    } else throw new ImagesError('no image in the answer');
    if (bytes.length > MAX_IMAGE_BYTES) throw new ImagesError('image too large');
    const mimeType = sniffImageType(bytes);
    if (!mimeType) throw new ImagesError('the answer is not a PNG, JPEG or WebP image');
    return { bytes, mimeType, revisedPrompt: typeof first.revised_prompt === 'string' ? first.revised_prompt : null };
  } catch (err) {
    return fail(err);
  }
}
