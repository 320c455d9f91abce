import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PromptTagsTab } from '../../../admin/content/prompt-tags-tab.tsx';
import { PromptsTab } from '../../../admin/content/prompts-tab.tsx';
import { AdminSavePromptTagBodySchema, type AdminPromptTag } from '../../../shared/contracts/prompt-tag.ts';
import type { AdminRecommendedPrompt } from '../../../shared/contracts/quick-function.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp } from '../../helpers/render-app.tsx';
import { prepareDataTables } from '../shell/datatable-env.ts';

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };

const tag = (id: string, nameEn: string, nameZh: string, sort: number): AdminPromptTag => ({
  tagPromptId: id,
  nameEn,
  nameZh,
  sort,
  createTime: '2026-11-01T00:00:00.000Z',
  promptCount: 2,
  userPromptCount: 1,
});
const prompt: AdminRecommendedPrompt = {
  aiPrompWordId: 'p1',
  title: 'Polite reply',
  content: 'Reply politely to {input}',
  category: 'scoped',
  icon: '',
  sort: 0,
  tags: [{ tagPromptId: 't1', name: 'Email' }],
  language: 'en',
  online: true,
  updateTime: '2026-11-01T00:00:00.000Z',
};

let tags: AdminPromptTag[];

/** The admin TagPrompt routes over an in-memory list, checked with the real contract; a name in use answers 10409 as the server does. */
const server = serveTheseTests(
  fakeApi({
    '/api/admin/TagPrompt/GetList': (_req, res) => sendEnvelope(res, { Code: 10000, Data: tags }),
    '/api/admin/TagPrompt/Save': (req, res) => {
      const body = AdminSavePromptTagBodySchema.parse(JSON.parse(req.body));
      const taken = tags.find((x) => x.tagPromptId !== body.tagPromptId && x.nameEn.toLowerCase() === body.nameEn.toLowerCase());
      if (taken) return sendEnvelope(res, { Code: 10409, Msg: `A tag named “${body.nameEn}” exists already.` });
      const saved = { ...(tags.find((x) => x.tagPromptId === body.tagPromptId) ?? tag(`t${tags.length + 1}`, '', '', 99)), nameEn: body.nameEn, nameZh: body.nameZh };
      tags = [...tags.filter((x) => x.tagPromptId !== saved.tagPromptId), saved];
      return sendEnvelope(res, { Code: 10000, Data: saved });
    },
    '/api/admin/TagPrompt/Delete': (req, res) => {
      const { tagPromptId } = JSON.parse(req.body) as { tagPromptId: string };
      tags = tags.filter((x) => x.tagPromptId !== tagPromptId);
      return sendEnvelope(res, { Code: 10000, Data: null });
    },
    '/api/admin/AiPrompWord/GetList': (_req, res) => sendEnvelope(res, { Code: 10000, Data: { list: [prompt], total: 1 } }),
    '/api/admin/AiPrompWord/Save': (req, res) => sendEnvelope(res, { Code: 10000, Data: { ...prompt, ...(JSON.parse(req.body) as object) } }),
  }),
);
const sent = (path: string) => server.requests.filter((r) => r.url === path).map((r) => JSON.parse(r.body) as Record<string, unknown>);
const rowOf = async (name: string) => (await screen.findByText(name, { selector: 'td, td *' })).closest('tr')!;

// jsdom has no scrollIntoView; Mantine's option lists call it on the option they highlight.
beforeAll(() => {
  prepareDataTables();
  Element.prototype.scrollIntoView = () => undefined;
});
afterAll(() => {
  delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
});
beforeEach(() => {
  tags = [tag('t1', 'Email', '邮件', 10), tag('t2', 'Social', '社交', 20)];
});

describe('the console: prompt tags', () => {
  it('lists the tags with both names, and adds one once both names are given', async () => {
    await renderInApp(<PromptTagsTab />, { apiBase: server.url, user: admin });
    const row = await rowOf('Email');
    expect(within(row).getByText('邮件')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'New tag' }));
    const dialog = await screen.findByRole('dialog', { name: 'New tag' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Name \(English\)/ }), 'Travel');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Enter the name.')).toBeInTheDocument();
    expect(sent('/api/admin/TagPrompt/Save')).toEqual([]);

    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Name \(Chinese\)/ }), ' 旅行 ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New tag' })).toBeNull());
    expect(sent('/api/admin/TagPrompt/Save')).toEqual([{ nameEn: 'Travel', nameZh: '旅行' }]);
    expect(within(await rowOf('Travel')).getByText('旅行')).toBeInTheDocument();
  });

  it("shows the server's refusal of a name in use, and renames a tag", async () => {
    await renderInApp(<PromptTagsTab />, { apiBase: server.url, user: admin });
    await userEvent.click(within(await rowOf('Social')).getByRole('button', { name: 'Edit Social' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit tag' });
    const en = within(dialog).getByRole('textbox', { name: /^Name \(English\)/ });
    await userEvent.clear(en);
    await userEvent.type(en, 'email');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A tag named “email” exists already.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit tag' })).toBeInTheDocument();

    await userEvent.clear(en);
    await userEvent.type(en, 'Social media');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit tag' })).toBeNull());
    expect(sent('/api/admin/TagPrompt/Save').at(-1)).toEqual({ tagPromptId: 't2', nameEn: 'Social media', nameZh: '社交', sort: 20 });
    expect(await rowOf('Social media')).toBeTruthy();
  });

  it('deletes a tag only after the confirmation, which says the prompts stay', async () => {
    await renderInApp(<PromptTagsTab />, { apiBase: server.url, user: admin });
    await userEvent.click(within(await rowOf('Email')).getByRole('button', { name: 'Delete Email' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this tag?' });
    expect(confirm).toHaveTextContent('The tag Email will be taken off the 3 prompts that carry it. The prompts stay.');
    expect(sent('/api/admin/TagPrompt/Delete')).toEqual([]);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(sent('/api/admin/TagPrompt/Delete')).toEqual([{ tagPromptId: 't1' }]));
    await waitFor(() => expect(screen.queryByText('Email', { selector: 'td, td *' })).toBeNull());
  });
});

describe('the console: a recommended prompt’s tags', () => {
  it('shows the tags it carries and saves the ones picked', async () => {
    await renderInApp(<PromptsTab />, { apiBase: server.url, user: admin });
    const row = await rowOf('Reply politely to {input}');
    expect(within(row).getByText('Email')).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit prompt' });
    const picker = within(dialog).getByLabelText('Tags', { selector: 'input' });
    await userEvent.click(picker);
    const options = await waitFor(() => document.getElementById(picker.getAttribute('aria-controls') ?? '') ?? expect.fail('tag list not open'));
    await userEvent.click(await within(options).findByRole('option', { name: 'Social · 社交', hidden: true }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent('/api/admin/AiPrompWord/Save')).toEqual([expect.objectContaining({ aiPrompWordId: 'p1', tagIds: ['t1', 't2'] })]));
  });
});
