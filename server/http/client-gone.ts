import type { FastifyReply } from 'fastify';
import type { ServerResponse } from 'node:http';
import { Codes } from '../../shared/contracts/envelope.ts';
import { AppError } from '../core/errors.ts';

/** Calls `fn` once the response's connection closes (at once when it has closed already). */
export function onResponseClose(raw: ServerResponse, fn: () => void): void {
  if (raw.destroyed) fn();
  else raw.once('close', fn);
}

/**
 * Aborted when the client goes away before its answer was written (it aborted the request or its
 * connection closed): work done only for this answer (a model call) can stop then. The reason is an
 * AppError (Codes.Aborted), so what it interrupts is not logged as the server's fault.
 */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const raw = reply.raw;
  onResponseClose(raw, () => {
    if (!raw.writableFinished) controller.abort(new AppError(Codes.Aborted, 'requestAborted'));
  });
  return controller.signal;
}
