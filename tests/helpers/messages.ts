import type { ChatMessageItem } from '../../shared/contracts/chat.ts';

/**
 * A finished message as the server lists it (GetChatMessageListBySelfSessionId), for fake APIs in
 * client tests: a plain exchange with the basic model, no attachments, sources or tools, unless
 * `fields` say otherwise.
 */
export function listedMessage(fields: Pick<ChatMessageItem, 'chatMessageId' | 'chatSessionId' | 'inputMessage' | 'outputMessage'> & Partial<ChatMessageItem>): ChatMessageItem {
  return {
    aiModelId: 'basic',
    modelName: 'basic',
    chatMediaIds: [],
    chatMedias: [],
    citations: [],
    toolCalls: [],
    finishReason: 'stop',
    createTime: '2026-11-20T10:00:00.000Z',
    finishTime: '2026-11-20T10:00:05.000Z',
    ...fields,
  };
}
