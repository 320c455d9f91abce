import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountSection } from '../../../components/settings/account-section.tsx';
import { authActionAtom, userInfoAtom } from '../../../shared/atoms/auth.ts';
import type { UserInfo } from '../../../shared/contracts/user.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { fakeApi, serveTheseTests, type Route } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { formOf } from '../../helpers/multipart.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/**
 * Settings → Account → Profile's picture: the initials until there is one, a chosen file checked and
 * previewed before it is sent, the server's answer (or refusal) shown, and Remove.
 */

const PATH = '/api/Account/GetHeadImg?headImgId=0b8e7a52-57c4-4a0e-9d3f-3b7f0d2a7a11';
let addHeadImg: Route;
let removeRefused = false;
const server = serveTheseTests(
  fakeApi({
    '/api/Account/AddUserForHeadImg': (req, res, url) => addHeadImg(req, res, url),
    '/api/Account/DeleteUserHeadImg': (_req, res) =>
      removeRefused ? sendEnvelope(res, { Code: 10500, Msg: 'The picture store is unavailable.', Data: null }) : sendEnvelope(res, { Code: 10000, Data: { ...testUser, headImg: null } }),
  }),
);

beforeEach(() => {
  addHeadImg = (_req, res) => sendEnvelope(res, { Code: 10000, Data: { ...testUser, headImg: PATH } });
  removeRefused = false;
  notifications.clean();
  // Node's own object URLs take only Node's Blobs: this stands for the browser's.
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:tandem/preview');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

const uploads = () => server.requests.filter((r) => r.url === '/api/Account/AddUserForHeadImg');
const avatar = () => screen.getByTestId('settings-avatar');
const picture = () => screen.getByTestId('settings-picture');
const png = (name = 'me.png', size?: number) => {
  const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])], name, { type: 'image/png' });
  if (size) Object.defineProperty(file, 'size', { value: size });
  return file;
};
// The chooser offers pictures only; these tests also hand it what a user could force on it.
const user = () => userEvent.setup({ applyAccept: false });

