import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SignInProvidersTab } from '../../../admin/content/sign-in-providers-tab.tsx';
import { SaveSignInProviderSchema, type AdminSignInProvider } from '../../../shared/contracts/sign-in-providers.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp } from '../../helpers/render-app.tsx';
import { prepareDataTables } from '../shell/datatable-env.ts';

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };

const provider = (p: Partial<AdminSignInProvider> & Pick<AdminSignInProvider, 'providerKey' | 'displayName'>): AdminSignInProvider => ({
  kind: 'oidc',
  issuer: 'https://id.example.com',
  tenant: null,
  clientId: 'client',
  hasSecret: true,
  enabled: true,
  sortOrder: 0,
  source: 'console',
  ...p,
});

let providers: AdminSignInProvider[];

/** The admin SignInProvider routes over an in-memory list, checked with the real contract; never answering a secret. */
const server = serveTheseTests(
  fakeApi({
    '/api/admin/SignInProvider/GetList': (_req, res) => sendEnvelope(res, { Code: 10000, Data: { list: providers } }),
    '/api/admin/SignInProvider/Save': (req, res) => {
      const body = SaveSignInProviderSchema.parse(JSON.parse(req.body));
      const before = providers.find((p) => p.providerKey === body.providerKey);
      if (!before && !body.clientSecret) return sendEnvelope(res, { Code: 10400, Msg: 'Type the client secret the provider gave you.' });
      const { clientSecret: _secret, ...fields } = body;
      const saved = provider({ ...fields, issuer: body.issuer ?? null, tenant: body.tenant ?? null, hasSecret: true, source: 'console' });
      providers = [...providers.filter((p) => p.providerKey !== saved.providerKey), saved];
      return sendEnvelope(res, { Code: 10000, Data: saved });
    },
    '/api/admin/SignInProvider/Delete': (req, res) => {
      const { providerKey } = JSON.parse(req.body) as { providerKey: string };
      providers = providers.filter((p) => p.providerKey !== providerKey);
      return sendEnvelope(res, { Code: 10000, Data: null });
    },
  }),
);
const sent = (path: string) => server.requests.filter((r) => r.url === path).map((r) => JSON.parse(r.body) as Record<string, unknown>);
/** Types by pasting: the form has many fields, and typing key by key is slow under jsdom. */
const fill = async (field: HTMLElement, text: string) => {
  await userEvent.click(field);
  await userEvent.paste(text);
};
const rowOf = async (name: string) => (await screen.findByText(name, { selector: 'td, td *' })).closest('tr')!;

beforeAll(() => {
  prepareDataTables();
  Element.prototype.scrollIntoView = () => undefined;
});
afterAll(() => {
  delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
});
beforeEach(() => {
  providers = [
    provider({ providerKey: 'google', displayName: 'Google', kind: 'google', issuer: null, source: 'env' }),
    provider({ providerKey: 'corp', displayName: 'Corp SSO' }),
  ];
});

describe('the console: sign-in providers', () => {
  it('lists the environment’s read-only and the console’s editable, with the callback address to register', async () => {
    await renderInApp(<SignInProvidersTab />, { apiBase: server.url, user: admin });
    const google = await rowOf('google');
    expect(within(google).getByText('Environment')).toBeInTheDocument();
    expect(within(google).queryByRole('button', { name: /Edit/ })).toBeNull();
    const corp = await rowOf('Corp SSO');
    expect(within(corp).getByText('Console')).toBeInTheDocument();
    expect(within(corp).getByText('stored')).toBeInTheDocument();
    expect(screen.getByText(new RegExp(`${window.location.origin}/api/Provider/Callback`))).toBeInTheDocument();
  });

  it('adds an OpenID Connect provider with its secret, and edits one keeping the stored secret', { timeout: 60_000 }, async () => {
    await renderInApp(<SignInProvidersTab />, { apiBase: server.url, user: admin });
    await rowOf('Corp SSO');
    await userEvent.click(screen.getByRole('button', { name: 'Add provider' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add provider' });
    await fill(within(dialog).getByRole('textbox', { name: /^Key/ }), 'acme');
    await fill(within(dialog).getByRole('textbox', { name: /^Name on the button/ }), 'Acme ID');
    await fill(within(dialog).getByRole('textbox', { name: /^Issuer/ }), 'https://login.acme.test');
    await fill(within(dialog).getByRole('textbox', { name: /^Client ID/ }), 'acme-client');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    // No secret for a new provider: the server's refusal shows, nothing is added.
    expect(await screen.findByText('Type the client secret the provider gave you.')).toBeInTheDocument();
    await fill(within(dialog).getByLabelText(/^Client secret/), 's3cret');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add provider' })).toBeNull());
    expect(sent('/api/admin/SignInProvider/Save').at(-1)).toEqual({
      providerKey: 'acme',
      kind: 'oidc',
      displayName: 'Acme ID',
      issuer: 'https://login.acme.test',
      tenant: null,
      clientId: 'acme-client',
      clientSecret: 's3cret',
      enabled: true,
      sortOrder: 0,
    });
    expect(await rowOf('Acme ID')).toBeTruthy();

    await userEvent.click(within(await rowOf('Corp SSO')).getByRole('button', { name: 'Edit Corp SSO' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit provider' });
    expect(within(edit).getByRole('textbox', { name: /^Key/ })).toBeDisabled();
    await userEvent.click(within(edit).getByRole('switch', { name: 'Shown on the login page' }));
    await userEvent.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit provider' })).toBeNull());
    const saved = sent('/api/admin/SignInProvider/Save').at(-1)!;
    expect(saved).toMatchObject({ providerKey: 'corp', enabled: false });
    expect(saved).not.toHaveProperty('clientSecret');
    await waitFor(async () => expect(within(await rowOf('Corp SSO')).getByText('Off')).toBeInTheDocument());
  });

  it('removes a console provider after the confirmation', async () => {
    await renderInApp(<SignInProvidersTab />, { apiBase: server.url, user: admin });
    await userEvent.click(within(await rowOf('Corp SSO')).getByRole('button', { name: 'Delete Corp SSO' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove this provider?' });
    expect(sent('/api/admin/SignInProvider/Delete')).toEqual([]);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(sent('/api/admin/SignInProvider/Delete')).toEqual([{ providerKey: 'corp' }]));
  });
});
