import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  PageViewPageSchema,
  RequestTimePageSchema,
  type PageViewListQuery,
  type PageViewRecordSchema,
  type RequestTimeListQuery,
  type RequestTimeRecordSchema,
} from '../../shared/contracts/admin-records.ts';
import { pagedSchema, type Paged } from '../../shared/contracts/common.ts';
import { BroadcastResultSchema, type Broadcast } from '../../shared/contracts/notifications.ts';
import { FeedbackEntrySchema, type FeedbackReason } from '../../shared/contracts/feedback.ts';
import { AdminPluginListSchema, AdminPluginSchema, type AdminPlugin } from '../../shared/contracts/plugin.ts';
import {
  AdminQuickFunctionListSchema,
  AdminQuickFunctionSchema,
  AdminRecommendedPromptPageSchema,
  AdminRecommendedPromptSchema,
  type AdminQuickFunction,
  type AdminRecommendedPrompt,
  type AdminSaveQuickFunctionBodySchema,
  type AdminSaveRecommendedPromptBodySchema,
} from '../../shared/contracts/quick-function.ts';
import type { Language } from '../../shared/contracts/common.ts';
import {
  AdminSignInProviderListSchema,
  AdminSignInProviderSchema,
  type AdminSignInProvider,
  type SaveSignInProvider,
} from '../../shared/contracts/sign-in-providers.ts';
import {
  AdminPromptSubmissionPageSchema,
  AdminPromptSubmissionSchema,
  type AdminPromptSubmission,
  type PromptSubmissionState,
} from '../../shared/contracts/prompt-library.ts';
import { AdminPromptTagListSchema, AdminPromptTagSchema, type AdminPromptTag, type AdminSavePromptTagBodySchema } from '../../shared/contracts/prompt-tag.ts';
import { AdminSettingListSchema, AdminSettingSchema, type AdminSetting } from '../../shared/contracts/system.ts';
import { AdminModelSchema } from '../../shared/contracts/model.ts';
import { apiGet, apiPost } from '../../shared/api/request.ts';
import {
  AdminTranslationPageSchema,
  AdminTranslationSchema,
  type AdminSaveTranslationBody,
  type AdminTranslation,
} from '../../shared/contracts/translations.ts';
import { ClientErrorGroupSchema, ClientErrorPageSchema, type ClientErrorGroup, type ClientErrorSurface } from '../../shared/contracts/client-error-log.ts';

/**
 * The console's content pages: plugins, the built-in quick functions and their menu tree,
 * recommended prompts and their tags, the review of prompts users share to the library, system settings, notification broadcasts, uninstall feedback, the
 * page-view and request-time records, the translations' overrides and the client error log (docs/api.md).
 */

/** Every content query starts with this key: a change refetches the content pages. */
export const adminContentKey = ['admin', 'content'] as const;

export const CONTENT_PAGE_SIZE = 20;

// ---- plugins ----

export function adminPluginsQuery() {
  return queryOptions({
    queryKey: [...adminContentKey, 'plugins'] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/Plugin/GetList', undefined, { data: AdminPluginListSchema, signal }),
  });
}

export function saveAdminPlugin(body: { pluginId: string; online?: boolean; pointsCost?: number }): Promise<AdminPlugin> {
  return apiPost('/api/admin/Plugin/Save', body, { data: AdminPluginSchema });
}

// ---- quick functions ----

export function adminQuickFunctionsQuery() {
  return queryOptions({
    queryKey: [...adminContentKey, 'quick-functions'] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/QuickFunction/GetList', undefined, { data: AdminQuickFunctionListSchema, signal }),
  });
}

export type SaveQuickFunctionInput = z.input<typeof AdminSaveQuickFunctionBodySchema>;

export function saveAdminQuickFunction(body: SaveQuickFunctionInput): Promise<AdminQuickFunction> {
  return apiPost('/api/admin/QuickFunction/Save', body, { data: AdminQuickFunctionSchema });
}

export async function deleteAdminQuickFunction(quickFunctionId: string): Promise<void> {
  await apiPost('/api/admin/QuickFunction/Delete', { quickFunctionId });
}

export async function setAdminQuickFunctionOnline(quickFunctionId: string, online: boolean): Promise<void> {
  await apiPost('/api/admin/QuickFunction/Online', { quickFunctionId, online });
}

/** Puts the built-ins of `ids` in that order (siblings of one parent). */
export async function sortAdminQuickFunctions(ids: string[]): Promise<void> {
  await apiPost('/api/admin/QuickFunction/Sort', { ids });
}