describe('the Profile card’s picture', () => {
  it('shows the initials on a coloured circle without a picture', async () => {
    await renderInApp(<AccountSection />, { apiBase: server.url, user: testUser });
    expect(avatar()).toHaveAttribute('data-avatar', 'initials');
    expect(avatar()).toHaveTextContent(/^A$/);
    expect(avatar().style.background).toMatch(/var\(--mantine-color-\w+-9\)/);
    expect(within(picture()).getByRole('button', { name: 'Upload a picture' })).toBeInTheDocument();
    expect(within(picture()).queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
    expect(within(picture()).getByText(/cropped to a square around its centre/)).toBeInTheDocument();
    expect(screen.getByTestId('picture-input')).toHaveAttribute('accept', 'image/png,image/jpeg,image/webp');
  });

  it('previews a chosen picture, sends it on Save, then shows the stored one', async () => {
    const { store } = await renderInApp(<AccountSection />, { apiBase: server.url, user: testUser });
    await user().upload(screen.getByTestId('picture-input'), png());
    // The preview, before anything is sent.
    expect(avatar().querySelector('img')).toHaveAttribute('src', 'blob:tandem/preview');
    expect(avatar()).toHaveAccessibleName('Preview of the new picture');
    expect(uploads()).toEqual([]);
    await userEvent.click(within(picture()).getByRole('button', { name: 'Save picture' }));

    expect(await screen.findByText('Picture saved')).toBeInTheDocument();
    expect(uploads()).toHaveLength(1);
    const form = await formOf(uploads()[0]!);
    expect((form.get('headImg') as File).name).toBe('me.png');
    await waitFor(() => expect(avatar().querySelector('img')).toHaveAttribute('src', `${server.url}${PATH}`));
    expect(store.get(userInfoAtom)?.headImg).toBe(PATH);
    expect(within(picture()).getByRole('button', { name: 'Change picture' })).toBeInTheDocument();
  });

  it('refuses another type or a file over 10 MB before sending, and Cancel drops a preview', async () => {
    await renderInApp(<AccountSection />, { apiBase: server.url, user: testUser });
    await user().upload(screen.getByTestId('picture-input'), new File(['GIF89a'], 'anim.gif', { type: 'image/gif' }));
    expect(await screen.findByTestId('picture-error')).toHaveTextContent('Choose a PNG, JPEG or WebP image');
    await user().upload(screen.getByTestId('picture-input'), png('big.png', 10 * 1024 * 1024 + 1));
    expect(screen.getByTestId('picture-error')).toHaveTextContent('The picture is larger than 10 MB. Choose a smaller one.');
    expect(avatar()).toHaveAttribute('data-avatar', 'initials');

    await user().upload(screen.getByTestId('picture-input'), png());
    expect(screen.queryByTestId('picture-error')).not.toBeInTheDocument();
    await userEvent.click(within(picture()).getByRole('button', { name: 'Cancel' }));
    expect(avatar()).toHaveAttribute('data-avatar', 'initials');
    expect(uploads()).toEqual([]);
  });

  it('shows the server’s refusal in the reader’s language, keeping the picture there was', async () => {
    addHeadImg = (req, res) =>
      sendEnvelope(res, {
        Code: 10422,
        Msg: req.headers['accept-language'] === 'zh' ? 'fake.png 的内容不是有效的 PNG 文件，请以正确的格式保存后重试。' : 'The content of fake.png is not a valid PNG file.',
        Data: null,
      });
    const pictured: UserInfo = { ...testUser, headImg: PATH };
    await renderInApp(<AccountSection />, { apiBase: server.url, user: pictured });
    await setLanguage('zh');
    await user().upload(screen.getByTestId('picture-input'), png('fake.png'));
    await userEvent.click(within(picture()).getByRole('button', { name: '保存头像' }));
    // The spec's 'Upload failed' (上传失败), then the server's reason.
    expect(await screen.findByTestId('picture-error')).toHaveTextContent(/^上传失败：fake\.png 的内容不是有效的 PNG 文件/);
    // The preview stays for another try; Cancel shows the stored picture again.
    await userEvent.click(within(picture()).getByRole('button', { name: '取消' }));
    expect(avatar().querySelector('img')).toHaveAttribute('src', `${server.url}${PATH}`);
  });

  it("says 'Delete Failed' with the reason when the picture cannot be removed, keeping it", async () => {
    removeRefused = true;
    await renderInApp(<AccountSection />, { apiBase: server.url, user: { ...testUser, headImg: PATH } });
    await userEvent.click(within(picture()).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByTestId('picture-error')).toHaveTextContent('Delete Failed: The picture store is unavailable.');
    expect(avatar()).toHaveAttribute('data-avatar', 'picture');
  });

  it('removes the picture, back to the initials', async () => {
    const { store } = await renderInApp(<AccountSection />, { apiBase: server.url, user: { ...testUser, headImg: PATH } });
    expect(avatar()).toHaveAttribute('data-avatar', 'picture');
    await userEvent.click(within(picture()).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Picture removed')).toBeInTheDocument();
    await waitFor(() => expect(avatar()).toHaveAttribute('data-avatar', 'initials'));
    expect(store.get(userInfoAtom)?.headImg).toBeNull();
    expect(server.requests.some((r) => r.url === '/api/Account/DeleteUserHeadImg')).toBe(true);
  });

  it('fills the nickname in when the user arrives after the page opened', async () => {
    const { store } = await renderInApp(<AccountSection />, { apiBase: server.url, user: { ...testUser, userName: '' } });
    const nickname = screen.getByRole('textbox', { name: 'Nickname' }) as HTMLInputElement;
    expect(nickname.value).toBe('');
    await act(() => store.set(authActionAtom, { type: 'userInfo', userInfo: { ...testUser, userName: 'Alice Cooper' } }));
    expect(nickname.value).toBe('Alice Cooper');
  });
});
