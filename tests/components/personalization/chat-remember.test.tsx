import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChatAddonsContext } from '../../../components/chat/chat-addons.ts';
import { ToolCalls } from '../../../components/chat/tool-calls.tsx';
import { chatMemoryAddons } from '../../../components/layout/chat-memory.tsx';
import type { ChatToolCall } from '../../../shared/contracts/chat.ts';
import { serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';
import { fakePersonalizationApi, freshState } from './fake-personalization.ts';

const server = serveTheseTests(fakePersonalizationApi(() => freshState({ onboarding: 'done' })));

const search: ChatToolCall = { toolCallId: 'c1', toolName: 'web_search', input: '{"query":"otters"}', status: 'completed', output: 'results', images: [] };
const remember: ChatToolCall = { toolCallId: 'c2', toolName: 'remember', input: '{"fact":"Writes Python"}', status: 'completed', output: 'Not saved yet', images: [] };

describe('the remember proposal in an answer', () => {
  it('shows as the memory card (through the chat addons), other calls as usual', async () => {
    await renderInApp(
      <ChatAddonsContext.Provider value={chatMemoryAddons}>
        <ToolCalls calls={[search, remember]} streaming={false} chatMessageId="msg-1" />
      </ChatAddonsContext.Provider>,
      { apiBase: server.url, user: testUser },
    );
    expect(await screen.findByTestId('remember-card')).toHaveTextContent('Writes Python');
    const items = screen.getAllByTestId('tool-call');
    expect(items.map((i) => i.getAttribute('data-tool'))).toEqual(['web_search']);
  });

  it('without the addon (another host), lists the call like any other', async () => {
    await renderInApp(<ToolCalls calls={[remember]} streaming={false} chatMessageId="msg-1" />, { apiBase: server.url, user: testUser });
    expect(screen.getAllByTestId('tool-call').map((i) => i.getAttribute('data-tool'))).toEqual(['remember']);
    expect(screen.queryByTestId('remember-card')).toBeNull();
  });
});
