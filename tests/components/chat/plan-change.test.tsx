import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useFreshUserInfo } from '../../../components/app-shell/account.ts';
import { ChatView } from '../../../components/chat/chat-view.tsx';
import { chatPlansAddons } from '../../../components/layout/chat-plans.tsx';
import type { UserInfo } from '../../../shared/contracts/user.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/**
 * A plan bought in another tab (the side panel stays open beside it): when the panel gets the focus
 * back, the user is read again, and the models the plan unlocks are listed at once.
 */
let level = 0;
const user = (): UserInfo => (level ? { ...testUser, vipOrder: { vipOrderId: 'o1', vipPackageLevel: level, vipPackageName: 'Advanced', endTime: '2027-11-25T12:00:00Z' } } : testUser);

const server = serveTheseTests(
  fakeApi({
    '/api/User/GetUserByLogin': (_req, res) => sendEnvelope(res, { Code: 10000, Data: user() }),
    '/api/Chat/GetModelListAll': (_req, res) =>
      sendEnvelope(res, { Code: 10000, Data: [testModel('basic', 0), testModel('pro', 2, { locked: level < 2, name: 'Pro Model' })] }),
  }),
);

function ChatWithFreshUser() {
  useFreshUserInfo();
  return <ChatView sessionId={undefined} onSessionCreated={vi.fn()} addons={chatPlansAddons} />;
}

/** The Pro Model item of the open picker (found while the menu may still be fading in). */
const proItem = async () => (await within(await screen.findByRole('menu', { hidden: true })).findByText('Pro Model')).closest('[role="menuitem"]')!;

describe('a plan bought elsewhere', () => {
  it('unlocks its models in an open chat when the window gets the focus back', async () => {
    await renderInApp(<ChatWithFreshUser />, { apiBase: server.url, user: testUser });
    const picker = await screen.findByTestId('model-picker');
    await waitFor(() => expect(picker).toHaveTextContent('basic'));
    await userEvent.click(picker);
    expect(await proItem()).toHaveAttribute('data-locked');
    await userEvent.click(picker);
    await waitFor(() => expect(screen.queryByRole('menu', { hidden: true })).toBeNull());

    level = 2;
    // A focus right after the user was read asks nothing; one later reads it again.
    window.dispatchEvent(new Event('focus'));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 11_000);
    window.dispatchEvent(new Event('focus'));
    vi.useRealTimers();
    await waitFor(() => expect(server.requests.filter((r) => r.url.startsWith('/api/Chat/GetModelListAll'))).toHaveLength(2));
    expect(server.requests.filter((r) => r.url.startsWith('/api/User/GetUserByLogin'))).toHaveLength(2);
    await userEvent.click(picker);
    expect(await proItem()).not.toHaveAttribute('data-locked');
  });
});
