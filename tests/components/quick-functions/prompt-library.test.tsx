import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PromptSettingsPage } from '../../../components/quick-functions/prompt-settings-page.tsx';
import type { PromptSubmission } from '../../../shared/contracts/prompt-library.ts';
import { serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';
import { fakePromptsApi } from './fake-prompts-api.ts';
import { own } from './fake-quick-functions.ts';

const server = serveTheseTests();
// jsdom has no scrollIntoView; Mantine's option lists call it on the option they highlight.
beforeAll(() => {
  Element.prototype.scrollIntoView = () => undefined;
});
afterAll(() => {
  delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
});

async function renderPage(items = [own('p1', 'Essay', { template: 'Write an essay on {input}', tagIds: ['tag-writing'] })], submissions: PromptSubmission[] = []) {
  const api = fakePromptsApi(items);
  api.state.submissions = submissions;
  server.handle(api.handler);
  await renderInApp(<PromptSettingsPage onBack={vi.fn()} />, { apiBase: server.url, user: testUser });
  return api;
}

/** Opens the library's Community tab (Recommended is shown first; only the shown one is fetched). */
async function openCommunity() {
  await userEvent.click(await screen.findByRole('tab', { name: 'Community' }));
  return screen.findByRole('region', { name: 'Community prompts' });
}

const community = () => screen.getByRole('region', { name: 'Community prompts' });
const cardTitles = () => within(community()).queryAllByTestId('community-prompt').map((c) => c.querySelector('p')?.textContent);
const listCalls = () => server.requests.filter((r) => r.url.startsWith('/api/Prompt/GetPromptList')).map((r) => Object.fromEntries(new URL(r.url, 'http://x').searchParams));

async function rowMenu(name: string, item: string) {
  const button = screen.getByRole('button', { name: `More actions for ${name}` });
  await userEvent.click(button);
  const menu = await waitFor(() => document.getElementById(button.getAttribute('aria-controls') ?? '') ?? expect.fail('menu not open'));
  await userEvent.click(await within(menu).findByRole('menuitem', { name: item, hidden: true }));
}

const submission = (state: PromptSubmission['state'], reason = ''): PromptSubmission => ({
  promptSubmissionId: 's-p1',
  userQuickFunctionId: 'p1',
  title: 'Essay',
  description: '',
  content: 'Write an essay on {input}',
  category: 'scoped',
  icon: '',
  appliesTo: ['input'],
  language: 'en',
  tags: [],
  state,
  reason,
  useCount: 0,
  submitTime: '2026-01-01T00:00:00.000Z',
  reviewTime: null,
});

describe('the prompt library: community prompts', () => {
  it("lists the community's prompts beside the recommended ones, with author, uses and tags, by order and tag", async () => {
    await renderPage();
    await screen.findByRole('region', { name: 'Recommended prompts' });
    expect(screen.queryByRole('region', { name: 'Community prompts' })).toBeNull();
    expect(listCalls()).toEqual([]);
    await openCommunity();
    await waitFor(() => expect(cardTitles()).toEqual(['Tweet thread', 'SQL explain']));
    const first = within(community()).getAllByTestId('community-prompt')[0]!;
    expect(first).toHaveTextContent('by Ada · 12 uses');
    expect(within(first).getByRole('group', { name: 'Tags of “Tweet thread”' })).toHaveTextContent('Writing');
    expect(listCalls()[0]).toMatchObject({ source: 'community', sort: 'popular', language: 'en' });

    await userEvent.click(within(community()).getByRole('radio', { name: 'New' }));
    await waitFor(() => expect(cardTitles()).toEqual(['SQL explain', 'Tweet thread']));
    await userEvent.click(within(within(community()).getByTestId('community-tag-chips')).getByRole('radio', { name: 'Code' }));
    await waitFor(() => expect(cardTitles()).toEqual(['SQL explain']));
    expect(listCalls().at(-1)).toMatchObject({ tagId: 'tag-code', sort: 'new' });

    await userEvent.type(within(community()).getByRole('textbox', { name: 'Search community prompts' }), 'nothing like it');
    expect(await within(community()).findByText('No community prompt matches.')).toBeInTheDocument();
  });

  it('"Use" copies the text and counts a use; "Add to my prompts" copies it into the own list', async () => {
    const user = userEvent.setup();
    const api = await renderPage([]);
    await openCommunity();
    await waitFor(() => expect(cardTitles()).toEqual(['Tweet thread', 'SQL explain']));
    await user.click(within(community()).getByRole('button', { name: 'Use “Tweet thread”: copy its text' }));
    await waitFor(() => expect(api.state.uses).toEqual(['c1']));
    expect(await navigator.clipboard.readText()).toBe('Write a tweet thread from {input}');

    await user.click(within(community()).getByRole('button', { name: 'Add “SQL explain” to my prompts' }));
    await waitFor(() => expect(api.state.items.map((i) => [i.name, i.template])).toEqual([['SQL explain', 'Explain this query: {selection}']]));
    // The own list shows it, and the card says it was added.
    await waitFor(() => expect(screen.queryAllByTestId('prompt-row').map((row) => row.querySelector('p')?.textContent)).toEqual(['SQL explain']));
    expect(within(community()).getAllByRole('button', { name: 'Added' })).toHaveLength(1);
  });
});

describe("the user's own prompts: sharing to the library", () => {
  it('shares a prompt with its title, description, tags and language; the row then says it is in review', async () => {
    const api = await renderPage();
    await screen.findByText('Essay');
    await rowMenu('Essay', 'Share to library');
    const dialog = await screen.findByRole('dialog', { name: 'Share “Essay” to the library' });
    const title = within(dialog).getByRole('textbox', { name: /^Title/ });
    expect(title).toHaveValue('Essay');
    await userEvent.clear(title);
    await userEvent.type(title, 'Essay writer');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Writes essays');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send for review' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.state.submissions[0]).toMatchObject({ userQuickFunctionId: 'p1', title: 'Essay writer', description: 'Writes essays', language: 'en', tags: [{ tagPromptId: 'tag-writing' }] });
    expect(await screen.findByLabelText('Library state of “Essay”: In review')).toBeInTheDocument();
  });

  it("shows the server's refusal in the dialog, and a rejection's reason on the row", async () => {
    const api = await renderPage(undefined, [submission('rejected', 'Too vague: say what kind of essay')]);
    expect(await screen.findByLabelText('Library state of “Essay”: Not approved')).toBeInTheDocument();
    expect(screen.getByTestId('submission-reason')).toHaveTextContent('Reason: Too vague: say what kind of essay');

    api.state.refuseSubmit = 'You already have 5 prompts waiting for review.';
    await rowMenu('Essay', 'Share again (edited)');
    const dialog = await screen.findByRole('dialog', { name: 'Share “Essay” to the library' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send for review' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You already have 5 prompts waiting for review.');
  });

  it('withdraws a shared prompt', async () => {
    const api = await renderPage(undefined, [submission('approved')]);
    expect(await screen.findByLabelText('Library state of “Essay”: In library')).toBeInTheDocument();
    await rowMenu('Essay', 'Withdraw from library');
    await waitFor(() => expect(api.state.submissions).toEqual([]));
    await waitFor(() => expect(screen.queryByLabelText(/Library state of “Essay”/)).toBeNull());
  });
});
