import type { FastifyInstance } from 'fastify';
import {
  AdminResetTranslationBodySchema,
  AdminSaveTranslationBodySchema,
  AdminTranslationKeyQuerySchema,
  AdminTranslationListQuerySchema,
  AdminTranslationPageSchema,
  AdminTranslationSchema,
} from '../../../shared/contracts/translations.ts';
import { addRoute } from '../../http/route.ts';
import { adminGetTranslation, adminListTranslations, adminResetTranslation, adminSaveTranslation } from '../../services/system/translations.ts';
import { AppError } from '../../core/errors.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';

/** Operators override the apps' built-in strings per language (docs/api.md#translations). */
export function registerAdminLanguageRoutes(app: FastifyInstance): void {
  const base = '/api/admin/Language';
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetList`,
    auth: 'admin',
    summary: "Every built-in string's key with its English and Chinese built-in strings and overrides, in key order; search matches the key or any of the strings; overridden=true keeps the overridden keys.",
    query: AdminTranslationListQuerySchema,
    data: AdminTranslationPageSchema,
    handler: ({ ctx, query }) => adminListTranslations(ctx, query),
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetByKey`,
    auth: 'admin',
    summary: 'One key with its built-in strings and overrides (10404 when no built-in string has that key).',
    query: AdminTranslationKeyQuerySchema,
    data: AdminTranslationSchema,
    handler: async ({ ctx, query }) => (await adminGetTranslation(ctx, query.key)) ?? Promise.reject(new AppError(Codes.NotFound, 'translationKeyUnknown', { key: query.key })),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Save`,
    auth: 'admin',
    audit: { target: 'translation', id: ({ body }) => body.key, load: adminGetTranslation },
    summary:
      "Sets the override of a built-in string in one language (10404 for a key no built-in string has). The value must keep the built-in string's {{placeholders}}, no more and no fewer (10400 otherwise).",
    body: AdminSaveTranslationBodySchema,
    data: AdminTranslationSchema,
    handler: ({ ctx, body }) => adminSaveTranslation(ctx, body),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Reset`,
    auth: 'admin',
    audit: { target: 'translation', id: ({ body }) => body.key, load: adminGetTranslation },
    summary: 'Removes the override of a key in one language: the apps show the built-in string again.',
    body: AdminResetTranslationBodySchema,
    data: AdminTranslationSchema,
    handler: ({ ctx, body }) => adminResetTranslation(ctx, body),
  });
}
