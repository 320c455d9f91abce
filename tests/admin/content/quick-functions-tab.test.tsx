import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { QuickFunctionsTab } from '../../../admin/content/quick-functions-tab.tsx';
import { childrenOf, possibleParents } from '../../../admin/content/tree-order.ts';
import type { AdminQuickFunction } from '../../../shared/contracts/quick-function.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };

const item = (id: string, parentId: string | null, sort: number, isGroup = false): AdminQuickFunction => ({
  quickFunctionId: id,
  parentId,
  nameEn: `Item ${id}`,
  nameZh: `项目 ${id}`,
  descriptionEn: '',
  descriptionZh: '',
  templateEn: isGroup ? '' : 'Do {{selection}}',
  templateZh: isGroup ? '' : '处理 {{selection}}',
  icon: '',
  category: 'scoped',
  appliesTo: ['selection'],
  aiModelId: null,
  pinned: false,
  online: true,
  sort,
  isGroup,
  updateTime: '2026-11-01T00:00:00.000Z',
});

let items: AdminQuickFunction[];

const server = serveTheseTests(
  fakeApi({
    '/api/admin/QuickFunction/GetList': (_req, res) => sendEnvelope(res, { Code: 10000, Data: items }),
    '/api/admin/QuickFunction/Sort': (req, res) => {
      const { ids } = JSON.parse(req.body) as { ids: string[] };
      items = items.map((i) => (ids.includes(i.quickFunctionId) ? { ...i, sort: ids.indexOf(i.quickFunctionId) } : i));
      return sendEnvelope(res, { Code: 10000, Data: null });
    },
    '/api/admin/QuickFunction/Save': (req, res) => sendEnvelope(res, { Code: 10000, Data: { ...item('new', null, 9), ...(JSON.parse(req.body) as object) } }),
  }),
);
const sorts = () => server.requests.filter((r) => r.url === '/api/admin/QuickFunction/Sort').map((r) => (JSON.parse(r.body) as { ids: string[] }).ids);
const namesIn = (group: HTMLElement) =>
  within(group)
    .getAllByRole('treeitem')
    .filter((el) => el.closest('[role="group"]') === group)
    .map((el) => el.getAttribute('aria-label'));

beforeEach(() => {
  // Root: group g (with x, y, z), then a, then b.
  items = [item('a', null, 1), item('g', null, 0, true), item('b', null, 2), item('z', 'g', 2), item('x', 'g', 0), item('y', 'g', 1)];
});

describe('the tree', () => {
  it('orders siblings by sort and never offers an item, or what is inside it, as its own group', () => {
    expect(childrenOf(items, null).map((i) => i.quickFunctionId)).toEqual(['g', 'a', 'b']);
    expect(childrenOf(items, 'g').map((i) => i.quickFunctionId)).toEqual(['x', 'y', 'z']);
    expect(possibleParents(items, 'g')).toEqual([]);
    expect(possibleParents(items, 'a').map((i) => i.quickFunctionId)).toEqual(['g']);
  });
});

describe('QuickFunctionsTab', () => {
  it('moving an item sends its siblings in their new order, and shows it', async () => {
    await renderInApp(<QuickFunctionsTab />, { apiBase: server.url, user: admin });
    const tree = await screen.findByRole('tree');
    const [root, inner] = within(tree).getAllByRole('group');
    expect(namesIn(root!)).toEqual(['Item g', 'Item a', 'Item b']);
    expect(namesIn(inner!)).toEqual(['Item x', 'Item y', 'Item z']);

    await userEvent.click(screen.getByRole('button', { name: 'Move Item z up' }));
    await waitFor(() => expect(sorts()).toEqual([['x', 'z', 'y']]));
    await waitFor(() => expect(namesIn(within(screen.getByRole('tree')).getAllByRole('group')[1]!)).toEqual(['Item x', 'Item z', 'Item y']));

    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Item g down' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Move Item g down' }));
    await waitFor(() => expect(sorts()).toEqual([['x', 'z', 'y'], ['a', 'g', 'b']]));
    await waitFor(() => expect(namesIn(within(screen.getByRole('tree')).getAllByRole('group')[0]!)).toEqual(['Item a', 'Item g', 'Item b']));
  });

  it('the form checks both languages before saving', async () => {
    await renderInApp(<QuickFunctionsTab />, { apiBase: server.url, user: admin });
    await userEvent.click(await screen.findByRole('button', { name: 'New quick function' }));
    const dialog = await screen.findByRole('dialog', { name: 'New quick function' });
    // Pasted rather than typed: quicker on a busy machine, and braces are keys to userEvent.type.
    await userEvent.click(within(dialog).getByLabelText(/Name \(English\)/));
    await userEvent.paste('Summarize');
    await userEvent.click(within(dialog).getByLabelText(/Prompt \(English\)/));
    await userEvent.paste('Summarize {{selection}}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Enter a name.')).toBeVisible();
    expect(within(dialog).getByText('Enter the prompt.')).toBeVisible();
    expect(server.requests.some((r) => r.url === '/api/admin/QuickFunction/Save')).toBe(false);
    expect(within(dialog).getByLabelText(/Name \(English\)/)).toHaveValue('Summarize');
  });
});
