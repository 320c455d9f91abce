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
