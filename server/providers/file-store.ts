import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AwsClient } from 'aws4fetch';
import type { Config } from '../config.ts';

/**
 * Where uploaded files and images are kept: a folder on this machine, or an S3-compatible bucket
 * (several instances must share one). Keys are made by the server (`ab/<uuid>`), never by users.
 */
export interface FileStore {
  readonly kind: 'local' | 's3';
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The bytes under `key`; null when there are none. */
  get(key: string): Promise<Buffer | null>;
  /** Removes `key`; removing what is not there is not an error. */
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

/** Keys the server makes: segments of letters, digits, dashes and underscores, so no key leaves its folder or bucket prefix. */
const KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

function checkKey(key: string): string {
  if (!KEY.test(key) || key.length > 300) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
  return key;
}

/** A folder on disk; `temporary` ones are removed on close (DATA_DIR=memory://, tests). */
export function localFileStore(root: string, opts: { temporary?: boolean } = {}): FileStore {
  const resolvedRoot = path.resolve(root);
  const fileOf = (key: string) => path.join(resolvedRoot, ...checkKey(key).split('/'));
  return {
    kind: 'local',
    async put(key, bytes) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Written aside, then renamed: a reader never sees half a file, a crash leaves no torn one.
      const partial = `${file}.${randomUUID()}.part`;
      try {
        await writeFile(partial, bytes, { mode: 0o600 });
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async get(key) {
      try {
        return await readFile(fileOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
    async close() {
      if (opts.temporary) rmSync(resolvedRoot, { recursive: true, force: true });
    },
  };
}

export type S3Options = {
  bucket: string;
  /** The service's origin; default AWS's regional endpoint. */
  endpoint?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** <endpoint>/<bucket>/<key> instead of <bucket>.<endpoint host>/<key>. */
  forcePathStyle: boolean;
  /** Prefix of every object key in the bucket. */
  prefix?: string;
  timeoutMs?: number;
};

export class FileStoreError extends Error {}

/** An S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Backblaze B2, ...), requests signed with SigV4. */
export function s3FileStore(opts: S3Options): FileStore {
  const client = new AwsClient({
    accessKeyId: opts.accessKeyId,
    secretAccessKey: opts.secretAccessKey,
    region: opts.region,
    service: 's3',
    // Retries 5xx and 429 with backoff; more would hold an upload for long.
    retries: 2,
  });
  const endpoint = new URL(opts.endpoint ?? `https://s3.${opts.region}.amazonaws.com`);
  const base = opts.forcePathStyle
    ? `${endpoint.origin}${endpoint.pathname.replace(/\/+$/, '')}/${encodeURIComponent(opts.bucket)}`
    : `${endpoint.protocol}//${opts.bucket}.${endpoint.host}${endpoint.pathname.replace(/\/+$/, '')}`;
  const prefix = opts.prefix ?? 'media/';
  const urlOf = (key: string) => `${base}/${prefix}${checkKey(key)}`;
  const timeout = () => AbortSignal.timeout(opts.timeoutMs ?? 30_000);
  const fail = async (what: string, res: Response) => {
    // S3 error bodies are short XML (code and message); never the credentials.
    const detail = (await res.text().catch(() => '')).slice(0, 300);
    return new FileStoreError(`S3 ${what} answered HTTP ${res.status}: ${detail}`);
  };
  /**
   * A 404 means "no such object" only when the service says NoSuchKey (or says nothing): a missing
   * bucket (NoSuchBucket, a wrong S3_BUCKET or endpoint) is a configuration error that must be heard,
   * not every file silently "gone" and every delete silently "done".
   */
  const objectMissing = async (what: string, res: Response) => {
    const detail = (await res.text().catch(() => '')).slice(0, 300);
    if (/<Code>NoSuchBucket<\/Code>/.test(detail)) throw new FileStoreError(`S3 ${what} answered HTTP 404: ${detail}`);
    return true;
  };

  return {
    kind: 's3',
    async put(key, bytes, contentType) {
      const res = await client.fetch(urlOf(key), {
        method: 'PUT',
        // A copy on an ArrayBuffer of its own, as fetch's types require (at most the upload limit).
        body: new Uint8Array(bytes),
        headers: {
          'content-type': contentType,
          // The payload's hash is signed too, so the service refuses a body changed on the way.
          'x-amz-content-sha256': createHash('sha256').update(bytes).digest('hex'),
        },
        signal: timeout(),
      });
      if (!res.ok) throw await fail('PUT', res);
      await res.body?.cancel();
    },
    async get(key) {
      const res = await client.fetch(urlOf(key), { method: 'GET', signal: timeout() });
      if (res.status === 404 && (await objectMissing('GET', res))) return null;
      if (!res.ok) throw await fail('GET', res);
      return Buffer.from(await res.arrayBuffer());
    },
    async delete(key) {
      const res = await client.fetch(urlOf(key), { method: 'DELETE', signal: timeout() });
      if (res.status === 404) await objectMissing('DELETE', res);
      else if (!res.ok) throw await fail('DELETE', res);
      else await res.body?.cancel();
    },
    async close() {},
  };
}

/** The store the configuration asks for: S3 when S3_BUCKET is set, else `${DATA_DIR}/media` (a temporary folder for memory://). */
export function createFileStore(config: Config): FileStore {
  if (config.S3_BUCKET) {
    return s3FileStore({
      bucket: config.S3_BUCKET,
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID!,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  if (config.DATA_DIR.startsWith('memory://')) {
    return localFileStore(mkdtempSync(path.join(tmpdir(), 'tandem-media-')), { temporary: true });
  }
  return localFileStore(path.join(config.DATA_DIR, 'media'));
}
