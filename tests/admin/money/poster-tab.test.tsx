import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import moneyZh from '../../../locales/features/admin-money.zh.json';
import type { AdminPosterSettings } from '../../../shared/contracts/poster.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderMoneyPage } from './render-money-page.tsx';

/** The console's invite poster: settings, picture, and a live preview the server makes from the draft. */

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };

let saved: AdminPosterSettings;
const server = serveTheseTests(
  fakeApi({
    '/api/admin/Poster/Get': (_req, res) => sendEnvelope(res, { Code: 10000, Data: saved }),
    '/api/admin/Poster/Save': (req, res) => {
      const body = JSON.parse(req.body) as Record<string, unknown>;
      saved = { ...saved, ...(body as object), accentColor: String(body.accentColor).toLowerCase(), hasPicture: body.removePicture ? false : saved.hasPicture, updateTime: new Date().toISOString() };
      delete (saved as { removePicture?: unknown }).removePicture;
      sendEnvelope(res, { Code: 10000, Data: saved });
    },
    '/api/admin/Poster/SavePicture': (_req, res) => {
      saved = { ...saved, hasPicture: true, updateTime: new Date().toISOString() };
      sendEnvelope(res, { Code: 10000, Data: saved });
    },
    '/api/admin/Poster/Preview': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' }).end(Buffer.from('\x89PNG\r\n\x1a\n')),
  }),
);
const previews = () => server.requests.filter((r) => r.url.startsWith('/api/admin/Poster/Preview')).map((r) => Object.fromEntries(new URL(r.url, 'http://x').searchParams));
const saves = () => server.requests.filter((r) => r.url === '/api/admin/Poster/Save').map((r) => JSON.parse(r.body) as Record<string, unknown>);

beforeEach(() => {
  saved = {
    headlineEn: '',
    headlineZh: '',
    subtextEn: '',
    subtextZh: '',
    accentColor: '#7b7ddb',
    hasPicture: false,
    defaults: { en: { headline: 'Your AI assistant', subtext: 'Ask and write' }, zh: { headline: '你的 AI 助手', subtext: '提问和写作' } },
    updateTime: null,
  };
  let n = 0;
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:preview-${++n}`);
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
});

describe('the invite poster tab', () => {
  it('shows the preview, made again from the draft as it is typed, and saves the draft', async () => {
    await renderMoneyPage('/admin/money/poster', { apiBase: server.url, user: admin });
    expect(await screen.findByTestId('poster-preview')).toHaveAttribute('src', expect.stringMatching(/^blob:preview-/));
    expect(previews()[0]).toMatchObject({ lang: 'en', headline: '', accentColor: '#7b7ddb' });
    // The built-in words show where a field is empty.
    const headline = screen.getAllByRole('textbox', { name: 'Headline' })[0]!;
    expect(headline).toHaveAttribute('placeholder', 'Your AI assistant');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    await userEvent.type(headline, 'Join me');
    await waitFor(() => expect(previews().at(-1)).toMatchObject({ lang: 'en', headline: 'Join me' }), { timeout: 3_000 });
    // Typing into the Chinese fields previews the Chinese poster.
    await userEvent.type(screen.getAllByRole('textbox', { name: 'Headline' })[1]!, '一起来');
    await waitFor(() => expect(previews().at(-1)).toMatchObject({ lang: 'zh', headline: '一起来' }), { timeout: 3_000 });

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]).toEqual({ headlineEn: 'Join me', headlineZh: '一起来', subtextEn: '', subtextZh: '', accentColor: '#7b7ddb' });
    expect(await screen.findByText('Poster saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
  });

  it('refuses a colour that is not #rrggbb before sending it', async () => {
    await renderMoneyPage('/admin/money/poster', { apiBase: server.url, user: admin });
    const colour = await screen.findByRole('textbox', { name: 'Accent colour' });
    await userEvent.clear(colour);
    await userEvent.type(colour, 'blue');
    expect(await screen.findByText('Use #rrggbb, e.g. #7b7ddb')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    // The preview keeps the saved colour meanwhile.
    expect(previews().every((q) => q.accentColor === '#7b7ddb')).toBe(true);
  });

  it('uploads a picture as a form, then offers to remove it', async () => {
    await renderMoneyPage('/admin/money/poster', { apiBase: server.url, user: admin });
    await screen.findByTestId('poster-preview');
    const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
    expect(input.accept).toBe('image/png,image/jpeg,image/webp');
    const beforeUpload = previews().length;
    await userEvent.upload(input, new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'hero.png', { type: 'image/png' }));
    expect(await screen.findByText('Picture saved')).toBeInTheDocument();
    const sent = server.requests.find((r) => r.url === '/api/admin/Poster/SavePicture')!;
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data/);
    expect(sent.body).toContain('name="picture"; filename="hero.png"');
    const remove = await screen.findByRole('button', { name: 'Remove picture' });
    // A new picture makes a new preview although no word changed.
    await waitFor(() => expect(previews().length).toBeGreaterThan(beforeUpload));
    const before = previews().length;
    await userEvent.click(remove);
    await waitFor(() => expect(saves().at(-1)).toMatchObject({ removePicture: true }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove picture' })).toBeNull());
    await waitFor(() => expect(previews().length).toBeGreaterThan(before));
  });

  it('is in Chinese for a Chinese console', async () => {
    await renderMoneyPage('/admin/money/poster', { apiBase: server.url, user: admin });
    // As admin/main.tsx does: the console's Chinese strings join the shared bundle when it comes.
    const addMoneyZh = (language: string) => language === 'zh' && i18next.addResourceBundle('zh', 'translation', moneyZh, true, false);
    i18next.on('languageChanged', addMoneyZh);
    try {
      await setLanguage('zh');
    } finally {
      i18next.off('languageChanged', addMoneyZh);
    }
    expect(await screen.findByRole('tab', { name: '邀请海报' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('预览')).toBeInTheDocument();
    await userEvent.click(within(screen.getByRole('radiogroup')).getByText('中文'));
    await waitFor(() => expect(previews().at(-1)).toMatchObject({ lang: 'zh' }), { timeout: 3_000 });
  });
});
