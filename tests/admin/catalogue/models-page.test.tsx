import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { ModelsPage } from '../../../admin/catalogue/models-page.tsx';
import { moveId } from '../../../components/ui/sortable.tsx';
import type { AdminModel } from '../../../shared/contracts/model.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };

const model = (id: string, name: string, sort: number): AdminModel => ({
  aiModelId: id,
  name,
  description: '',
  minVipLevel: 0,
  minVipLevelName: 'Free',
  modelMap: { isImage: id === 'b', fileTypes: [] },
  webSearch: true,
  pointsCost: 1,
  tokenPrice: null,
  contextWindow: 8192,
  types: id === 'b' ? ['chat', 'vision'] : ['chat'],
  sort,
  online: true,
  source: 'admin',
  deploymentCount: 1,
  createTime: '2026-11-01T00:00:00.000Z',
  updateTime: '2026-11-01T00:00:00.000Z',
});

let models: AdminModel[];
let refuseSort = false;

const server = serveTheseTests(
  fakeApi({
    '/api/admin/AiModel/GetList': (_req, res) => sendEnvelope(res, { Code: 10000, Data: { list: [...models].sort((x, y) => x.sort - y.sort), total: models.length } }),
    '/api/admin/AiModel/Sort': (req, res) => {
      if (refuseSort) return sendEnvelope(res, { Code: 10404, Msg: 'A model was deleted meanwhile.', Data: null });
      const { ids } = JSON.parse(req.body) as { ids: string[] };
      models = models.map((m) => ({ ...m, sort: ids.indexOf(m.aiModelId) * 10 }));
      return sendEnvelope(res, { Code: 10000, Data: null });
    },
    '/api/admin/AiModel/Save': (req, res) => {
      const body = JSON.parse(req.body) as Partial<AdminModel> & { name: string };
      const saved = { ...model(body.aiModelId ?? 'new', body.name, 99), ...body };
      models = [...models.filter((m) => m.aiModelId !== saved.aiModelId), saved];
      return sendEnvelope(res, { Code: 10000, Data: saved });
    },
  }),
);
const sorts = () => server.requests.filter((r) => r.url === '/api/admin/AiModel/Sort').map((r) => (JSON.parse(r.body) as { ids: string[] }).ids);
const rowNames = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[1]!.querySelector('a')!.textContent);

beforeEach(() => {
  models = [model('a', 'Alpha', 0), model('b', 'Beta', 10), model('c', 'Gamma', 20)];
  refuseSort = false;
});

async function renderPage() {
  const { hook } = memoryLocation({ path: '/admin/models' });
  await renderInApp(
    <Router hook={hook}>
      <ModelsPage />
    </Router>,
    { apiBase: server.url, user: admin },
  );
  await screen.findByRole('link', { name: 'Alpha' });
}

describe('moveId', () => {
  it('moves one id and clamps the target; nothing to move is null', () => {
    expect(moveId(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveId(['a', 'b', 'c'], 2, -5)).toEqual(['c', 'a', 'b']);
    expect(moveId(['a', 'b', 'c'], 1, 1)).toBeNull();
    expect(moveId(['a'], 0, 1)).toBeNull();
  });
});

describe('ModelsPage', () => {
  it('reordering sends the whole new order to AiModel/Sort and shows it', async () => {
    await renderPage();
    expect(rowNames()).toEqual(['Alpha', 'Beta', 'Gamma']);
    await userEvent.click(screen.getByRole('button', { name: 'Move Alpha down' }));
    await waitFor(() => expect(sorts()).toEqual([['b', 'a', 'c']]));
    await waitFor(() => expect(rowNames()).toEqual(['Beta', 'Alpha', 'Gamma']));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Gamma up' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Move Gamma up' }));
    await waitFor(() => expect(sorts()).toEqual([['b', 'a', 'c'], ['b', 'c', 'a']]));
    await waitFor(() => expect(rowNames()).toEqual(['Beta', 'Gamma', 'Alpha']));
  });

  it('a refused reorder goes back to the stored order and says why', async () => {
    refuseSort = true;
    await renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'Move Beta up' }));
    expect(await screen.findByText('A model was deleted meanwhile.')).toBeVisible();
    await waitFor(() => expect(rowNames()).toEqual(['Alpha', 'Beta', 'Gamma']));
  });

  it('the model form checks its values before saving', async () => {
    await renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'New model' }));
    const dialog = await screen.findByRole('dialog', { name: 'New model' });
    await userEvent.type(within(dialog).getByLabelText(/Model id/), 'Bad Id!');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Enter a name of up to 100 characters.')).toBeVisible();
    expect(within(dialog).getByText('Use letters, digits, dot, dash and underscore (up to 64).')).toBeVisible();
    expect(server.requests.some((r) => r.url === '/api/admin/AiModel/Save')).toBe(false);

    await userEvent.clear(within(dialog).getByLabelText(/Model id/));
    await userEvent.type(within(dialog).getByLabelText(/^Name/), 'Delta');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.requests.some((r) => r.url === '/api/admin/AiModel/Save')).toBe(true));
    const body = JSON.parse(server.requests.find((r) => r.url === '/api/admin/AiModel/Save')!.body) as Record<string, unknown>;
    expect(body).toMatchObject({ name: 'Delta', minVipLevel: 0, pointsCost: 1, online: true });
    expect(body).not.toHaveProperty('aiModelId');
    expect(await screen.findByRole('link', { name: 'Delta' })).toBeVisible();
  });

  it('prices a model by tokens: a hold and two prices, checked, then listed as such', async () => {
    await renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'New model' }));
    const dialog = await screen.findByRole('dialog', { name: 'New model' });
    await userEvent.type(within(dialog).getByLabelText(/^Name/), 'Metered');
    await userEvent.click(within(dialog).getByRole('switch', { name: /^Price by tokens/ }));
    const hold = within(dialog).getByLabelText('Points held per message');
    await userEvent.clear(hold);
    await userEvent.type(hold, '0');
    await userEvent.type(within(dialog).getByLabelText('Points per 1,000 input tokens'), '1.5');
    await userEvent.type(within(dialog).getByLabelText('Points per 1,000 output tokens'), '6');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    // No hold: refused in the form, with the reason, before any request.
    expect(await within(dialog).findByText('Token pricing needs a hold of at least 1 point.')).toBeVisible();
    expect(server.requests.some((r) => r.url === '/api/admin/AiModel/Save')).toBe(false);

    await userEvent.clear(hold);
    await userEvent.type(hold, '4');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.requests.some((r) => r.url === '/api/admin/AiModel/Save')).toBe(true));
    const body = JSON.parse(server.requests.find((r) => r.url === '/api/admin/AiModel/Save')!.body) as Record<string, unknown>;
    expect(body).toMatchObject({ name: 'Metered', pointsCost: 4, tokenPrice: { inputPer1k: 1.5, outputPer1k: 6 } });
    const row = (await screen.findByRole('link', { name: 'Metered' })).closest('tr')!;
    expect(row).toHaveTextContent('4 held · 1.5 / 6 per 1k tokens');
  });
});
