import { queryOptions } from '@tanstack/react-query';
import { pagedSchema } from '../../shared/contracts/common.ts';
import {
  AdminModelTypeListSchema,
  AdminModelTypeSchema,
  type AdminModelType,
  type AdminSaveModelTypeBody,
} from '../../shared/contracts/model-type.ts';
import {
  AdminDeploymentSchema,
  AllDeploymentsSchema,
  type AllDeploymentsQuery,
  AdminModelSchema,
  SyncModelMapResultSchema,
  TestDeploymentResultSchema,
  UpstreamModelListResultSchema,
  type AdminDeployment,
  type AdminModel,
  type SaveDeployment,
  type SaveModel,
  type SyncModelMap,
  type SyncModelMapResult,
  type TestDeployment,
  type TestDeploymentResult,
  type UpstreamModelEntry,
  type UpstreamModelListRequest,
} from '../../shared/contracts/model.ts';
import { AdminModelParamsSchema, type AdminModelParams, type ParamBounds } from '../../shared/contracts/param-tools.ts';
import { apiGet, apiPost } from '../../shared/api/request.ts';

/**
 * The operator's catalogue (/api/admin/AiModel/*, /api/admin/AiModelMap/*, /api/admin/AiModelType/*,
 * docs/api.md): catalogue models, their types, their upstream deployments, their health, a test call
 * and the import from a provider.
 */

/** Every query of the console's catalogue pages starts with this key, so a change refetches them all. */
export const adminCatalogueKey = ['admin', 'catalogue'] as const;

/** The console shows the whole catalogue on one page (it is ordered by hand, so it is never long). */
const ADMIN_MODEL_PAGE_SIZE = 100;

export function adminModelsQuery() {
  return queryOptions({
    queryKey: [...adminCatalogueKey, 'models'] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/AiModel/GetList', { page: 1, count: ADMIN_MODEL_PAGE_SIZE }, { data: pagedSchema(AdminModelSchema), signal }),
  });
}

export function adminModelQuery(aiModelId: string) {
  return queryOptions({
    queryKey: [...adminCatalogueKey, 'model', aiModelId] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/AiModel/GetById', { aiModelId }, { data: AdminModelSchema, signal }),
  });
}

/** What the model form sends: the contract's input (defaults are filled by the server). */
export type SaveModelInput = Partial<SaveModel> & Pick<SaveModel, 'name'>;

export function saveAdminModel(body: SaveModelInput): Promise<AdminModel> {
  return apiPost('/api/admin/AiModel/Save', body, { data: AdminModelSchema });
}

export async function deleteAdminModel(aiModelId: string): Promise<void> {
  await apiPost('/api/admin/AiModel/Delete', { aiModelId });
}

export function setAdminModelOnline(aiModelId: string, online: boolean): Promise<AdminModel> {
  return apiPost('/api/admin/AiModel/Online', { aiModelId, online }, { data: AdminModelSchema });
}

/** Puts the catalogue in the order of `ids` (every instance re-reads it). */
export async function sortAdminModels(ids: string[]): Promise<void> {
  await apiPost('/api/admin/AiModel/Sort', { ids });
}

export function adminDeploymentsQuery(aiModelId: string) {
  return queryOptions({
    queryKey: [...adminCatalogueKey, 'deployments', aiModelId] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/AiModelMap/GetList', { aiModelId }, { data: AdminDeploymentSchema.array(), signal }),
  });
}

/** A deployment as the form sends it: apiKey absent keeps the stored key, '' removes it. */
export type SaveDeploymentInput = Partial<SaveDeployment> & Pick<SaveDeployment, 'aiModelId' | 'provider' | 'upstreamModelId'>;

export function saveAdminDeployment(body: SaveDeploymentInput): Promise<AdminDeployment> {
  return apiPost('/api/admin/AiModelMap/Save', body, { data: AdminDeploymentSchema });
}

export async function deleteAdminDeployment(aiModelMapId: string): Promise<void> {
  await apiPost('/api/admin/AiModelMap/Delete', { aiModelMapId });
}

/** Test calls wait for the upstream's first tokens: longer than a page's calls, bounded all the same. */
const UPSTREAM_TIMEOUT_MS = 60_000;

/** Sends one short prompt to a deployment (saved, or the form's unsaved settings): nobody is charged, nothing is stored. */
export function testAdminDeployment(body: Partial<TestDeployment>): Promise<TestDeploymentResult> {
  return apiPost('/api/admin/AiModelMap/Test', body, { data: TestDeploymentResultSchema, timeoutMs: UPSTREAM_TIMEOUT_MS });
}

/** The models an upstream lists, each with whether it is imported already. */
export async function listUpstreamModels(body: Partial<UpstreamModelListRequest>): Promise<UpstreamModelEntry[]> {
  const { list } = await apiPost('/api/admin/AiModelMap/OpenAiModel', body, { data: UpstreamModelListResultSchema, timeoutMs: UPSTREAM_TIMEOUT_MS });
  return list;
}

/** Creates catalogue models and deployments for the chosen upstream models (those imported already are skipped). */
export function syncModelMap(body: Partial<SyncModelMap> & Pick<SyncModelMap, 'upstreamModelIds'>): Promise<SyncModelMapResult> {
  return apiPost('/api/admin/AiModel/SyncModelMap', body, { data: SyncModelMapResultSchema });
}

/** A model's chat-parameter bounds (/api/admin/ParamTools/*, docs/api.md#model-parameters). */
export function adminModelParamsQuery(aiModelId: string) {
  return queryOptions({
    queryKey: [...adminCatalogueKey, 'params', aiModelId] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/ParamTools/GetByModelId', { aiModelId }, { data: AdminModelParamsSchema, signal }),
  });
}

/** Sets a model's bounds; null restores the defaults. */
export function saveAdminModelParams(aiModelId: string, bounds: ParamBounds | null): Promise<AdminModelParams> {
  return apiPost('/api/admin/ParamTools/Save', { aiModelId, bounds }, { data: AdminModelParamsSchema });
}

export function adminModelTypesQuery() {
  return queryOptions({
    queryKey: [...adminCatalogueKey, 'types'] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/AiModelType/GetList', undefined, { data: AdminModelTypeListSchema, signal }),
  });
}

/** What the type form sends (the server fills the defaults). */
export type SaveModelTypeInput = Partial<AdminSaveModelTypeBody> & Pick<AdminSaveModelTypeBody, 'nameEn' | 'nameZh'>;

export function saveAdminModelType(body: SaveModelTypeInput): Promise<AdminModelType> {
  return apiPost('/api/admin/AiModelType/Save', body, { data: AdminModelTypeSchema });
}

export async function deleteAdminModelType(aiModelTypeId: string): Promise<void> {
  await apiPost('/api/admin/AiModelType/Delete', { aiModelTypeId });
}

/** One page of every deployment across models, filtered (GetAiModelListAll); keys only as a masked hint. */
export function adminAllDeploymentsQuery(filter: AllDeploymentsQuery) {
  return queryOptions({
    queryKey: [...adminCatalogueKey, 'all-deployments', filter] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/AiModelMap/GetAiModelListAll', filter, { data: AllDeploymentsSchema, signal }),
  });
}
