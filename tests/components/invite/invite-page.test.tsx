import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InvitePage } from '../../../components/invite/invite-page.tsx';
import { loginDialogAtom } from '../../../shared/atoms/login-dialog.ts';
import type { InvitedAccount } from '../../../shared/contracts/invites.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

const info = {
  inviteCode: 'K7QX2M9P',
  inviteUrl: 'https://tandem.example/?inviteCode=K7QX2M9P',
  invitedCount: 23,
  creditedCount: 21,
  pointsEarned: 2100,
  pointsPerInvite: 100,
  disabled: false,
};
let invited: InvitedAccount[];

const server = serveTheseTests(
  fakeApi({
    '/api/InviteCode/GetMyInviteCode': answer(info),
    '/api/InviteCode/GetMyInviteList': (_req, res, url) => {
      const page = Number(url.searchParams.get('page'));
      const count = Number(url.searchParams.get('count'));
      return sendEnvelope(res, { Code: 10000, Data: { list: invited.slice((page - 1) * count, page * count), total: invited.length } });
    },
  }),
);
const calls = (path: string) => server.requests.filter((r) => r.url.startsWith(path));

let writeText: ReturnType<typeof vi.fn<(text: string) => Promise<void>>>;
beforeEach(() => {
  invited = Array.from({ length: 23 }, (_, i) => ({
    userName: `Fr***${i + 1}`,
    createTime: `2026-11-${String(25 - (i % 20)).padStart(2, '0')}T10:00:00.000Z`,
    credited: i >= 2,
    points: i >= 2 ? 100 : 0,
  }));
  writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});
afterEach(() => {
  delete (navigator as { clipboard?: unknown }).clipboard;
});

const rows = () => screen.queryAllByTestId('invited-account');

describe('InvitePage', () => {
  it('asks a visitor to sign in, and asks the server nothing', async () => {
    const { store } = await renderInApp(<InvitePage onBack={vi.fn()} />, { apiBase: server.url, user: null });
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(store.get(loginDialogAtom)).toEqual({ open: true, notice: 'invite.signInTip' });
    expect(calls('/api/InviteCode')).toHaveLength(0);
  });

  it('shows the code, the link, the rule, the counts and the invitations, 20 at a time', async () => {
    await renderInApp(<InvitePage onBack={vi.fn()} />, { apiBase: server.url, user: testUser });
    expect(await screen.findByTestId('invite-code')).toHaveTextContent('K7QX2M9P');
    expect(screen.getByRole('textbox', { name: 'Your invite link' })).toHaveValue(info.inviteUrl);
    expect(screen.getByTestId('invite-rule')).toHaveTextContent(
      'You earn 100 points for each friend who signs up with your link, credited after their first message.',
    );
    expect(screen.getByTestId('invite-invited')).toHaveTextContent('23');
    expect(screen.getByTestId('invite-credited')).toHaveTextContent('21');
    expect(screen.getByTestId('invite-points')).toHaveTextContent('2100');

    await waitFor(() => expect(rows()).toHaveLength(20));
    expect(rows()[0]).toHaveTextContent('Fr***1');
    expect(within(rows()[0]).getByText('Pending')).toBeInTheDocument();
    expect(within(rows()[0]).getByText('Nov 25, 2026')).toBeInTheDocument();
    expect(within(rows()[2]).getByText('+100 points')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(23));
    expect(calls('/api/InviteCode/GetMyInviteList').map((r) => new URL(r.url, 'http://x').searchParams.get('page'))).toEqual(['1', '2']);
  });

  it('copies the code and the link', async () => {
    await renderInApp(<InvitePage onBack={vi.fn()} />, { apiBase: server.url, user: testUser });
    await userEvent.click(await screen.findByRole('button', { name: 'Copy code' }));
    expect(writeText).toHaveBeenLastCalledWith('K7QX2M9P');
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenLastCalledWith(info.inviteUrl);
  });

  it('says when copying failed', async () => {
    writeText.mockRejectedValue(new Error('denied'));
    await renderInApp(<InvitePage onBack={vi.fn()} />, { apiBase: server.url, user: testUser });
    await userEvent.click(await screen.findByRole('button', { name: 'Copy link' }));
    expect(await screen.findByText("Couldn't copy. Select the text and copy it yourself.")).toBeInTheDocument();
  });

  it('says so when nobody has signed up yet, and when invites earn nothing now', async () => {
    invited = [];
    server.handle(
      fakeApi({
        '/api/InviteCode/GetMyInviteCode': answer({ ...info, invitedCount: 0, creditedCount: 0, pointsEarned: 0, pointsPerInvite: 0 }),
        '/api/InviteCode/GetMyInviteList': answer({ list: [], total: 0 }),
      }),
    );
    await renderInApp(<InvitePage onBack={vi.fn()} />, { apiBase: server.url, user: testUser });
    expect(await screen.findByText('No one has signed up with your link yet.')).toBeInTheDocument();
    expect(screen.getByTestId('invite-rule')).toHaveTextContent('Invite rewards are paused right now');
  });

  it('tells the owner when an administrator disabled their code, in place of the rule', async () => {
    server.handle(
      fakeApi({
        '/api/InviteCode/GetMyInviteCode': answer({ ...info, disabled: true }),
        '/api/InviteCode/GetMyInviteList': answer({ list: [], total: 0 }),
      }),
    );
    await renderInApp(<InvitePage onBack={vi.fn()} />, { apiBase: server.url, user: testUser });
    expect(await screen.findByTestId('invite-disabled')).toHaveTextContent('An administrator has disabled your invite code');
    expect(screen.queryByTestId('invite-rule')).toBeNull();
  });

  it('on a narrow screen, a bar on top leads back; in Chinese', async () => {
    const onBack = vi.fn();
    await renderInApp(<InvitePage onBack={onBack} />, { apiBase: server.url, user: testUser, platform: { isH5: true, scene: 'h5' } });
    await setLanguage('zh');
    expect(await screen.findByText('你的邀请码')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '返回聊天' }));
    expect(onBack).toHaveBeenCalled();
    expect(screen.getByTestId('invite-rule')).toHaveTextContent('100 积分');
  });
});
