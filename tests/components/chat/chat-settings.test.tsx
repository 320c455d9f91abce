import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRouter } from '../../../components/app-shell/router.tsx';
import { AppRoutes } from '../../../components/layout/app-routes.tsx';
import type { ChatSessionItem } from '../../../shared/contracts/chat.ts';
import { DEFAULT_PARAM_BOUNDS, type ParamBounds, type SessionParams } from '../../../shared/contracts/param-tools.ts';
import type { Platform } from '../../../shared/platform/platform.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { listedMessage } from '../../helpers/messages.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/**
 * The chat's settings (components/chat/chat-settings.tsx), opened from the open chat's "…" menu: the
 * values the server keeps for the chat, within the model's bounds, saved with SaveBySession and shown
 * again when the chat is opened anew (another surface reads the same server values).
 */

const BOUNDS: ParamBounds = { ...DEFAULT_PARAM_BOUNDS, temperatureMin: 0, temperatureMax: 1, maxOutputTokensMax: 2000, systemPromptMaxLength: 200 };
/** What the fake server keeps per chat, as the real one does. */
let stored: Record<string, SessionParams['params']>;
/** The effective values the fake answers (the real server clamps); null: the stored ones. */
let effectiveOverride: Partial<SessionParams['effective']> | null;

const session: ChatSessionItem = {
  chatSessionId: 's1',
  sessionTitle: 'Kyoto trip',
  sessionDescribe: '',
  createTime: '2026-11-20T10:00:00.000Z',
  lastActiveTime: '2026-11-20T10:00:00.000Z',
  pinned: false,
  answering: false,
};

const view = (id: string): SessionParams => {
  const params = stored[id] ?? { temperature: null, maxOutputTokens: null, systemPrompt: '' };
  return { chatSessionId: id, params, bounds: BOUNDS, effective: { ...params, ...effectiveOverride } };
};

const server = serveTheseTests(
  fakeApi({
    '/api/Chat/GetModelListAll': answer([testModel('basic', 0, { name: 'Basic Model' })]),
    '/api/Chat/GetChatSessionListBySelf': answer({ list: [session], total: 1 }),
    '/api/Chat/GetChatSession': answer(session),
    '/api/Chat/GetChatMessageListBySelfSessionId': answer({ list: [listedMessage({ chatMessageId: 'm1', chatSessionId: 's1', inputMessage: 'Hi', outputMessage: 'Hello' })], total: 1 }),
    '/api/Chat/GetShareList': answer([]),
    '/api/Browser/AddBrowser': answer(),
    '/api/ParamTools/GetBySession': (_req, res, url) => sendEnvelope(res, { Code: 10000, Data: view(url.searchParams.get('chatSessionId')!) }),
    '/api/ParamTools/SaveBySession': (req, res) => {
      const body = JSON.parse(req.body) as { chatSessionId: string; temperature: number | null; maxOutputTokens: number | null; systemPrompt: string };
      stored[body.chatSessionId] = { temperature: body.temperature, maxOutputTokens: body.maxOutputTokens, systemPrompt: body.systemPrompt };
      return sendEnvelope(res, { Code: 10000, Data: view(body.chatSessionId) });
    },
  }),
);

beforeEach(() => {
  stored = {};
  effectiveOverride = null;
});

const calls = (path: string) => server.requests.filter((r) => r.url.startsWith(path));

function openAt(path: string, platform: Partial<Platform> = {}) {
  window.history.replaceState(null, '', path);
  return renderInApp(
    <AppRouter platform={{ isExtension: false }}>
      <AppRoutes />
    </AppRouter>,
    { apiBase: server.url, user: testUser, platform },
  );
}

async function openSettings() {
  await userEvent.click(await screen.findByRole('button', { name: 'Chat options' }));
  await userEvent.click(await screen.findByRole('menuitem', { name: 'Chat settings', hidden: true }));
  return screen.findByRole('dialog', { name: 'Chat settings' });
}

describe("the chat's settings", () => {
  it('saves the maximum answer length and the system prompt for this chat, and shows them again when the chat is opened anew', async () => {
    const first = await openAt('/s1');
    const dialog = await openSettings();
    const tokens = await within(dialog).findByRole('textbox', { name: /Maximum answer length/ });
    expect(tokens).toHaveValue('');
    expect(within(dialog).getByRole('checkbox', { name: "Use the model's default" })).toBeChecked();
    await userEvent.type(tokens, '500');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /System prompt/ }), 'Answer in haiku.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Chat settings saved')).toBeInTheDocument();
    await waitFor(() => expect(calls('/api/ParamTools/SaveBySession')).toHaveLength(1));
    expect(JSON.parse(calls('/api/ParamTools/SaveBySession')[0]!.body)).toEqual({
      chatSessionId: 's1',
      aiModelId: 'basic',
      temperature: null,
      maxOutputTokens: 500,
      systemPrompt: 'Answer in haiku.',
    });
    expect(calls('/api/ParamTools/GetBySession')[0]!.url).toContain('aiModelId=basic');
    first.unmount();

    // Another surface (a fresh app, the narrow layout) reads the same values from the server.
    await openAt('/s1', { isH5: true });
    const again = await openSettings();
    expect(await within(again).findByRole('textbox', { name: /Maximum answer length/ })).toHaveValue('500');
    expect(within(again).getByRole('textbox', { name: /System prompt/ })).toHaveValue('Answer in haiku.');
  });

  it('sets a temperature within the bounds and says when the model now gets a clamped value', async () => {
    stored.s1 = { temperature: 0.9, maxOutputTokens: 3000, systemPrompt: '' };
    effectiveOverride = { temperature: 0.5, maxOutputTokens: 2000 };
    await openAt('/s1');
    const dialog = await openSettings();
    expect(await within(dialog).findByTestId('chat-settings-temperature-value')).toHaveTextContent('0.9');
    expect(within(dialog).getByText("The model's limits changed: it is sent 0.5 for now.")).toBeInTheDocument();
    expect(within(dialog).getByText("The model's limits changed: it is sent 2000 for now.")).toBeInTheDocument();
    const slider = within(dialog).getByRole('slider');
    slider.focus();
    await userEvent.keyboard('{ArrowLeft}');
    expect(within(dialog).getByTestId('chat-settings-temperature-value')).toHaveTextContent('0.8');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls('/api/ParamTools/SaveBySession')).toHaveLength(1));
    expect(JSON.parse(calls('/api/ParamTools/SaveBySession')[0]!.body)).toMatchObject({ temperature: 0.8 });
  });
});
