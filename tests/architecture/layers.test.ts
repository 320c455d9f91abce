import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layer map holds only while lint says so: each rule gets one planted violation (a virtual
 * file, linted with the project's own config) that must be reported, and a neighbour that must not.
 * Removing a rule from eslint.config.js or eslint-rules/layers.js makes its case fail.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId !== '@typescript-eslint/no-unused-vars').map((m) => `${m.ruleId}: ${m.message}`);
}

type Case = { rule: string; file: string; code: string; expect: RegExp };

const planted: Case[] = [
  { rule: 'a feature imports another feature', file: 'components/chat/planted.ts', code: "import { SessionList } from '../chat-history/session-list.tsx';\nexport const x = SessionList;", expect: /may not import the chat-history feature/ },
  { rule: 'a feature imports the composition folder', file: 'components/chat/planted.ts', code: "import { AppRoutes } from '../layout/app-routes.tsx';\nexport const x = AppRoutes;", expect: /composition folder/ },
  { rule: 'shared imports components', file: 'shared/api/planted.ts', code: "import { notifyError } from '../../components/ui/notify.ts';\nexport const x = notifyError;", expect: /may not import ui/ },
  { rule: 'a component imports wxt/browser', file: 'components/chat/planted.ts', code: "import { browser } from 'wxt/browser';\nexport const x = browser;", expect: /extension-only entrypoints use wxt\/browser/ },
  { rule: 'a component imports @webext-core', file: 'components/ui/planted.ts', code: "import { defineExtensionMessaging } from '@webext-core/messaging';\nexport const x = defineExtensionMessaging;", expect: /@webext-core\/messaging/ },
  { rule: 'a web page imports wxt', file: 'entrypoints/app/planted.ts', code: "import { browser } from 'wxt/browser';\nexport const x = browser;", expect: /extension-only entrypoints/ },
  { rule: 'a component imports shared/platform/extension.ts', file: 'components/chat/planted.ts', code: "import { extensionTabs } from '../../shared/platform/extension.ts';\nexport const x = extensionTabs;", expect: /usePlatform\(\)\.tabs/ },
  { rule: 'a component imports an entrypoint', file: 'components/chat/planted.ts', code: "import '../../entrypoints/sidepanel/main.tsx';", expect: /may not import entrypoint/ },
  { rule: 'one entrypoint imports another', file: 'entrypoints/popup/planted.ts', code: "import '../sidepanel/main.tsx';", expect: /one entrypoint never imports another/ },
  { rule: 'the server imports the client side', file: 'server/services/chat/planted.ts', code: "import { getSettingListAll } from '../../../shared/api/system.ts';\nexport const x = getSettingListAll;", expect: /server\/services may not import shared\/api/ },
  { rule: 'a server service imports the AI SDK', file: 'server/services/chat/planted.ts', code: "import { streamText } from 'ai';\nexport const x = streamText;", expect: /AI SDK/ },
  { rule: 'a service imports @ai-sdk', file: 'server/routes/planted.ts', code: "import { createOpenAICompatible } from '@ai-sdk/openai-compatible';\nexport const x = createOpenAICompatible;", expect: /AI SDK/ },
  { rule: 'a service imports http/', file: 'server/services/chat/planted.ts', code: "import { addRoute } from '../../http/route.ts';\nexport const x = addRoute;", expect: /server\/services may not import server\/http/ },
  { rule: 'a service imports a route', file: 'server/services/points/planted.ts', code: "import { registerPointsRoutes } from '../../routes/points.ts';\nexport const x = registerPointsRoutes;", expect: /server\/services may not import server\/routes/ },
  { rule: 'core imports a service', file: 'server/core/planted.ts', code: "import { settingValues } from '../services/system/settings.ts';\nexport const x = settingValues;", expect: /server\/core may not import server\/services/ },
  { rule: 'core imports http/', file: 'server/core/planted.ts', code: "import { addRoute } from '../http/route.ts';\nexport const x = addRoute;", expect: /server\/core may not import server\/http/ },
  { rule: 'core imports the database', file: 'server/core/planted.ts', code: "import { users } from '../db/schema/users.ts';\nexport const x = users;", expect: /server\/core may not import server\/db/ },
  { rule: 'a provider imports a service', file: 'server/providers/planted.ts', code: "import { settingValues } from '../services/system/settings.ts';\nexport const x = settingValues;", expect: /server\/providers may not import server\/services/ },
  { rule: 'http/ runs a service', file: 'server/http/planted.ts', code: "import { shareExists } from '../services/chat/shares.ts';\nexport const x = shareExists;", expect: /runs no service code/ },
  { rule: 'http/ imports a route', file: 'server/http/planted.ts', code: "import { registerChatRoutes } from '../routes/chat.ts';\nexport const x = registerChatRoutes;", expect: /server\/http may not import server\/routes/ },
  { rule: 'the database imports a service', file: 'server/db/planted.ts', code: "import { settingValues } from '../services/system/settings.ts';\nexport const x = settingValues;", expect: /server\/db may not import server\/services/ },
  { rule: 'a route imports a provider', file: 'server/routes/planted.ts', code: "import { createFileStore } from '../providers/file-store.ts';\nexport const x = createFileStore;", expect: /server\/routes may not import server\/providers/ },
  { rule: 'a service file straight in server/services/', file: 'server/services/planted.ts', code: 'export const x = 1;', expect: /domain folder/ },
  { rule: 'contracts import more than zod', file: 'shared/contracts/planted.ts', code: "import dayjs from 'dayjs';\nexport const x = dayjs;", expect: /nothing but zod/ },
  { rule: 'a component calls fetch', file: 'components/chat/planted.ts', code: "export const x = () => fetch('/api/Chat/GetModelListAll');", expect: /no-restricted-globals.*shared\/api/ },
  { rule: 'a component calls window.fetch', file: 'components/chat/planted.ts', code: "export const x = () => window.fetch('/api');", expect: /no-restricted-properties.*shared\/api/ },
  { rule: 'ui makes API calls', file: 'components/ui/planted.ts', code: "import { getSettingListAll } from '../../shared/api/system.ts';\nexport const x = getSettingListAll;", expect: /ui may not import shared\/api/ },
  { rule: 'a file outside the map is imported', file: 'components/chat/planted.ts', code: "import '../../scripts/ensure-extension-build.ts';", expect: /outside the layer map/ },
  { rule: 'a dynamic import crosses the map', file: 'components/chat/planted.ts', code: "export const x = () => import('../chat-history/session-list.tsx');", expect: /chat-history feature/ },
  { rule: 'a user surface imports the console', file: 'components/chat/planted.ts', code: "import { AdminLayout } from '../../admin/shell/admin-layout.tsx';\nexport const x = AdminLayout;", expect: /no user surface imports the console/ },
  { rule: 'an entrypoint imports a console feature', file: 'entrypoints/app/planted.ts', code: "export const x = () => import('../../admin/users/users-page.tsx');", expect: /no user surface imports the console/ },
  { rule: 'shared imports the console', file: 'shared/api/planted.ts', code: "import { adminPackagesQuery } from '../../admin/money/api.ts';\nexport const x = adminPackagesQuery;", expect: /no user surface imports the console/ },
  { rule: 'a console feature imports another console feature', file: 'admin/money/planted.ts', code: "import { UserPage } from '../users/user-page.tsx';\nexport const x = UserPage;", expect: /console's money feature may not import the console's users feature/ },
  { rule: "the console's shell imports a console feature", file: 'admin/shell/planted.ts', code: "import { MoneyPage } from '../money/money-page.tsx';\nexport const x = MoneyPage;", expect: /admin-shell may not import the console's money feature/ },
  { rule: 'a console feature imports a user feature', file: 'admin/users/planted.ts', code: "import { SessionList } from '../../components/chat-history/session-list.tsx';\nexport const x = SessionList;", expect: /may not import the chat-history feature/ },
  { rule: "the console's generic pieces make API calls", file: 'admin/ui/planted.ts', code: "import { getSettingListAll } from '../../shared/api/system.ts';\nexport const x = getSettingListAll;", expect: /admin-ui may not import shared\/api/ },
  { rule: 'a console feature calls fetch outside its api.ts', file: 'admin/money/planted.ts', code: "export const x = () => fetch('/api/admin/Plan/List');", expect: /no-restricted-globals.*shared\/api/ },
  { rule: 'a function is longer than 120 lines', file: 'server/services/chat/planted.ts', code: `export function long() {\n${'  void 0;\n'.repeat(125)}}`, expect: /max-lines-per-function/ },
];

const allowed: Omit<Case, 'rule' | 'expect'>[] = [
  { file: 'components/chat/planted.ts', code: "import { ToolButton } from '../ui/tool-button.tsx';\nimport { apiGet } from '../../shared/api/request.ts';\nexport const x = [ToolButton, apiGet];" },
  { file: 'components/layout/planted.ts', code: "import { ChatSidebar } from '../chat-history/chat-sidebar.tsx';\nimport { ChatView } from '../chat/chat-view.tsx';\nexport const x = [ChatSidebar, ChatView];" },
  { file: 'entrypoints/sidepanel/planted.ts', code: "import { extensionTabs } from '../../shared/platform/extension.ts';\nimport { browser } from 'wxt/browser';\nexport const x = [extensionTabs, browser];" },
  { file: 'shared/messaging/planted.ts', code: "import { defineExtensionMessaging } from '@webext-core/messaging';\nexport const x = defineExtensionMessaging;" },
  { file: 'admin/planted.ts', code: "import { MoneyPage } from './money/money-page.tsx';\nimport { AdminLayout } from './shell/admin-layout.tsx';\nimport { AppProviders } from '../components/app-shell/app-providers.tsx';\nexport const x = [MoneyPage, AdminLayout, AppProviders];" },
  { file: 'admin/money/planted.ts', code: "import { adminPackagesQuery } from './api.ts';\nimport { apiGet } from '../../shared/api/request.ts';\nimport { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';\nexport const x = [adminPackagesQuery, apiGet, ConfirmDialog];" },
  { file: 'admin/money/api.ts', code: "export const x = () => fetch('/api/admin/RedeemCode/ExportBatch');" },
  { file: 'server/providers/planted.ts', code: "import { APICallError } from 'ai';\nimport { Codes } from '../../shared/contracts/envelope.ts';\nexport const x = [APICallError, Codes];" },
  { file: 'server/services/chat/planted.ts', code: "import { AppError } from '../../core/errors.ts';\nimport { extensionOf } from '../../../shared/contracts/media.ts';\nimport { chargeCtes } from '../points/ledger.ts';\nimport { users } from '../../db/schema/users.ts';\nexport const x = [AppError, extensionOf, chargeCtes, users];" },
  { file: 'server/http/planted.ts', code: "import type { AuthUser } from '../services/accounts/auth.ts';\nimport { type UploadedFile } from '../services/media/upload.ts';\nimport { AppError } from '../core/errors.ts';\nexport type X = [AuthUser, UploadedFile, AppError];" },
  { file: 'server/routes/admin/planted.ts', code: "import { addRoute } from '../../http/route.ts';\nimport { settingValues } from '../../services/system/settings.ts';\nimport { t } from '../../core/i18n.ts';\nexport const x = [addRoute, settingValues, t];" },
  { file: 'server/providers/planted.ts', code: "import { UpstreamFailure } from '../core/upstream-failure.ts';\nimport type { Config } from '../config.ts';\nexport type X = [UpstreamFailure, Config];" },
];

describe('the layer map, held by lint', () => {
  for (const c of planted) {
    it(`reports: ${c.rule}`, async () => {
      const found = await problems(c.file, c.code);
      expect(found.some((p) => c.expect.test(p)), found.join('\n') || 'nothing reported').toBe(true);
    });
  }

  it('reports nothing for imports the map allows', async () => {
    for (const c of allowed) expect(await problems(c.file, c.code), c.file).toEqual([]);
  });

  it('finds no import against the map in the code as it is', async () => {
    const results = await eslint.lintFiles(['entrypoints', 'admin', 'components', 'shared', 'server']);
    const against = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === 'tandem/layers').map((m) => `${path.relative(root, r.filePath)}:${m.line} ${m.message}`),
    );
    expect(against).toEqual([]);
    // Lints every source file: about 20 s alone, and past 30 s on a loaded 2-core machine (CI once).
  }, 120_000);
});
