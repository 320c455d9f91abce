import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { chatMessages } from '../../server/db/schema/chat.ts';
import type { ChatStreamData } from '../../shared/contracts/chat.ts';
import type { Envelope } from '../../shared/contracts/envelope.ts';

export type StreamEvent = Envelope<ChatStreamData>;

/** The `data:` payloads of an SSE body, in order ('DONE' included as the string). */
export function ssePayloads(body: string): string[] {
  return body
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      expect(block.startsWith('data: ')).toBe(true);
      return block.slice('data: '.length);
    });
}

/** Parses an AddMessage stream body; checks it ends with `data: DONE` and that only JSON comes before. */
export function parseChatStream(body: string): StreamEvent[] {
  expect(body.endsWith('data: DONE\n\n')).toBe(true);
  const payloads = ssePayloads(body);
  expect(payloads.at(-1)).toBe('DONE');
  return payloads.slice(0, -1).map((p) => JSON.parse(p) as StreamEvent);
}

export const textOf = (events: StreamEvent[]) => events.map((e) => e.Data.OutputMessage).join('');

export async function listening(app: FastifyInstance): Promise<string> {
  return app.listen({ port: 0, host: '127.0.0.1' });
}

/**
 * Reads a streamed AddMessage answer over real HTTP, event by event. `onEvent` may return true to
 * stop reading; the caller then aborts the request.
 */
export async function readStream(
  res: Response,
  onEvent: (e: StreamEvent) => boolean | void | Promise<boolean | void>,
): Promise<{ events: StreamEvent[]; done: boolean }> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: StreamEvent[] = [];
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { events, done: false };
    buffer += value;
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const payload = buffer.slice('data: '.length, cut);
      buffer = buffer.slice(cut + 2);
      if (payload === 'DONE') return { events, done: true };
      const event = JSON.parse(payload) as StreamEvent;
      events.push(event);
      if (await onEvent(event)) return { events, done: false };
    }
  }
}

/**
 * A finished answer as the chat stores it, for tests that seed history straight into the database:
 * the basic model answered it now, unless `over` says otherwise.
 */
export function storedMessage(over: Partial<typeof chatMessages.$inferInsert> & Pick<typeof chatMessages.$inferInsert, 'sessionId' | 'userId' | 'inputMessage'>) {
  const at = over.createdAt ?? new Date();
  return {
    id: randomUUID(),
    outputMessage: `Echo: ${over.inputMessage}`,
    requestedModelId: 'basic-model',
    aiModelId: 'basic-model',
    modelName: 'basic-model',
    finishReason: 'stop',
    finishedAt: at,
    ...over,
  } satisfies typeof chatMessages.$inferInsert;
}

/**
 * Rows of one chat written straight into the table, oldest first, as a straight line (answer
 * versions: each exchange's parent is the one before it). The chat then shows its newest row's path.
 */
export function inLine<T extends { id: string }>(rows: T[]): (T & { parentId: string | null })[] {
  return rows.map((row, i) => ({ ...row, parentId: i === 0 ? null : rows[i - 1]!.id }));
}
