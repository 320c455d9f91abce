import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../../context.ts';

/** Encrypts provider keys at rest (AES-256-GCM). Stored form: `v1.<iv>.<tag>.<ciphertext>`, base64url. */
export type SecretBox = { encrypt(plain: string): string; decrypt(stored: string): string };

const boxes = new WeakMap<object, SecretBox>();

function fileKey(ctx: AppContext): Buffer {
  const path = join(ctx.config.DATA_DIR, 'secret.key');
  try {
    const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64url');
    if (key.length === 32) return key;
  } catch {
    // absent: created below
  }
  mkdirSync(ctx.config.DATA_DIR, { recursive: true });
  const key = randomBytes(32);
  // 'wx' never overwrites a key another process wrote meanwhile: that one wins and is read back.
  try {
    writeFileSync(path, key.toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch {
    return Buffer.from(readFileSync(path, 'utf8').trim(), 'base64url');
  }
  return key;
}

function keyOf(ctx: AppContext): Buffer {
  if (ctx.config.SECRET_KEY) return createHash('sha256').update(ctx.config.SECRET_KEY).digest();
  // Nothing on disk (tests): a key for this process only.
  if (ctx.config.DATA_DIR.startsWith('memory://')) return randomBytes(32);
  ctx.log.warn(
    `SECRET_KEY is not set: provider keys are encrypted with ${join(ctx.config.DATA_DIR, 'secret.key')}. ` +
      'Several instances on one database must all set the same SECRET_KEY.',
  );
  return fileKey(ctx);
}

const masterKeys = new WeakMap<object, Buffer>();

/** The server's secret, read (or created) on first use only. */
function masterKey(ctx: AppContext): Buffer {
  let key = masterKeys.get(ctx.config);
  if (!key) masterKeys.set(ctx.config, (key = keyOf(ctx)));
  return key;
}

/**
 * A key of its own for one use (signing media links, ...), derived from the server's secret: it
 * reveals neither the secret nor the other keys, and every instance sharing SECRET_KEY derives the same.
 */
export function derivedKey(ctx: AppContext, purpose: string): Buffer {
  return createHmac('sha256', masterKey(ctx)).update(`tandem/${purpose}`).digest();
}

/** The box of this server; the key is read (or created) on first use only. */
export function secretBox(ctx: AppContext): SecretBox {
  let box = boxes.get(ctx.config);
  if (box) return box;
  const key = masterKey(ctx);
  box = {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
    },
    decrypt(stored) {
      const [version, iv, tag, data] = stored.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown secret format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
  boxes.set(ctx.config, box);
  return box;
}

/** What an operator may see of a key: enough to tell two apart ("sk-...abcd"), never enough to use. */
export function maskSecret(plain: string): string {
  if (plain.length < 12) return '...' + plain.slice(-2);
  return `${plain.slice(0, 3)}...${plain.slice(-4)}`;
}
