import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { CataloguePage } from '../../../admin/catalogue/catalogue-page.tsx';
import type { AdminModel, AllDeployments } from '../../../shared/contracts/model.ts';
import type { AdminModelType } from '../../../shared/contracts/model-type.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp } from '../../helpers/render-app.tsx';
import { prepareDataTables } from '../shell/datatable-env.ts';

/** The console's catalogue: its tabs (models, model types, every deployment) and the model form's types. */
const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };
const window0 = { attempts: 0, successes: 0, failures: 0, successRate: null, p50FirstTokenMs: null };

const type = (id: string, nameEn: string, nameZh: string, extra: Partial<AdminModelType> = {}): AdminModelType => ({
  aiModelTypeId: id,
  nameEn,
  nameZh,
  sort: 10,
  enabled: true,
  builtIn: false,
  modelCount: 0,
  createTime: '2026-01-01T00:00:00.000Z',
  updateTime: '2026-01-01T00:00:00.000Z',
  ...extra,
});

const model = (id: string, name: string, types: string[]): AdminModel => ({
  aiModelId: id,
  name,
  description: '',
  minVipLevel: 0,
  minVipLevelName: 'Free',
  modelMap: { isImage: types.includes('vision'), fileTypes: [] },
  webSearch: true,
  pointsCost: 1,
  tokenPrice: null,
  contextWindow: 8192,
  sort: 0,
  types,
  online: true,
  source: 'admin',
  deploymentCount: 1,
  createTime: '2026-01-01T00:00:00.000Z',
  updateTime: '2026-01-01T00:00:00.000Z',
});

let types: AdminModelType[] = [];
const MODELS = [model('gpt', 'GPT', ['chat', 'vision']), model('painter', 'Painter', ['image'])];
const DEPLOYMENTS: AllDeployments = {
  list: [
    {
      aiModelMapId: 'd1',
      aiModelId: 'painter',
      modelName: 'Painter',
      modelOnline: false,
      provider: 'openai-compatible',
      protocol: 'chat',
      baseUrl: 'https://images.example.com/v1',
      upstreamModelId: 'flux-dev',
      priority: 0,
      enabled: true,
      source: 'admin',
      hasApiKey: true,
      apiKeyHint: 'sk-…abcd',
      coolingUntil: null,
      health: { lastError: null, lastErrorTime: null, day: { ...window0, attempts: 4, successes: 3, failures: 1, successRate: 0.75 }, week: window0 },
      createTime: '2026-01-01T00:00:00.000Z',
      updateTime: '2026-01-01T00:00:00.000Z',
    },
  ],
  total: 1,
  accounts: [{ provider: 'openai-compatible', baseUrl: 'https://images.example.com/v1', deploymentCount: 1 }],
};

const server = serveTheseTests(
  fakeApi({
    '/api/admin/AiModel/GetList': (_req, res) => sendEnvelope(res, { Code: 10000, Data: { list: MODELS, total: MODELS.length } }),
    '/api/admin/AiModel/Save': (req, res) => {
      const body = JSON.parse(req.body) as { name: string; typeIds: string[] };
      return sendEnvelope(res, { Code: 10000, Data: model('new', body.name, body.typeIds) });
    },
    '/api/admin/AiModelType/GetList': (_req, res) => sendEnvelope(res, { Code: 10000, Data: types }),
    '/api/admin/AiModelType/Save': (req, res) => {
      const body = JSON.parse(req.body) as { nameEn: string; nameZh: string };
      const saved = type('speech', body.nameEn, body.nameZh);
      types = [...types, saved];
      return sendEnvelope(res, { Code: 10000, Data: saved });
    },
    '/api/admin/AiModelMap/GetAiModelListAll': (_req, res) => sendEnvelope(res, { Code: 10000, Data: DEPLOYMENTS }),
  }),
);
const sent = (path: string) => server.requests.filter((r) => r.url.split('?')[0] === path);

// jsdom has no scrollIntoView; Mantine's option lists call it on the option they highlight.
beforeAll(() => {
  prepareDataTables();
  Element.prototype.scrollIntoView = () => undefined;
});
afterAll(() => {
  delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
});

