import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PromptSettingsPage } from '../../../components/quick-functions/prompt-settings-page.tsx';
import { promptPluginVersionPersisted } from '../../../shared/atoms/user-config.ts';
import { peekPersisted } from '../../../shared/storage/active.ts';
import { serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';
import { fakePromptsApi } from './fake-prompts-api.ts';
import { own } from './fake-quick-functions.ts';

const server = serveTheseTests();
let api = fakePromptsApi();

const calls = (path: string) => server.requests.filter((r) => r.url.startsWith(`/api/QuickFunction/${path}`)).map((r) => JSON.parse(r.body) as Record<string, unknown>);

async function renderPage(items = api.state.items) {
  api = fakePromptsApi(items);
  server.handle(api.handler);
  const result = await renderInApp(<PromptSettingsPage onBack={vi.fn()} />, { apiBase: server.url, user: testUser });
  return result;
}

/** Picks `item` in the actions menu of the row named `name` (menus closing elsewhere are left alone). */
async function rowMenu(name: string, item: string) {
  const button = screen.getByRole('button', { name: `More actions for ${name}` });
  await userEvent.click(button);
  const menu = await waitFor(() => document.getElementById(button.getAttribute('aria-controls') ?? '') ?? expect.fail('menu not open'));
  await userEvent.click(await within(menu).findByRole('menuitem', { name: item, hidden: true }));
}

const rowNames = () => screen.queryAllByTestId('prompt-row').map((row) => row.querySelector('p')?.textContent);

beforeEach(() => {
  api = fakePromptsApi();
});

describe('/prompt_setting: the Prompt form', () => {
  it('says what is missing (name, content, applicable-to) and sends nothing; then saves a complete prompt', async () => {
    await renderPage([]);
    expect(await screen.findByText('No prompts yet. Write one, or add a recommended one below.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'New prompt' }));
    const dialog = await screen.findByRole('dialog', { name: 'New prompt' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Prompt name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Prompt content is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Please select what it applies to')).toBeInTheDocument();
    expect(calls('SaveUserQuickFunction')).toEqual([]);

    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Simplify');
    expect(within(dialog).queryByText('Prompt name is required')).toBeNull();
    const content = within(dialog).getByRole('textbox', { name: /^Content/ });
    await userEvent.type(content, 'Say this simply: ');
    // The placeholder help inserts at the cursor.
    await userEvent.click(within(dialog).getByRole('button', { name: /\{selection\}/ }));
    expect(content).toHaveValue('Say this simply: {selection}');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Selected text' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Chat input' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Plain words');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls('SaveUserQuickFunction')).toEqual([
      expect.objectContaining({ name: 'Simplify', template: 'Say this simply: {selection}', appliesTo: ['selection', 'input'], description: 'Plain words', online: true, pinned: false, userQuickFunctionId: null }),
    ]);
    await waitFor(() => expect(rowNames()).toEqual(['Simplify']));
    // The change is announced to the extension's pages (updatePromptPlugin).
    expect(peekPersisted(promptPluginVersionPersisted)).toBe(1);
  });

  it('shows the server\'s refusal in the form, and edits an existing prompt', async () => {
    await renderPage([own('p1', 'Tweet', { template: 'Make a tweet of {input}', appliesTo: ['input'] })]);
    await screen.findByTestId('prompt-row');
    await rowMenu('Tweet', 'Edit');
    const dialog = await screen.findByRole('dialog', { name: 'Edit prompt' });
    expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveValue('Tweet');
    api.state.refuseSave = 'You keep too many prompts';
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You keep too many prompts');
    api.state.refuseSave = null;
    const name = within(dialog).getByRole('textbox', { name: /^Name/ });
    await userEvent.clear(name);
    await userEvent.type(name, 'Thread');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(rowNames()).toEqual(['Thread']));
    expect(calls('SaveUserQuickFunction').at(-1)).toEqual(expect.objectContaining({ userQuickFunctionId: 'p1', name: 'Thread' }));
  });
});

describe('/prompt_setting: the list', () => {
  const items = () => [
    own('a', 'Alpha', { sort: 0 }),
    own('g', 'Writing', { sort: 1, isGroup: true, template: '', appliesTo: ['selection', 'page', 'input'] }),
    own('b', 'Beta', { sort: 2, parentId: 'g' }),
    own('c', 'Gamma', { sort: 3, parentId: 'g', description: 'third one' }),
  ];

  it('shows groups with their prompts; sorts with up and down; searches; shows, hides and pins', async () => {
    await renderPage(items());
    await waitFor(() => expect(rowNames()).toEqual(['Alpha', 'Writing', 'Beta', 'Gamma']));
    await userEvent.click(screen.getByRole('button', { name: 'Move Gamma up' }));
    await waitFor(() => expect(rowNames()).toEqual(['Alpha', 'Writing', 'Gamma', 'Beta']));
    expect(calls('SortUserQuickFunction')).toEqual([{ ids: ['a', 'g', 'c', 'b'] }]);
    // A group moves with its prompts.
    await userEvent.click(screen.getByRole('button', { name: 'Move Alpha down' }));
    await waitFor(() => expect(rowNames()).toEqual(['Writing', 'Gamma', 'Beta', 'Alpha']));
    expect(calls('SortUserQuickFunction').at(-1)).toEqual({ ids: ['g', 'c', 'b', 'a'] });
    expect(screen.getByRole('button', { name: 'Move Writing up' })).toBeDisabled();

    await userEvent.type(screen.getByRole('textbox', { name: 'Search prompts' }), 'third');
    expect(rowNames()).toEqual(['Gamma']);
    // No reordering among filtered rows.
    expect(screen.queryByRole('button', { name: 'Move Gamma up' })).toBeNull();
    await userEvent.clear(screen.getByRole('textbox', { name: 'Search prompts' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Search prompts' }), 'zzz');
    expect(screen.getByText('No prompt matches “zzz”')).toBeInTheDocument();
    await userEvent.clear(screen.getByRole('textbox', { name: 'Search prompts' }));

    await userEvent.click(screen.getByRole('switch', { name: 'Show in lists: Beta' }));
    await waitFor(() => expect(calls('OnlineUserQuickFunction')).toEqual([{ userQuickFunctionId: 'b', online: false }]));
    await userEvent.click(screen.getByRole('button', { name: 'Pin to the selection toolbar: Alpha' }));
    await waitFor(() => expect(calls('SaveUserQuickFunction')).toEqual([expect.objectContaining({ userQuickFunctionId: 'a', name: 'Alpha', pinned: true })]));
    expect(await screen.findByRole('button', { name: 'Unpin from the selection toolbar: Alpha' })).toHaveAttribute('aria-pressed', 'true');
    expect(peekPersisted(promptPluginVersionPersisted)).toBe(4);
  });

  it('moves a prompt into and out of a group, and deletes after asking', async () => {
    await renderPage(items());
    await waitFor(() => expect(rowNames()).toHaveLength(4));
    await rowMenu('Alpha', 'Writing');
    await waitFor(() => expect(rowNames()).toEqual(['Writing', 'Alpha', 'Beta', 'Gamma']));
    expect(calls('GroupUserQuickFunction')).toEqual([{ userQuickFunctionId: 'a', parentId: 'g' }]);

    await rowMenu('Beta', 'Delete');
    const confirm = await screen.findByRole('dialog', { name: 'Delete this prompt?' }, { timeout: 5000 });
    expect(confirm).toHaveTextContent('“Beta” will be deleted.');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls('DeleteUserQuickFunction')).toEqual([]);
    await rowMenu('Beta', 'Delete');
    const again = await screen.findByRole('dialog', { name: 'Delete this prompt?' }, { timeout: 5000 });
    await userEvent.click(within(again).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(rowNames()).toEqual(['Writing', 'Alpha', 'Gamma']));
    expect(calls('DeleteUserQuickFunction')).toEqual([{ userQuickFunctionId: 'b' }]);
  });

  it('adds a recommended prompt with one click', async () => {
    await renderPage([]);
    const cards = await screen.findAllByTestId('recommended-prompt');
    expect(cards.map((c) => c.querySelector('p')?.textContent)).toEqual(['Proofread', 'Code review']);
    await userEvent.click(screen.getByRole('button', { name: 'Add “Proofread” to my prompts' }));
    await waitFor(() => expect(rowNames()).toEqual(['Proofread']));
    expect(calls('SaveUserQuickFunction')).toEqual([
      expect.objectContaining({ name: 'Proofread', template: 'Proofread {selection} and list the changes.', appliesTo: ['selection'], category: 'style', icon: '🔍' }),
    ]);
    expect(within(cards[0]).getByRole('button', { name: 'Added' })).toBeDisabled();
  });

  it('asks a visitor to sign in', async () => {
    api = fakePromptsApi();
    server.handle(api.handler);
    await renderInApp(<PromptSettingsPage onBack={vi.fn()} />, { apiBase: server.url, user: null });
    expect(await screen.findByText('Sign in to keep your own prompts.')).toBeInTheDocument();
    expect(calls('GetUserQuickFunctionList')).toEqual([]);
  });
});

describe('/prompt_setting: import and export', () => {
  const upload = (content: string, name = 'prompts.json') =>
    fireEvent.change(screen.getByTestId('prompt-import-file'), { target: { files: [new File([content], name, { type: 'application/json' })] } });

  it('refuses a file that is not JSON or not an export, and sends nothing', async () => {
    await renderPage([]);
    await screen.findByText(/No prompts yet/);
    upload('this is not json {');
    expect(within(await screen.findByTestId('import-report')).getByRole('alert')).toHaveTextContent('This file is not JSON. Choose a file exported from the prompt settings.');
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('import-report')).toBeNull());
    upload(JSON.stringify([{ name: 'x' }]));
    expect(within(await screen.findByTestId('import-report')).getByRole('alert')).toHaveTextContent('This file is not a prompts export');
    expect(server.requests.some((r) => r.url.includes('ImportUserQuickFunction'))).toBe(false);
  });

  it('imports the good items of a file and reports each bad one with its reason', async () => {
    await renderPage([]);
    await screen.findByText(/No prompts yet/);
    upload(
      JSON.stringify({
        version: 1,
        items: [
          { key: 'k1', name: 'Good one', template: 'Do {input}', appliesTo: ['input'] },
          { key: 'k2', name: '', template: 'No name', appliesTo: ['input'] },
          { key: 'k3', name: 'Nowhere', template: 'Where?', appliesTo: [] },
          { key: 'k4', name: 'In a lost group', parentKey: 'missing', template: 'Hi {selection}', appliesTo: ['selection'] },
          { key: 'k1', name: 'Same key', template: 'Again', appliesTo: ['input'] },
        ],
      }),
    );
    const report = await screen.findByTestId('import-report');
    expect(within(report).getByRole('status')).toHaveTextContent('2 imported, 3 skipped');
    const problems = within(report).getAllByRole('listitem').map((li) => li.textContent);
    expect(problems).toEqual([
      'Item 2 (no name): the name is missing or too long',
      'Item 3 (Nowhere): “appliesTo” must list selection, page or input',
      "Item 5 (Same key): its “key” repeats an earlier item's",
    ]);
    expect(api.state.imported).toEqual([
      {
        version: 1,
        items: [
          expect.objectContaining({ key: 'k1', name: 'Good one', parentKey: null }),
          expect.objectContaining({ key: 'k4', name: 'In a lost group', parentKey: null }),
        ],
      },
    ]);
    expect(peekPersisted(promptPluginVersionPersisted)).toBe(1);
  });

  it('exports the prompts as a JSON file download', async () => {
    const created: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => (created.push(blob as Blob), 'blob:prompts'));
    const revokeObjectURL = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toMatch(/^tandem-prompts-\d{4}-\d{2}-\d{2}\.json$/);
      expect(this.href).toBe('blob:prompts');
    });
    await renderPage([own('p1', 'Tweet')]);
    await screen.findByTestId('prompt-row');
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(clicked).toHaveBeenCalledTimes(1));
    expect(JSON.parse(await created[0].text())).toEqual({ version: 1, items: [expect.objectContaining({ key: 'p1', name: 'Tweet' })] });
    await waitFor(() => expect(revokeObjectURL).toHaveBeenCalledWith('blob:prompts'));
    clicked.mockRestore();
  });
});
