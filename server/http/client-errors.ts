import type { Socket } from 'node:net';
import { Codes } from '../../shared/contracts/envelope.ts';
import type { Language } from '../../shared/contracts/common.ts';
import { t } from '../core/i18n.ts';

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (an address or headers over the
 * parser's limit: 431; a malformed request line: 400). Fastify's default answers a bare JSON error
 * outside the envelope; these are answered like every other refusal: `{Code, Msg, Data}` in the
 * caller's language, as far as the part of the request that was read tells it.
 */

/** Node's clientError: the parser's code and the bytes it had read (`rawPacket`, an ArrayBuffer view). */
type ClientError = Error & { code?: string; rawPacket?: unknown };

/** The language named in what was read of the request (its headers may be cut off: English then). */
function languageOfPacket(raw: unknown): Language {
  const header = Buffer.isBuffer(raw) ? /\r\naccept-language:([^\r\n]*)/i.exec(raw.toString('latin1')) : null;
  return header && /zh/i.test(header[1]!) ? 'zh' : 'en';
}

export function answerClientError(err: ClientError, socket: Socket): void {
  if (!socket.writable) return void socket.destroy(err);
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const lang = languageOfPacket(err.rawPacket);
  const body = JSON.stringify(
    tooLarge
      ? { Code: Codes.PayloadTooLarge, Msg: t(lang, 'requestHeadersTooLarge'), Data: null }
      : { Code: Codes.BadRequest, Msg: t(lang, 'requestMalformed'), Data: null },
  );
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
