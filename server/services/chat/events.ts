import type { FastifyReply } from 'fastify';
import type { ChatStreamData, ChatStreamExtras } from '../../../shared/contracts/chat.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';

/**
 * The wire format of the chat stream, one for AddMessage (chat/stream.ts) and ResumeMessage
 * (chat/resume.ts): `data: {Code, Msg, Data}` events, then `data: DONE`.
 * docs/api.md#the-chat-stream describes the events.
 */

export const chatEvent = (code: number, msg: string, data: ChatStreamData & ChatStreamExtras) =>
  `data: ${JSON.stringify({ Code: code, Msg: msg, Data: data })}\n\n`;

export const DONE_EVENT = 'data: DONE\n\n';

/**
 * The events of pieces of text. Everything but the text is the same for a whole round (and the
 * input may be 32k characters), so it is encoded once per model, not per piece.
 */
export function textEvents(d: ChatStreamData): (text: string, modelId: string, modelName: string) => string {
  const j = JSON.stringify;
  const head = `data: {"Code":${Codes.Success},"Msg":"","Data":{"ChatMessageId":${j(d.ChatMessageId)},"ChatSessionId":${j(d.ChatSessionId)},"InputMessage":${j(d.InputMessage)},"OutputMessage":`;
  let id: string | null = null;
  let name: string | null = null;
  let tail = '';
  return (text, modelId, modelName) => {
    if (modelId !== id || modelName !== name) {
      [id, name] = [modelId, modelName];
      tail = `,"FinishReason":null,"ModelName":${j(modelName)},"ModelId":${j(modelId)},"ReplaceMessage":false}}\n\n`;
    }
    return head + j(text) + tail;
  };
}

/**
 * Takes over the response as text/event-stream, keeping the headers set so far (CORS, nosniff, a
 * renewed Authorization), which writing the raw response alone would lose. False when the client
 * has already gone (nothing is written then).
 */
export function openEventStream(reply: FastifyReply): boolean {
  const raw = reply.raw;
  const headers = Object.fromEntries(Object.entries(reply.getHeaders()).filter(([, v]) => v !== undefined));
  reply.hijack();
  if (raw.destroyed) return false;
  raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
  return true;
}
