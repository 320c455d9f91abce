import type { ModelListItem, SaveModel } from '../../shared/contracts/model.ts';

/** A model-list entry as GetModelListAll answers it, for client tests; extra overrides any field. */
export const testModel = (aiModelId: string, minVipLevel: number, extra: Partial<ModelListItem> = {}): ModelListItem => ({
  aiModelId,
  name: aiModelId,
  description: '',
  minVipLevel,
  minVipLevelName: ['Free', 'Standard', 'Advanced', 'Super'][minVipLevel],
  modelMap: { isImage: false, fileTypes: [] },
  webSearch: false,
  pointsCost: 1,
  tokenPrice: null,
  contextWindow: 8000,
  sort: 0,
  types: extra.modelMap?.isImage ? ['chat', 'vision'] : ['chat'],
  locked: false,
  ...extra,
});

/** An AiModel/Save body for server tests: a flat 1 point per message, no vision, files or web search; extra overrides any field. */
export const testSaveModel = (aiModelId: string, extra: Partial<SaveModel> = {}): SaveModel => ({
  aiModelId,
  name: aiModelId,
  description: '',
  minVipLevel: 0,
  modelMap: { isImage: false, fileTypes: [] },
  webSearch: false,
  pointsCost: 1,
  tokenPrice: null,
  contextWindow: 8192,
  sort: 0,
  online: true,
  ...extra,
});
