import type { CatalogueModel, ModelListItem } from '../contracts/model.ts';
import { MODEL_TYPE_IDS } from '../contracts/model-type.ts';

/**
 * Whether a model answers chat messages: it has the chat type. A model without any types comes from
 * a server older than model types, whose models were all chat models.
 */
export const isChatModel = (model: Pick<CatalogueModel, 'types'>): boolean => model.types.length === 0 || model.types.includes(MODEL_TYPE_IDS.chat);

/** The chat models of a list, in its order: what the chat's picker offers (an image generator is not among them). */
export const chatModels = <T extends Pick<CatalogueModel, 'types'>>(models: readonly T[]): T[] => models.filter(isChatModel);

/** The fields the selection rules read; any catalogue model (listed, locked, admin) has them. */
export type LevelledModel = Pick<CatalogueModel, 'minVipLevel' | 'minVipLevelName'>;

/**
 * The default model is the first model of the lowest non-zero level, else the first model.
 * "First" is the order the server lists them in (its sort column), so the input order is kept.
 */
export function pickDefaultModel<T extends LevelledModel>(models: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const model of models) {
    if (model.minVipLevel === 0) continue;
    if (best === undefined || model.minVipLevel < best.minVipLevel) best = model;
  }
  return best ?? models[0];
}

/**
 * The model a message goes to: the user's last pick while it is usable, else the default rule's. The
 * chat's picker shows it; the background prepares a selection tool's message with it
 * (shared/api/tool-message.ts prepareToolMessage).
 */
export function resolveModel(models: readonly ModelListItem[], chosen: string | null): ModelListItem | undefined {
  const usable = models.filter((m) => !m.locked && isChatModel(m));
  return usable.find((m) => m.aiModelId === chosen) ?? pickDefaultModel(usable) ?? undefined;
}

export interface ModelLevelGroup<T> {
  level: number;
  levelName: string;
  models: T[];
}

export interface GroupedModels<T> {
  /** minVipLevel 0: open to everyone, listed on their own in the input order. */
  ungrouped: T[];
  /** Models with a non-zero level, grouped by level, levels ascending. */
  groups: ModelLevelGroup<T>[];
}

export function groupModelsByLevel<T extends LevelledModel>(models: readonly T[]): GroupedModels<T> {
  const ungrouped: T[] = [];
  const byLevel = new Map<number, ModelLevelGroup<T>>();
  for (const model of models) {
    if (model.minVipLevel === 0) {
      ungrouped.push(model);
      continue;
    }
    let group = byLevel.get(model.minVipLevel);
    if (!group) {
      group = { level: model.minVipLevel, levelName: model.minVipLevelName, models: [] };
      byLevel.set(model.minVipLevel, group);
    }
    group.models.push(model);
  }
  const groups = [...byLevel.values()].sort((a, b) => a.level - b.level);
  return { ungrouped, groups };
}
