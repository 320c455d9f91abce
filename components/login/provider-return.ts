import { PROVIDER_ERRORS, PROVIDER_RETURN_PARAMS, type ProviderError } from '../../shared/contracts/sign-in-providers.ts';

/**
 * What the server's provider callback put on the login page's address (docs/api.md#sign-in-with-another-account):
 * signed in (a temp key), an account to confirm linking, or an error; read once and taken off the
 * address, so a reload or the history never replays it.
 */
export type ProviderReturn =
  | { kind: 'signedIn'; tempKey: string }
  | { kind: 'confirmLink'; linkId: string; email: string; provider: string }
  | { kind: 'error'; error: ProviderError }
  | null;

/** The login page opened in a pop-up by a framed login page (the provider refuses to be framed). */
export const POPUP_PARAM = 'providerPopup';
/** A pop-up starts the sign-in itself (its cookie is first-party), with this provider key. */
export const START_PARAM = 'providerStart';

export function readProviderReturn(href: string): ProviderReturn {
  const params = new URL(href).searchParams;
  const tempKey = params.get('providerTempKey');
  if (tempKey) return { kind: 'signedIn', tempKey };
  const linkId = params.get('providerLink');
  if (linkId) return { kind: 'confirmLink', linkId, email: params.get('providerEmail') ?? '', provider: params.get('providerName') ?? '' };
  const error = params.get('providerError');
  if (error) return { kind: 'error', error: (PROVIDER_ERRORS as readonly string[]).includes(error) ? (error as ProviderError) : 'providerFailed' };
  return null;
}

/** The address without the callback's parameters (nor a pop-up's start): what the page keeps, and returns to. */
export function withoutProviderParams(href: string): string {
  const url = new URL(href);
  for (const name of [...PROVIDER_RETURN_PARAMS, START_PARAM]) url.searchParams.delete(name);
  return url.href;
}

/** The path (and query) of this page, as the server's returnTo: the login page's own parameters come back. */
export function returnPathOf(href: string): string {
  const url = new URL(withoutProviderParams(href));
  return `${url.pathname}${url.search}`;
}
