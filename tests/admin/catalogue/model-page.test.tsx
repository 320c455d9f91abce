import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { ModelPage } from '../../../admin/catalogue/model-page.tsx';
import { apiKeyField } from '../../../admin/catalogue/deployment-form.tsx';
import type { AdminDeployment, AdminModel } from '../../../shared/contracts/model.ts';
import { DEFAULT_PARAM_BOUNDS, type AdminModelParams, type ParamBounds } from '../../../shared/contracts/param-tools.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };
const window0 = { attempts: 0, successes: 0, failures: 0, successRate: null, p50FirstTokenMs: null };

const model: AdminModel = {
  aiModelId: 'basic',
  name: 'Basic',
  description: '',
  minVipLevel: 0,
  minVipLevelName: 'Free',
  modelMap: { isImage: false, fileTypes: [] },
  webSearch: true,
  pointsCost: 1,
  tokenPrice: null,
  contextWindow: 8192,
  sort: 0,
  types: ['chat'],
  online: true,
  source: 'admin',
  deploymentCount: 1,
  createTime: '2026-11-01T00:00:00.000Z',
  updateTime: '2026-11-01T00:00:00.000Z',
};

let deployments: AdminDeployment[];
const deployment = (fields: Partial<AdminDeployment> = {}): AdminDeployment => ({
  aiModelMapId: 'd1',
  aiModelId: 'basic',
  provider: 'openai-compatible',
  protocol: 'chat',
  baseUrl: 'http://127.0.0.1:9/v1',
  upstreamModelId: 'gpt-small',
  priority: 0,
  enabled: true,
  source: 'admin',
  hasApiKey: true,
  apiKeyHint: '••••1234',
  coolingUntil: null,
  health: {
    lastError: 'upstream said 429',
    lastErrorTime: '2026-11-20T10:00:00.000Z',
    day: { attempts: 10, successes: 9, failures: 1, successRate: 0.9, p50FirstTokenMs: 420 },
    week: window0,
  },
  createTime: '2026-11-01T00:00:00.000Z',
  updateTime: '2026-11-01T00:00:00.000Z',
  ...fields,
});

let modelParams: AdminModelParams;

const server = serveTheseTests(
  fakeApi({
    '/api/admin/ParamTools/GetByModelId': (_req, res) => sendEnvelope(res, { Code: 10000, Data: modelParams }),
    '/api/admin/ParamTools/Save': (req, res) => {
      const body = JSON.parse(req.body) as { bounds: ParamBounds | null };
      modelParams = { ...modelParams, bounds: body.bounds ?? DEFAULT_PARAM_BOUNDS, custom: body.bounds !== null };
      return sendEnvelope(res, { Code: 10000, Data: modelParams });
    },
    '/api/admin/AiModel/GetById': (_req, res) => sendEnvelope(res, { Code: 10000, Data: model }),
    '/api/admin/AiModelMap/GetList': (_req, res) => sendEnvelope(res, { Code: 10000, Data: deployments }),
    '/api/admin/AiModelMap/Save': (req, res) => {
      const body = JSON.parse(req.body) as Partial<AdminDeployment> & { apiKey?: string };
      if (body.upstreamModelId === 'refused') return sendEnvelope(res, { Code: 10400, Msg: 'The base URL is not allowed.', Data: null });
      const saved = deployment({ ...body, aiModelMapId: body.aiModelMapId ?? 'd2', hasApiKey: body.apiKey ? true : body.apiKey === '' ? false : true });
      deployments = [...deployments.filter((d) => d.aiModelMapId !== saved.aiModelMapId), saved];
      return sendEnvelope(res, { Code: 10000, Data: saved });
    },
    '/api/admin/AiModelMap/Test': (req, res) => {
      const body = JSON.parse(req.body) as { aiModelMapId?: string };
      return sendEnvelope(res, {
        Code: 10000,
        Data:
          body.aiModelMapId === 'd1'
            ? { ok: true, text: 'Hello from the fake upstream', firstTokenMs: 35, totalMs: 60, errorKind: null, error: null }
            : { ok: false, text: '', firstTokenMs: null, totalMs: 12, errorKind: 'auth', error: 'The upstream refused the key (401).' },
      });
    },
  }),
);
const saves = () => server.requests.filter((r) => r.url === '/api/admin/AiModelMap/Save').map((r) => JSON.parse(r.body) as Record<string, unknown>);

