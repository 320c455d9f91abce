import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ChatSidebar } from '../../../components/chat-history/chat-sidebar.tsx';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/** The sidebar's account area: who is signed in, with their picture (or initials), leading to Settings → Account. */

const PATH = '/api/Account/GetHeadImg?headImgId=0b8e7a52-57c4-4a0e-9d3f-3b7f0d2a7a11';
const server = serveTheseTests(fakeApi({ '/api/Chat/GetChatSessionListBySelf': answer({ list: [], total: 0 }) }));

describe('the sidebar’s account area', () => {
  it('shows the user’s picture from the server in use, their name and e-mail, and opens their settings', async () => {
    const onNavigate = vi.fn();
    await renderInApp(<ChatSidebar onNavigate={onNavigate} />, { apiBase: server.url, user: { ...testUser, headImg: PATH } });
    const avatar = screen.getByTestId('sidebar-avatar');
    expect(avatar.querySelector('img')).toHaveAttribute('src', `${server.url}${PATH}`);
    expect(screen.getByTestId('sidebar-user-name')).toHaveTextContent('Alice');
    await userEvent.click(screen.getByRole('button', { name: 'Alice: account settings' }));
    expect(onNavigate).toHaveBeenCalledWith('/setting/account');
  });

  it('shows the initials without a picture, also collapsed', async () => {
    await renderInApp(<ChatSidebar onNavigate={vi.fn()} defaultCollapsed />, { apiBase: server.url, user: testUser });
    const avatar = screen.getByTestId('sidebar-avatar');
    expect(avatar).toHaveAttribute('data-avatar', 'initials');
    expect(avatar).toHaveTextContent(/^A$/);
    expect(screen.queryByTestId('sidebar-user-name')).not.toBeInTheDocument();
  });

  it('shows no account to a visitor', async () => {
    await renderInApp(<ChatSidebar onNavigate={vi.fn()} />, { apiBase: server.url, user: null });
    expect(screen.queryByTestId('sidebar-account')).not.toBeInTheDocument();
  });
});
