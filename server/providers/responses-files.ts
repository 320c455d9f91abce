import { APICallError } from 'ai';
import { OPENAI_DEFAULT_BASE_URL, type UpstreamTarget } from './llm.ts';
import { upstreamFailureOf } from './upstream.ts';

/** How long an upload to the deployment's `/files` may take before it is given up (a timeout). */
const UPLOAD_TIMEOUT_MS = 60_000;

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * Uploads one file to a Responses deployment's `POST {baseUrl}/files` (multipart, purpose
 * `user_data`, as OpenAI takes files for input_file parts) and answers the upstream's file id.
 * Failures are UpstreamFailure, as a model call's are (upstream.ts).
 */
export async function uploadUpstreamFile(
  target: Pick<UpstreamTarget, 'baseUrl' | 'apiKey'>,
  file: { fileName: string; mimeType: string; bytes: Buffer },
): Promise<string> {
  const url = `${trimSlash(target.baseUrl ?? OPENAI_DEFAULT_BASE_URL)}/files`;
  const form = new FormData();
  form.append('purpose', 'user_data');
  form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.mimeType }), file.fileName);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {},
      body: form,
      signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
    });
    const text = await res.text();
    let body: { id?: unknown; error?: { message?: string } } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // Not JSON: the status says what happened.
    }
    if (!res.ok) {
      throw new APICallError({ message: body.error?.message ?? `HTTP ${res.status}`, url, requestBodyValues: {}, statusCode: res.status, responseBody: text });
    }
    if (typeof body.id !== 'string' || !body.id) throw new APICallError({ message: 'the upload answered no file id', url, requestBodyValues: {}, statusCode: 502 });
    return body.id;
  } catch (err) {
    throw upstreamFailureOf(err);
  }
}