beforeEach(() => {
  deployments = [deployment()];
  modelParams = { aiModelId: 'basic', name: 'Basic', bounds: DEFAULT_PARAM_BOUNDS, custom: false };
});
const paramSaves = () => server.requests.filter((r) => r.url === '/api/admin/ParamTools/Save').map((r) => JSON.parse(r.body) as Record<string, unknown>);

async function renderPage() {
  const { hook } = memoryLocation({ path: '/admin/models/basic' });
  await renderInApp(
    <Router hook={hook}>
      <Route path="/admin/models/:aiModelId">
        <ModelPage />
      </Route>
    </Router>,
    { apiBase: server.url, user: admin },
  );
  return screen.findByRole('article', { name: 'Deployment gpt-small' });
}

async function openEdit() {
  const card = await renderPage();
  await userEvent.click(within(card).getByRole('button', { name: 'Edit deployment' }));
  return screen.findByRole('form', { name: 'Deployment' });
}

describe('the key field of a deployment', () => {
  it('sends no key unless one is typed, and an empty one only when "Remove key" was chosen', () => {
    expect(apiKeyField({ apiKey: '', removeKey: false })).toEqual({});
    expect(apiKeyField({ apiKey: '   ', removeKey: false })).toEqual({});
    expect(apiKeyField({ apiKey: ' sk-new ', removeKey: false })).toEqual({ apiKey: 'sk-new' });
    expect(apiKeyField({ apiKey: 'sk-typed-then-removed', removeKey: true })).toEqual({ apiKey: '' });
  });
});

describe('ModelPage', () => {
  it("shows each deployment's health: answers, success rate, median first token, last error", async () => {
    const card = await renderPage();
    const health = within(card).getByRole('table', { name: 'Health' });
    expect(health).toHaveTextContent('10 (1 failed)');
    expect(health).toHaveTextContent('90.0%');
    expect(health).toHaveTextContent('420 ms');
    expect(health).toHaveTextContent('upstream said 429');
    expect(card).toHaveTextContent('key ••••1234');
  });

  it('editing without touching the key keeps it: the body has no apiKey at all', async () => {
    const form = await openEdit();
    expect(within(form).getByLabelText('API key')).toHaveValue('');
    expect(form).toHaveTextContent('A key is stored (••••1234)');
    const priority = within(form).getByRole('textbox', { name: /Priority/ });
    await userEvent.clear(priority);
    await userEvent.type(priority, '5');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]).not.toHaveProperty('apiKey');
    expect(saves()[0]).toMatchObject({ aiModelMapId: 'd1', aiModelId: 'basic', priority: 5, upstreamModelId: 'gpt-small' });
  });

  it('"Remove key" sends an empty key; a typed key is sent as typed', async () => {
    let form = await openEdit();
    await userEvent.type(within(form).getByLabelText('API key'), 'sk-abandoned');
    await userEvent.click(within(form).getByRole('button', { name: 'Remove key' }));
    expect(within(form).getByLabelText('API key')).toBeDisabled();
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]).toHaveProperty('apiKey', '');

    await waitFor(() => expect(screen.queryByRole('form', { name: 'Deployment' })).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Add deployment' }));
    form = await screen.findByRole('form', { name: 'Deployment' });
    await userEvent.type(within(form).getByLabelText(/Upstream model id/), 'gpt-large');
    await userEvent.type(within(form).getByLabelText('API key'), 'sk-fresh-5678');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves()).toHaveLength(2));
    expect(saves()[1]).toMatchObject({ aiModelId: 'basic', upstreamModelId: 'gpt-large', apiKey: 'sk-fresh-5678' });
    expect(saves()[1]).not.toHaveProperty('aiModelMapId');
  });

  it('checks the form before sending, and keeps what was typed when the server refuses', async () => {
    await renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'Add deployment' }));
    const form = await screen.findByRole('form', { name: 'Deployment' });
    await userEvent.type(within(form).getByLabelText('Base URL'), 'ftp://example.com');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('An http(s) address of up to 500 characters, or empty.')).toBeVisible();
    expect(within(form).getByText('Enter the model id the provider knows (up to 200 characters).')).toBeVisible();
    expect(saves()).toHaveLength(0);

    await userEvent.clear(within(form).getByLabelText('Base URL'));
    await userEvent.type(within(form).getByLabelText(/Upstream model id/), 'refused');
    await userEvent.type(within(form).getByLabelText('API key'), 'sk-keep-me');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The base URL is not allowed.')).toBeVisible();
    expect(within(form).getByLabelText(/Upstream model id/)).toHaveValue('refused');
    expect(within(form).getByLabelText('API key')).toHaveValue('sk-keep-me');
  });

  it('"Test" shows the first tokens, or the error, in the test result region', async () => {
    const card = await renderPage();
    await userEvent.click(within(card).getByRole('button', { name: 'Test' }));
    const region = await within(card).findByRole('region', { name: 'Test result' });
    expect(region).toHaveTextContent('Hello from the fake upstream');
    expect(region).toHaveTextContent('35 ms');
    expect(JSON.parse(server.requests.find((r) => r.url === '/api/admin/AiModelMap/Test')!.body)).toEqual({ aiModelMapId: 'd1' });

    await userEvent.click(screen.getByRole('button', { name: 'Add deployment' }));
    const form = await screen.findByRole('form', { name: 'Deployment' });
    await userEvent.type(within(form).getByLabelText(/Upstream model id/), 'gpt-new');
    await userEvent.click(within(form).getByRole('button', { name: 'Test these settings' }));
    const failed = await within(form).findByRole('region', { name: 'Test result' });
    expect(failed).toHaveTextContent('The upstream refused the key (401).');
  });
});

