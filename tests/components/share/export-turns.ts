import type { ChatMessageItem } from '../../../shared/contracts/chat.ts';

/** A stored turn of a chat, as the history answers it; `over` sets what a test is about. */
export const message = (over: Partial<ChatMessageItem>): ChatMessageItem => ({
  chatMessageId: 'm', chatSessionId: 's', inputMessage: '', outputMessage: '', aiModelId: 'basic', modelName: 'Basic',
  chatMediaIds: [], chatMedias: [], citations: [], toolCalls: [], quickFunction: null, selection: null,
  finishReason: 'stop', createTime: '2026-11-25T10:00:00.000Z', finishTime: null, ...over,
});

/** A turn with everything an export lays out: a PDF attached, a second attachment, a selection and a source. */
export const fullTurn = (second: ChatMessageItem['chatMedias'][number], over: Partial<ChatMessageItem>): ChatMessageItem =>
  message({
    chatMedias: [{ chatMediaId: 'a', mediaType: 'file', title: 'paper.pdf', url: '/api/Chat/GetChatMedia?x', icon: '' }, second],
    selection: { text: 'selected words', title: 'An article', url: 'https://example.com/a' },
    citations: [{ index: 1, title: 'Source one', url: 'https://example.com/1' }],
    ...over,
  });