beforeEach(() => {
  types = [
    type('chat', 'Chat', '对话', { builtIn: true, modelCount: 1, sort: 10 }),
    type('vision', 'Vision', '识图', { builtIn: true, modelCount: 1, sort: 20 }),
    type('image', 'Image generation', '图像生成', { builtIn: true, modelCount: 1, sort: 30 }),
    type('embedding', 'Embedding', '向量嵌入', { sort: 40, enabled: false }),
    type('rerank', 'Rerank', '重排序', { sort: 50, modelCount: 2 }),
  ];
});

async function renderAt(path: string) {
  const { hook } = memoryLocation({ path });
  await renderInApp(
    <Router hook={hook}>
      <Route path="/admin/models" component={CataloguePage} />
      <Route path="/admin/models/tab/:tab" component={CataloguePage} />
    </Router>,
    { apiBase: server.url, user: admin },
  );
}

describe('the catalogue’s model types tab', () => {
  it('lists the types; built-in ones and ones in use cannot be deleted; a new one is saved with both names', async () => {
    await renderAt('/admin/models/tab/types');
    expect(await screen.findByRole('tab', { name: 'Model types', selected: true })).toBeVisible();
    await screen.findByText('Image generation');
    const table = screen.getByRole('table', { name: 'Model types' });
    expect(within(table).getByText('向量嵌入')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Delete Chat' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete Rerank' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete Embedding' })).toBeEnabled();

    await userEvent.click(screen.getByRole('button', { name: 'New type' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findAllByText('Type the name in both languages.')).toHaveLength(2);
    expect(sent('/api/admin/AiModelType/Save')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText(/Name \(English\)/), 'Speech');
    await userEvent.type(within(dialog).getByLabelText(/Name \(Chinese\)/), '语音');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent('/api/admin/AiModelType/Save')).toHaveLength(1));
    expect(JSON.parse(sent('/api/admin/AiModelType/Save')[0]!.body)).toEqual({ nameEn: 'Speech', nameZh: '语音', enabled: true });
    expect(await screen.findByText('语音')).toBeVisible();
  });
});

describe('the catalogue’s models tab', () => {
  it('shows each model’s types and saves a model with the types picked (vision is “reads images”)', async () => {
    await renderAt('/admin/models');
    const row = (await screen.findByRole('link', { name: 'Painter' })).closest('tr')!;
    await waitFor(() => expect(within(row).getByText('Image generation')).toBeVisible());
    await userEvent.click(screen.getByRole('button', { name: 'New model' }));
    const dialog = await screen.findByRole('dialog', { name: 'New model' });
    await userEvent.type(within(dialog).getByLabelText(/^Name/), 'Seer');
    const picker = within(dialog).getByLabelText(/^Types/, { selector: 'input' });
    await userEvent.click(picker);
    const options = await waitFor(() => document.getElementById(picker.getAttribute('aria-controls') ?? '') ?? expect.fail('type list not open'));
    await userEvent.click(await within(options).findByRole('option', { name: 'Vision', hidden: true }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent('/api/admin/AiModel/Save')).toHaveLength(1));
    expect(JSON.parse(sent('/api/admin/AiModel/Save')[0]!.body)).toMatchObject({ name: 'Seer', typeIds: ['chat', 'vision'], modelMap: { isImage: true } });
  });
});

describe('the catalogue’s deployments tab', () => {
  it('lists every deployment with its model, account and masked key, and filters by model', async () => {
    await renderAt('/admin/models/tab/deployments');
    let table = await screen.findByRole('table', { name: 'Deployments' });
    await screen.findByText('flux-dev');
    // The table is drawn again once its rows have come.
    table = screen.getByRole('table', { name: 'Deployments' });
    expect(within(table).getByRole('link', { name: 'Painter' })).toHaveAttribute('href', '/admin/models/painter');
    expect(within(table).getByText('sk-…abcd')).toBeVisible();
    expect(within(table).getByText('model offline')).toBeVisible();
    expect(within(table).getByText('75.0% of 4')).toBeVisible();

    const picker = screen.getByLabelText('Model', { selector: 'input' });
    await userEvent.click(picker);
    const options = await waitFor(() => document.getElementById(picker.getAttribute('aria-controls') ?? '') ?? expect.fail('model list not open'));
    await userEvent.click(await within(options).findByRole('option', { name: 'GPT', hidden: true }));
    await waitFor(() => expect(sent('/api/admin/AiModelMap/GetAiModelListAll').some((r) => r.url.includes('aiModelId=gpt'))).toBe(true));
  });
});
