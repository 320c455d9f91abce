import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PromptReviewTab } from '../../../admin/content/prompt-review-tab.tsx';
import {
  AdminPromptSubmissionListQuerySchema,
  AdminRejectPromptBodySchema,
  AdminUnpublishPromptBodySchema,
  PromptSubmissionIdBodySchema,
  type AdminPromptSubmission,
} from '../../../shared/contracts/prompt-library.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp } from '../../helpers/render-app.tsx';
import { prepareDataTables } from '../shell/datatable-env.ts';

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };

const submission = (id: string, title: string, state: AdminPromptSubmission['state']): AdminPromptSubmission => ({
  promptSubmissionId: id,
  userQuickFunctionId: `own-${id}`,
  title,
  description: `${title}, described`,
  content: `Do ${title} with {input}`,
  category: 'scoped',
  icon: '',
  appliesTo: ['input'],
  language: 'en',
  tags: [{ tagPromptId: 't1', name: 'Writing' }],
  state,
  reason: '',
  useCount: 3,
  submitTime: '2026-11-01T00:00:00.000Z',
  reviewTime: null,
  authorId: 'u1',
  authorName: 'Ada',
  authorEmail: 'ada@example.com',
});

let queue: AdminPromptSubmission[];

/** The admin UserPrompt routes over an in-memory queue, checked with the real contracts, refusing as the server does. */
const server = serveTheseTests(
  fakeApi({
    '/api/admin/UserPrompt/GetList': (_req, res, url) => {
      const q = AdminPromptSubmissionListQuerySchema.parse(Object.fromEntries(url.searchParams));
      const list = queue.filter((s) => (!q.state || s.state === q.state) && (!q.q || `${s.title} ${s.authorEmail}`.includes(q.q)));
      sendEnvelope(res, { Code: 10000, Data: { list, total: list.length } });
    },
    '/api/admin/UserPrompt/Approve': (req, res) => decide(res, PromptSubmissionIdBodySchema.parse(JSON.parse(req.body)).promptSubmissionId, 'pending', 'approved', ''),
    '/api/admin/UserPrompt/Reject': (req, res) => {
      const body = AdminRejectPromptBodySchema.safeParse(JSON.parse(req.body));
      if (!body.success) return sendEnvelope(res, { Code: 10400, Msg: 'Please tell the author why: the reason is required.' });
      decide(res, body.data.promptSubmissionId, 'pending', 'rejected', body.data.reason);
    },
    '/api/admin/UserPrompt/Unpublish': (req, res) => {
      const body = AdminUnpublishPromptBodySchema.parse(JSON.parse(req.body));
      decide(res, body.promptSubmissionId, 'approved', 'unpublished', body.reason ?? '');
    },
  }),
);

function decide(res: Parameters<typeof sendEnvelope>[0], id: string, from: string, to: AdminPromptSubmission['state'], reason: string) {
  const found = queue.find((s) => s.promptSubmissionId === id);
  if (!found || found.state !== from) return sendEnvelope(res, { Code: 10409, Msg: 'This prompt is no longer waiting for review.' });
  const saved = { ...found, state: to, reason };
  queue = queue.map((s) => (s === found ? saved : s));
  sendEnvelope(res, { Code: 10000, Data: saved });
}

const sent = (path: string) => server.requests.filter((r) => r.url === path).map((r) => JSON.parse(r.body) as Record<string, unknown>);
const rowOf = async (name: string) => (await screen.findByText(name, { selector: 'td, td *' })).closest('tr')!;

beforeAll(() => {
  prepareDataTables();
  Element.prototype.scrollIntoView = () => undefined;
});
afterAll(() => {
  delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
});
beforeEach(() => {
  queue = [submission('s1', 'Tweet thread', 'pending'), submission('s2', 'SQL explain', 'pending'), submission('s3', 'Old one', 'approved')];
});

describe('the console: prompt review', () => {
  it('shows the waiting prompts with author, tags and uses, and approves one', async () => {
    await renderInApp(<PromptReviewTab />, { apiBase: server.url, user: admin });
    const row = await rowOf('Tweet thread');
    expect(row).toHaveTextContent('ada@example.com');
    expect(row).toHaveTextContent('Writing');
    expect(row).toHaveTextContent('Waiting for review');
    // The queue opens on the waiting ones: the approved one is not in it.
    expect(screen.queryByText('Old one', { selector: 'td, td *' })).toBeNull();

    await userEvent.click(within(row).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(sent('/api/admin/UserPrompt/Approve')).toEqual([{ promptSubmissionId: 's1' }]));
    await waitFor(() => expect(screen.queryByText('Tweet thread', { selector: 'td, td *' })).toBeNull());
    expect(queue[0]!.state).toBe('approved');
  });

  it('rejects only with a reason, which is sent to the server', async () => {
    await renderInApp(<PromptReviewTab />, { apiBase: server.url, user: admin });
    await userEvent.click(within(await rowOf('SQL explain')).getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject “SQL explain”' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Please give a reason.')).toBeInTheDocument();
    expect(sent('/api/admin/UserPrompt/Reject')).toEqual([]);

    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Reason/ }), 'Say which dialect of SQL');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(sent('/api/admin/UserPrompt/Reject')).toEqual([{ promptSubmissionId: 's2', reason: 'Say which dialect of SQL' }]));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reject “SQL explain”' })).toBeNull());
    expect(queue[1]).toMatchObject({ state: 'rejected', reason: 'Say which dialect of SQL' });
  });

  it('lists by state and takes an approved prompt down, showing a refusal in place', async () => {
    await renderInApp(<PromptReviewTab />, { apiBase: server.url, user: admin });
    await rowOf('Tweet thread');
    await userEvent.click(screen.getByLabelText('State', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'In library', hidden: true }));
    const row = await rowOf('Old one');
    // Someone else took it down meanwhile: the server's refusal shows in the dialog.
    queue = queue.map((s) => (s.promptSubmissionId === 's3' ? { ...s, state: 'unpublished' } : s));
    await userEvent.click(within(row).getByRole('button', { name: 'Unpublish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unpublish “Old one”' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unpublish' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This prompt is no longer waiting for review.');
    expect(sent('/api/admin/UserPrompt/Unpublish')).toEqual([{ promptSubmissionId: 's3' }]);
  });
});
