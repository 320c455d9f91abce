import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PromptSettingsPage } from '../../../components/quick-functions/prompt-settings-page.tsx';
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

async function renderPage(items = [own('p1', 'Essay', { tagIds: ['tag-writing'] }), own('p2', 'Lint', { tagIds: ['tag-code'] }), own('p3', 'Plain')]) {
  const api = fakePromptsApi(items);
  server.handle(api.handler);
  await renderInApp(<PromptSettingsPage onBack={vi.fn()} />, { apiBase: server.url, user: testUser });
  return api;
}

const library = () => screen.getByRole('region', { name: 'Recommended prompts' });
const cardTitles = () => within(library()).queryAllByTestId('recommended-prompt').map((c) => c.querySelector('p')?.textContent);
const libraryCalls = () =>
  server.requests.filter((r) => r.url.startsWith('/api/AiPrompWord/GetAiPrompWordByRecomment')).map((r) => new URL(r.url, 'http://x').searchParams.get('tagId'));
const rowNames = () => screen.queryAllByTestId('prompt-row').map((row) => row.querySelector('p')?.textContent);

describe('the prompt library: tag chips', () => {
  it('offers All and each tag that some prompt carries, and shows only the prompts of the chosen tag', async () => {
    await renderPage();
    const chips = await within(await screen.findByRole('region', { name: 'Recommended prompts' })).findByRole('radiogroup', { name: 'Filter by tag' });
    expect(within(chips).getAllByRole('radio')).toHaveLength(3);
    expect(within(chips).getByRole('radio', { name: 'All' })).toBeChecked();
    expect(within(chips).queryByRole('radio', { name: 'Empty' })).toBeNull();
    await waitFor(() => expect(cardTitles()).toEqual(['Proofread', 'Code review']));
    // Each card names its tags.
    expect(within(library()).getByRole('group', { name: 'Tags of “Code review”' })).toHaveTextContent('Code');

    await userEvent.click(within(chips).getByRole('radio', { name: 'Code' }));
    await waitFor(() => expect(cardTitles()).toEqual(['Code review']));
    expect(within(chips).getByRole('radio', { name: 'Code' })).toBeChecked();
    expect(libraryCalls()).toEqual([null, 'tag-code']);

    await userEvent.click(within(chips).getByRole('radio', { name: 'All' }));
    await waitFor(() => expect(cardTitles()).toEqual(['Proofread', 'Code review']));
  });

  it("copies a recommended prompt's tags when it is added to the user's own", async () => {
    const api = await renderPage([]);
    await waitFor(() => expect(cardTitles()).toEqual(['Proofread', 'Code review']));
    await userEvent.click(screen.getByRole('button', { name: 'Add “Code review” to my prompts' }));
    await waitFor(() => expect(api.state.items.map((i) => [i.name, i.tagIds])).toEqual([['Code review', ['tag-code']]]));
  });
});

describe("the user's own prompts: tags", () => {
  it('filters the list by tag and says when no prompt carries it', async () => {
    await renderPage();
    await waitFor(() => expect(rowNames()).toEqual(['Essay', 'Lint', 'Plain']));
    await userEvent.click(await screen.findByLabelText('Tag', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Writing', hidden: true }));
    await waitFor(() => expect(rowNames()).toEqual(['Essay']));
    await userEvent.click(screen.getByLabelText('Tag', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Empty', hidden: true }));
    expect(await screen.findByText('None of your prompts carries this tag')).toBeInTheDocument();
    await userEvent.click(screen.getByLabelText('Tag', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'All tags', hidden: true }));
    await waitFor(() => expect(rowNames()).toEqual(['Essay', 'Lint', 'Plain']));
  });

  it("picks tags in the prompt's editor and sends them with the prompt", async () => {
    const api = await renderPage([]);
    await screen.findByText(/No prompts yet/);
    await userEvent.click(screen.getByRole('button', { name: 'New prompt' }));
    const dialog = await screen.findByRole('dialog', { name: 'New prompt' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Haiku');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Content/ }), 'Write a haiku about ');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Chat input' }));
    const picker = await within(dialog).findByLabelText('Tags', { selector: 'input' });
    await userEvent.click(picker);
    const options = await waitFor(() => document.getElementById(picker.getAttribute('aria-controls') ?? '') ?? expect.fail('tag list not open'));
    await userEvent.click(await within(options).findByRole('option', { name: 'Writing', hidden: true }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.state.items.map((i) => [i.name, i.tagIds])).toEqual([['Haiku', ['tag-writing']]]);
  });
});
