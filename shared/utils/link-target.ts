import type { LinkOpenTarget } from '../contracts/link-target.ts';

/**
 * The HTML target of each link open target the product uses (shared/contracts/link-target.ts). The
 * spec's fourth, `bottom`, has no HTML counterpart and no surface of this product opens a link below
 * its view: it is declared, not mapped.
 */
export const HTML_LINK_TARGET: Record<Exclude<LinkOpenTarget, 'bottom'>, string> = {
  self: '_self',
  newWindow: '_blank',
  top: '_top',
};

/** Where a link in an answer opens: a new window, never in place of the chat. */
export const ANSWER_LINK_TARGET = 'newWindow' satisfies LinkOpenTarget;
