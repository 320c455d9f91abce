/** How much of a model's context a message's parts may take, in characters (prepare.ts, rounds.ts, video-parts.ts). */

/** Characters per token, roughly, to fit history into a context window given in tokens. */
export const CHARS_PER_TOKEN = 3;

/** Of the model's context, the share attached pages and files may take in one message. */
const PAGE_SHARE_OF_CONTEXT = 0.6;

/** The characters the attached pages and files of one message may take in a model's context. */
export const pageBudgetOf = (contextWindow: number) => Math.floor(contextWindow * CHARS_PER_TOKEN * PAGE_SHARE_OF_CONTEXT);
