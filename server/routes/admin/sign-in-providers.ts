import type { FastifyInstance } from 'fastify';
import {
  AdminSignInProviderListSchema,
  AdminSignInProviderSchema,
  DeleteSignInProviderSchema,
  SaveSignInProviderSchema,
} from '../../../shared/contracts/sign-in-providers.ts';
import { addRoute } from '../../http/route.ts';
import { adminProvider, adminProviderList, deleteProvider, saveProvider } from '../../services/accounts/sign-in-providers.ts';

/** Operators add, edit, disable and remove sign-in providers (docs/api.md#sign-in-with-another-account). */
export function registerAdminSignInProviderRoutes(app: FastifyInstance): void {
  const base = '/api/admin/SignInProvider';
  const load = (ctx: Parameters<typeof adminProvider>[0], id: string) => adminProvider(ctx, id);
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetList`,
    auth: 'admin',
    summary: "Every sign-in provider: the environment's (source env, read-only) and the console's. Secrets are never answered (hasSecret says whether one is stored).",
    data: AdminSignInProviderListSchema,
    handler: ({ ctx }) => adminProviderList(ctx),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Save`,
    auth: 'admin',
    audit: { target: 'signInProvider', id: ({ body }) => body.providerKey, load },
    summary:
      'Adds or edits a console provider by its key. The client secret is stored encrypted; empty keeps the stored one (required when adding, 10400). An OpenID Connect provider needs an https issuer (http only on loopback). A key the environment sets answers 10409.',
    body: SaveSignInProviderSchema,
    data: AdminSignInProviderSchema,
    handler: ({ ctx, body }) => saveProvider(ctx, body),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Delete`,
    auth: 'admin',
    audit: { target: 'signInProvider', id: ({ body }) => body.providerKey, load },
    summary: "Removes a console provider (10404 when there is none; 10409 for the environment's). Accounts' links to it stay and work again if it is added back.",
    body: DeleteSignInProviderSchema,
    handler: async ({ ctx, body }) => {
      await deleteProvider(ctx, body.providerKey);
      return null;
    },
  });
}
