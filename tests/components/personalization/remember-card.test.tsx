import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { RememberCard } from '../../../components/personalization/remember-card.tsx';
import type { ChatToolCall } from '../../../shared/contracts/chat.ts';
import { serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';
import { fakePersonalizationApi, freshState, type FakeState } from './fake-personalization.ts';

let state: FakeState;
const server = serveTheseTests(fakePersonalizationApi(() => state));
beforeEach(() => {
  state = freshState({ onboarding: 'done' });
});
const call = (fact: string, status: ChatToolCall['status'] = 'completed'): ChatToolCall => ({
  toolCallId: 'call_1',
  toolName: 'remember',
  input: JSON.stringify({ fact }),
  status,
  output: 'Not saved yet',
  images: [],
});
const saves = () => server.requests.filter((r) => r.url === '/api/Memory/Save').map((r) => JSON.parse(r.body));

describe('RememberCard', () => {
  it('saves the proposed fact only when the user clicks Save, with the answer as its source', async () => {
    await renderInApp(<RememberCard call={call('Writes Python at work')} chatMessageId="msg-1" streaming={false} />, { apiBase: server.url, user: testUser });
    expect(await screen.findByText('Remember this?')).toBeInTheDocument();
    expect(screen.getByText('Writes Python at work')).toBeInTheDocument();
    await waitFor(() => expect(server.requests.some((r) => r.url === '/api/Memory/GetList')).toBe(true));
    expect(saves()).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved to memory')).toBeInTheDocument();
    expect(saves()).toEqual([{ fact: 'Writes Python at work', sourceMessageId: 'msg-1' }]);
    expect(screen.getByTestId('remember-card')).toHaveAttribute('data-state', 'saved');
  });

  it('dismisses without saving', async () => {
    await renderInApp(<RememberCard call={call('Likes tea')} chatMessageId="msg-2" streaming={false} />, { apiBase: server.url, user: testUser });
    await userEvent.click(await screen.findByRole('button', { name: 'Dismiss' }));
    expect(screen.getByText('Not saved')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(saves()).toEqual([]);
  });

  it('shows a fact already saved from this answer as saved', async () => {
    state.memories = [{ memoryId: 'm1', fact: 'Likes tea', sourceMessageId: 'msg-3', createTime: '2026-11-25T10:00:00.000Z', updateTime: '2026-11-25T10:00:00.000Z' }];
    await renderInApp(<RememberCard call={call('Likes tea')} chatMessageId="msg-3" streaming={false} />, { apiBase: server.url, user: testUser });
    expect(await screen.findByText('Saved to memory')).toBeInTheDocument();
  });

  it('shows nothing for a call whose input is not a fact', async () => {
    const { container } = await renderInApp(<RememberCard call={{ ...call('x'), input: '{"oops":1}' }} chatMessageId="m" streaming={false} />, {
      apiBase: server.url,
      user: testUser,
    });
    expect(container.querySelector('[data-testid="remember-card"]')).toBeNull();
  });
});
