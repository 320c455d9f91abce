import { z } from 'zod';
import { definePersisted } from '../storage/persisted.ts';
import { atomWithPersisted } from './persisted.ts';

/** The model last picked, remembered across pages and restarts (null: the default rule picks). */
export const chatModelPersisted = definePersisted<string | null>({
  key: 'tandem.chat.model',
  version: 1,
  schema: z.string().min(1).max(64).nullable(),
  fallback: null,
});
export const chatModelAtom = atomWithPersisted(chatModelPersisted);

/** Whether the next message asks the server to search the web. */
export const webSearchPersisted = definePersisted<boolean>({
  key: 'tandem.chat.webSearch',
  version: 1,
  schema: z.boolean(),
  fallback: false,
});
export const webSearchAtom = atomWithPersisted(webSearchPersisted);
