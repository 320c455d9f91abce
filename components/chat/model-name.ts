import { AUTO_MODEL_ID, type ModelListItem } from '../../shared/contracts/model.ts';

/** A model's name; the server's 'Auto' entry is named in the reader's language. */
export function modelName(model: ModelListItem, t: (key: string) => string): string {
  return model.aiModelId === AUTO_MODEL_ID ? t('chat.model.auto') : model.name;
}