// ---- recommended prompts ----

export function adminPromptsQuery(page: number, language: Language | null) {
  return queryOptions({
    queryKey: [...adminContentKey, 'prompts', page, language] as const,
    queryFn: ({ signal }) =>
      apiGet('/api/admin/AiPrompWord/GetList', { page, count: CONTENT_PAGE_SIZE, language: language ?? undefined }, { data: AdminRecommendedPromptPageSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

export type SavePromptInput = z.input<typeof AdminSaveRecommendedPromptBodySchema>;

export function saveAdminPrompt(body: SavePromptInput): Promise<AdminRecommendedPrompt> {
  return apiPost('/api/admin/AiPrompWord/Save', body, { data: AdminRecommendedPromptSchema });
}

export async function deleteAdminPrompt(aiPrompWordId: string): Promise<void> {
  await apiPost('/api/admin/AiPrompWord/Delete', { aiPrompWordId });
}

// ---- prompt tags ----

export function adminPromptTagsQuery() {
  return queryOptions({
    queryKey: [...adminContentKey, 'prompt-tags'] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/TagPrompt/GetList', undefined, { data: AdminPromptTagListSchema, signal }),
  });
}

export type SavePromptTagInput = z.input<typeof AdminSavePromptTagBodySchema>;

/** Creates (no tagPromptId) or updates a tag; a name another tag has answers 10409 with the server's words. */
export function saveAdminPromptTag(body: SavePromptTagInput): Promise<AdminPromptTag> {
  return apiPost('/api/admin/TagPrompt/Save', body, { data: AdminPromptTagSchema });
}

/** Deletes a tag: the prompts carrying it lose it and stay. */
export async function deleteAdminPromptTag(tagPromptId: string): Promise<void> {
  await apiPost('/api/admin/TagPrompt/Delete', { tagPromptId });
}

// ---- sign-in providers ----

export function adminSignInProvidersQuery() {
  return queryOptions({
    queryKey: [...adminContentKey, 'sign-in-providers'] as const,
    queryFn: async ({ signal }) => (await apiGet('/api/admin/SignInProvider/GetList', undefined, { data: AdminSignInProviderListSchema, signal })).list,
  });
}

/** Adds or edits a console provider; an empty clientSecret keeps the stored one. */
export function saveAdminSignInProvider(body: SaveSignInProvider): Promise<AdminSignInProvider> {
  return apiPost('/api/admin/SignInProvider/Save', body, { data: AdminSignInProviderSchema });
}

export async function deleteAdminSignInProvider(providerKey: string): Promise<void> {
  await apiPost('/api/admin/SignInProvider/Delete', { providerKey });
}

// ---- settings ----

/** The catalogue's models, for a setting that names one (translation_model): id, name, online. */
export function adminSettingModelsQuery() {
  return queryOptions({
    queryKey: [...adminContentKey, 'setting-models'] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/AiModel/GetList', { page: 1, count: 100 }, { data: pagedSchema(AdminModelSchema), signal }),
  });
}

export function adminSettingsQuery() {
  return queryOptions({
    queryKey: [...adminContentKey, 'settings'] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/System/GetSettingList', undefined, { data: AdminSettingListSchema, signal }),
  });
}

export function saveAdminSetting(settingKey: string, settingValue: string): Promise<AdminSetting> {
  return apiPost('/api/admin/System/SaveSetting', { settingKey, settingValue }, { data: AdminSettingSchema });
}

/** Removes the stored value: a known key returns to its default (answered); another key goes (null). */
export function resetAdminSetting(settingKey: string): Promise<AdminSetting | null> {
  return apiPost('/api/admin/System/DeleteSetting', { settingKey }, { data: AdminSettingSchema.nullable() });
}

// ---- notifications ----

export function broadcastNotification(body: Broadcast): Promise<{ sent: number }> {
  return apiPost('/api/admin/UserNotification/Broadcast', body, { data: BroadcastResultSchema });
}

// ---- feedback ----

export function feedbackQuery(page: number, reason: FeedbackReason | null) {
  return queryOptions({
    queryKey: [...adminContentKey, 'feedback', page, reason] as const,
    queryFn: ({ signal }) =>
      apiGet('/api/admin/Feedback/GetList', { page, count: CONTENT_PAGE_SIZE, reason: reason ?? undefined }, { data: pagedSchema(FeedbackEntrySchema), signal }),
    placeholderData: keepPreviousData,
  });
}

// ---- records ----

export type RequestTimeRecord = z.infer<typeof RequestTimeRecordSchema>;
export type PageViewRecord = z.infer<typeof PageViewRecordSchema>;

type RequestTimeFilters = Partial<Omit<RequestTimeListQuery, 'page' | 'count'>>;
type PageViewFilters = Partial<Omit<PageViewListQuery, 'page' | 'count'>>;

/** Leaves out empty filters, so the query string carries only what was chosen. */
const present = (query: Record<string, string | number | undefined>) => Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== ''));

export function requestTimesQuery(page: number, filters: RequestTimeFilters) {
  return queryOptions({
    queryKey: [...adminContentKey, 'request-times', page, filters] as const,
    queryFn: ({ signal }): Promise<Paged<RequestTimeRecord>> =>
      apiGet('/api/admin/Records/GetRequestTimes', present({ ...filters, page, count: CONTENT_PAGE_SIZE }), { data: RequestTimePageSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

export function pageViewsQuery(page: number, filters: PageViewFilters) {
  return queryOptions({
    queryKey: [...adminContentKey, 'page-views', page, filters] as const,
    queryFn: ({ signal }): Promise<Paged<PageViewRecord>> =>
      apiGet('/api/admin/Records/GetPageViews', present({ ...filters, page, count: CONTENT_PAGE_SIZE }), { data: PageViewPageSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

// ---- translations ----

export function adminTranslationsQuery(page: number, search: string, overridden: boolean) {
  return queryOptions({
    queryKey: [...adminContentKey, 'translations', page, search, overridden] as const,
    queryFn: ({ signal }) =>
      apiGet('/api/admin/Language/GetList', { page, count: CONTENT_PAGE_SIZE, search: search || undefined, overridden: overridden || undefined }, { data: AdminTranslationPageSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Sets a key's override in one language; a value that drops or adds a {{placeholder}} answers 10400 with the server's words. */
export function saveAdminTranslation(body: AdminSaveTranslationBody): Promise<AdminTranslation> {
  return apiPost('/api/admin/Language/Save', body, { data: AdminTranslationSchema });
}

/** Back to the built-in string. */
export function resetAdminTranslation(key: string, language: Language): Promise<AdminTranslation> {
  return apiPost('/api/admin/Language/Reset', { key, language }, { data: AdminTranslationSchema });
}

// ---- client error log ----

export function clientErrorsQuery(page: number, filter: { search: string; surface: ClientErrorSurface | null; state: 'open' | 'resolved' | 'all' }) {
  return queryOptions({
    queryKey: [...adminContentKey, 'error-log', page, filter] as const,
    queryFn: ({ signal }) =>
      apiGet(
        '/api/admin/Log/GetClientErrorList',
        { page, count: CONTENT_PAGE_SIZE, search: filter.search || undefined, surface: filter.surface ?? undefined, state: filter.state },
        { data: ClientErrorPageSchema, signal },
      ),
    placeholderData: keepPreviousData,
  });
}

/** Marks a group resolved; it comes back when it is reported again. */
export function resolveClientError(clientErrorId: string): Promise<ClientErrorGroup> {
  return apiPost('/api/admin/Log/Resolve', { clientErrorId }, { data: ClientErrorGroupSchema });
}

// ---- prompt review (the prompts users share to the library) ----

export function promptSubmissionsQuery(page: number, state: PromptSubmissionState | null, q: string) {
  return queryOptions({
    queryKey: [...adminContentKey, 'prompt-review', page, state, q] as const,
    queryFn: ({ signal }) =>
      apiGet('/api/admin/UserPrompt/GetList', { page, count: CONTENT_PAGE_SIZE, state: state ?? undefined, q: q || undefined }, { data: AdminPromptSubmissionPageSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

export function approvePromptSubmission(promptSubmissionId: string): Promise<AdminPromptSubmission> {
  return apiPost('/api/admin/UserPrompt/Approve', { promptSubmissionId }, { data: AdminPromptSubmissionSchema });
}

export function rejectPromptSubmission(promptSubmissionId: string, reason: string): Promise<AdminPromptSubmission> {
  return apiPost('/api/admin/UserPrompt/Reject', { promptSubmissionId, reason }, { data: AdminPromptSubmissionSchema });
}

export function unpublishPromptSubmission(promptSubmissionId: string, reason: string): Promise<AdminPromptSubmission> {
  return apiPost('/api/admin/UserPrompt/Unpublish', { promptSubmissionId, reason: reason || undefined }, { data: AdminPromptSubmissionSchema });
}
