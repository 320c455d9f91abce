import type katexModule from 'katex';

type Katex = typeof katexModule;

/**
 * KaTeX is a quarter of a megabyte: it is fetched the first time an answer contains math, not with
 * the page. Until it is here the renderer shows the formula's source (see render.ts) and the view
 * renders the block again once it has arrived.
 */
let katex: Katex | undefined;
let loading: Promise<Katex> | undefined;
let failed = false;

/** KaTeX when it has been loaded, else undefined. */
export function peekKatex(): Katex | undefined {
  return katex;
}

/** Loads KaTeX once; every caller gets the same promise. A failed load may be tried again. */
export function loadKatex(): Promise<Katex> {
  loading ??= import('katex').then(
    (module) => {
      failed = false;
      return (katex = module.default);
    },
    (error: unknown) => {
      loading = undefined;
      failed = true;
      throw error;
    },
  );
  return loading;
}

/**
 * Starts loading KaTeX for the renderer, which meets math on every streamed frame: after a failed
 * load (offline) it does not try again there; a finished block's loadKatex() still does.
 */
export function requestKatex(): void {
  if (!failed) void loadKatex().catch(() => undefined);
}
