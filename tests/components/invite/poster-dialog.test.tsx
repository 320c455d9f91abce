import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InvitePage } from '../../../components/invite/invite-page.tsx';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { catchDownloads } from '../../helpers/downloads.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/** The invite page's poster: the server's PNG in the app's language, downloaded or shared. */

const info = {
  inviteCode: 'K7QX2M9P',
  inviteUrl: 'https://tandem.example/?inviteCode=K7QX2M9P',
  invitedCount: 0,
  creditedCount: 0,
  pointsEarned: 0,
  pointsPerInvite: 100,
  disabled: false,
};
/** Not a real PNG: the dialog shows what the server sends, whatever its pixels. */
const POSTER_BYTES = Buffer.from('\x89PNG\r\n\x1a\nposter');
let posterAnswer: 'png' | 'busy';

const server = serveTheseTests(
  fakeApi({
    '/api/InviteCode/GetMyInviteCode': answer(info),
    '/api/InviteCode/GetMyInviteList': answer({ list: [], total: 0 }),
    '/api/Poster/GetPosterByCode': (_req, res) => {
      if (posterAnswer === 'busy') return sendEnvelope(res, { Code: 10429, Msg: 'Many posters are being made right now.' });
      res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' }).end(POSTER_BYTES);
    },
  }),
);
const posterCalls = () => server.requests.filter((r) => r.url.startsWith('/api/Poster/GetPosterByCode')).map((r) => new URL(r.url, 'http://x').searchParams);

let writeText: ReturnType<typeof vi.fn<(text: string) => Promise<void>>>;
beforeEach(() => {
  posterAnswer = 'png';
  writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});
afterEach(() => {
  delete (navigator as { clipboard?: unknown }).clipboard;
  delete (navigator as { share?: unknown }).share;
  delete (navigator as { canShare?: unknown }).canShare;
  vi.restoreAllMocks();
});

async function openPoster() {
  await userEvent.click(await screen.findByRole('button', { name: /^(Poster|海报)$/ }));
  return screen.findByRole('dialog');
}

describe('the invite poster', () => {
  it('asks for the poster of the user’s code in the app’s language, shows it and downloads it as a named PNG', async () => {
    const downloads = catchDownloads();
    await renderInApp(<InvitePage onBack={vi.fn()} />, { apiBase: server.url, user: testUser });
    const dialog = await openPoster();
    const image = await within(dialog).findByTestId('invite-poster-image');
    expect(image).toHaveAttribute('src', 'blob:test');
    expect(image).toHaveAttribute('alt', 'Your invite poster with a QR code of your link');
    expect(posterCalls().map((q) => [q.get('code'), q.get('lang')])).toEqual([['K7QX2M9P', 'en']]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(downloads).toHaveLength(1);
    expect(downloads[0]!.name).toBe('invite-poster-K7QX2M9P-en.png');
    expect(Buffer.from(await downloads[0]!.blob.arrayBuffer()).equals(POSTER_BYTES)).toBe(true);
  });

  it('shares the picture where the browser shares files', async () => {
    catchDownloads();
    const share = vi.fn<(data: ShareData) => Promise<void>>().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'share', { value: share, configurable: true });
    Object.defineProperty(navigator, 'canShare', { value: (data: ShareData) => !!data.files?.length, configurable: true });
    await renderInApp(<InvitePage onBack={vi.fn()} />, { apiBase: server.url, user: testUser });
    const dialog = await openPoster();
    await within(dialog).findByTestId('invite-poster-image');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Share' }));
    await waitFor(() => expect(share).toHaveBeenCalledTimes(1));
    const sent = share.mock.calls[0]![0];
    expect(sent.text).toBe(info.inviteUrl);
    expect(sent.files?.[0]?.name).toBe('invite-poster-K7QX2M9P-en.png');
    expect(sent.files?.[0]?.type).toBe('image/png');
    expect(writeText).not.toHaveBeenCalled();
  });

  it('copies the link where the browser cannot share a file, in Chinese', async () => {
    catchDownloads();
    await renderInApp(<InvitePage onBack={vi.fn()} />, { apiBase: server.url, user: testUser, platform: { isH5: true, scene: 'h5' } });
    await setLanguage('zh');
    const dialog = await openPoster();
    expect(within(dialog).getByText('邀请海报')).toBeInTheDocument();
    await within(dialog).findByTestId('invite-poster-image');
    expect(posterCalls().at(-1)!.get('lang')).toBe('zh');
    await userEvent.click(within(dialog).getByRole('button', { name: '分享' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(info.inviteUrl));
    expect(await screen.findByText('此处无法直接分享图片，已复制你的邀请链接。')).toBeInTheDocument();
  });

  it('says why when the server could not make it, and tries again', async () => {
    catchDownloads();
    posterAnswer = 'busy';
    await renderInApp(<InvitePage onBack={vi.fn()} />, { apiBase: server.url, user: testUser });
    const dialog = await openPoster();
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Many posters are being made right now.');
    posterAnswer = 'png';
    await userEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByTestId('invite-poster-image')).toBeInTheDocument();
  });
});
