import type { FastifyInstance } from 'fastify';
import {
  AdminSettingListSchema,
  AdminSettingSchema,
  SaveSettingSchema,
  SettingKeyBodySchema,
} from '../../../shared/contracts/system.ts';
import { BrowserListQuerySchema, BrowserRecordPageSchema } from '../../../shared/contracts/tracking.ts';
import { addRoute } from '../../http/route.ts';
import { deleteSetting, getAdminSetting, listAllSettings, saveSetting } from '../../services/system/settings.ts';
import { listBrowserRecords } from '../../services/system/tracking.ts';

export function registerAdminSystemRoutes(app: FastifyInstance): void {
  const base = '/api/admin/System';
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetSettingList`,
    auth: 'admin',
    summary: 'Every setting, private ones included, with its default and whether it is overridden.',
    data: AdminSettingListSchema,
    handler: ({ ctx }) => listAllSettings(ctx),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/SaveSetting`,
    auth: 'admin',
    audit: { target: 'setting', id: ({ body }) => body.settingKey, load: getAdminSetting },
    summary: 'Stores a setting value (keys ending in _url must hold an http(s) URL). Clients see it within 5 minutes.',
    body: SaveSettingSchema,
    data: AdminSettingSchema,
    handler: ({ ctx, body }) => saveSetting(ctx, body),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/DeleteSetting`,
    auth: 'admin',
    audit: { target: 'setting', id: ({ body }) => body.settingKey, load: getAdminSetting },
    summary: "Removes a stored value: a known key returns to its default (answered), another key is removed (Data null).",
    body: SettingKeyBodySchema,
    data: AdminSettingSchema.nullable(),
    handler: ({ ctx, body }) => deleteSetting(ctx, body.settingKey),
  });
  addRoute(app, {
    method: 'GET',
    url: '/api/admin/Browser/GetBrowserList',
    auth: 'admin',
    summary: 'Browser records, newest first; eventType filters.',
    query: BrowserListQuerySchema,
    data: BrowserRecordPageSchema,
    handler: ({ ctx, query }) => listBrowserRecords(ctx, query),
  });
}