describe('ModelPage: the protocol and the parameters', () => {
  // jsdom has no scrollIntoView; Mantine's option lists call it on the option they highlight.
  beforeAll(() => {
    Element.prototype.scrollIntoView = () => undefined;
  });
  afterAll(() => {
    delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
  });
  it("sets a deployment's protocol to the Responses API, and shows it on its card", async () => {
    const form = await openEdit();
    await userEvent.click(within(form).getByRole('combobox', { name: /^API/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Responses API', hidden: true }));
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]).toMatchObject({ aiModelMapId: 'd1', protocol: 'responses' });
    const card = await screen.findByRole('article', { name: 'Deployment gpt-small' });
    await waitFor(() => expect(card).toHaveTextContent('Responses API'));
  });

  it("saves the model's parameter bounds, refuses inverted ones with a clear message, and restores the defaults", async () => {
    await renderPage();
    const section = await screen.findByRole('form', { name: 'Parameters' });
    const max = within(section).getByRole('textbox', { name: 'Highest temperature' });
    await userEvent.clear(max);
    await userEvent.type(max, '1.2');
    const tokens = within(section).getByRole('textbox', { name: /Maximum answer length/ });
    await userEvent.clear(tokens);
    await userEvent.type(tokens, '1000');
    await userEvent.click(within(section).getByRole('switch', { name: 'Users may add a system prompt' }));
    await userEvent.click(within(section).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(paramSaves()).toHaveLength(1));
    expect(paramSaves()[0]).toEqual({
      aiModelId: 'basic',
      bounds: { ...DEFAULT_PARAM_BOUNDS, temperatureMax: 1.2, maxOutputTokensMax: 1000, systemPromptAllowed: false },
    });
    expect(await screen.findByText('Parameters saved')).toBeInTheDocument();

    const again = await screen.findByRole('form', { name: 'Parameters' });
    const min = within(again).getByRole('textbox', { name: 'Lowest temperature' });
    await userEvent.clear(min);
    await userEvent.type(min, '1.5');
    await userEvent.click(within(again).getByRole('button', { name: 'Save' }));
    expect(await within(again).findByText('The lowest temperature must not be above the highest.')).toBeInTheDocument();
    expect(paramSaves()).toHaveLength(1);

    await userEvent.click(within(again).getByRole('button', { name: 'Restore defaults' }));
    await waitFor(() => expect(paramSaves()).toHaveLength(2));
    expect(paramSaves()[1]).toEqual({ aiModelId: 'basic', bounds: null });
  });
});
