import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ChatSidebar } from '../../../components/chat-history/chat-sidebar.tsx';
import { ShareSessionActions } from '../../../components/layout/chat-share.tsx';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

// The share chunk arrives only when the test says so, as on a slow machine.
const chunk = vi.hoisted(() => {
  let release = () => {};
  const arrived = new Promise<void>((resolve) => (release = resolve));
  return { arrived, release: () => release() };
});
vi.mock('../../../components/share/session-share-actions.tsx', async (importOriginal) => {
  await chunk.arrived;
  return importOriginal();
});

const server = serveTheseTests(
  fakeApi({
    '/api/System/GetSettingListAll': answer([]),
    '/api/Chat/GetChatSessionListBySelf': answer({
      list: [{ chatSessionId: 's1', sessionTitle: 'Kyoto trip', sessionDescribe: '', createTime: '2026-11-20T10:00:00.000Z', answering: false }],
      total: 1,
    }),
  }),
);

describe("A chat's menu in the history, with sharing and export", () => {
  it('stays open when opened before the share chunk arrives, and gains its items', async () => {
    await renderInApp(<ChatSidebar onNavigate={vi.fn()} sessionActions={ShareSessionActions} />, { apiBase: server.url, user: testUser });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Kyoto trip' }));
    // jsdom lays nothing out, so the dropdown's position check hides it from the a11y tree, at a
    // moment that depends on the machine's speed: what counts is which items the open menu holds.
    expect(await screen.findByRole('menuitem', { name: 'Rename', hidden: true })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'Export as PDF', hidden: true })).toBeNull();

    chunk.release();
    expect(await screen.findByRole('menuitem', { name: 'Export as PDF', hidden: true })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Share…', hidden: true })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Rename', hidden: true })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Actions for Kyoto trip' }).getAttribute('aria-expanded')).toBe('true');
  });
});
