import * as client from 'openid-client';

/**
 * The sign-in providers' side of "sign in with another account" (docs/api.md#sign-in-with-another-account),
 * through openid-client: discovery for OpenID Connect (Google, Microsoft, any issuer), GitHub's plain
 * OAuth 2 from its fixed endpoints plus its user and e-mail API. Everything here talks to the
 * provider; what it means for accounts is server/services/accounts/sign-in-providers.ts.
 */
export type ProviderKind = 'google' | 'github' | 'microsoft' | 'oidc';

export type ProviderSettings = {
  providerKey: string;
  kind: ProviderKind;
  displayName: string;
  issuer?: string | null;
  tenant?: string | null;
  clientId: string;
  clientSecret: string;
};

/** Who signed in, as the provider says. emailVerified is true only when the provider says so. */
export type ProviderIdentity = { subject: string; email: string | null; emailVerified: boolean; name: string | null };

/** Why a callback failed: the person cancelled at the provider, or anything else the provider or its answer got wrong. */
export class ProviderFailure extends Error {
  constructor(
    readonly reason: 'cancelled' | 'providerFailed',
    message: string,
  ) {
    super(message);
  }
}

const GITHUB = {
  issuer: 'https://github.com',
  authorization_endpoint: 'https://github.com/login/oauth/authorize',
  token_endpoint: 'https://github.com/login/oauth/access_token',
  api: 'https://api.github.com',
};
/** Microsoft's personal-accounts tenant: its issuer is this fixed id, so "consumers" is checked as that. */
const MICROSOFT_CONSUMERS = '9188040d-6c67-4c5b-b112-36a304b66dad';

/** 127.0.0.1, ::1 or localhost: the only hosts a provider may be reached over plain http (tests, a local issuer). */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === '127.0.0.1' || host === '::1' || host === 'localhost';
}

/** An issuer an operator may configure: https, or http on loopback only. Answers why not, or null. */
export function issuerProblem(issuer: string): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'not a URL';
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && isLoopbackUrl(url)) return null;
  return 'must be an https:// address (http:// only on 127.0.0.1, ::1 or localhost)';
}

/** The issuer discovery starts from, per kind. */
function issuerOf(s: ProviderSettings): URL {
  if (s.kind === 'google') return new URL('https://accounts.google.com');
  if (s.kind === 'microsoft') {
    const tenant = !s.tenant || s.tenant === 'consumers' ? MICROSOFT_CONSUMERS : s.tenant;
    return new URL(`https://login.microsoftonline.com/${encodeURIComponent(tenant)}/v2.0`);
  }
  if (!s.issuer) throw new ProviderFailure('providerFailed', `provider ${s.providerKey} has no issuer`);
  return new URL(s.issuer);
}

type Cached = { fingerprint: string; config: Promise<client.Configuration> };
const configurations = new Map<string, Cached>();

/** The provider's configuration, discovered once per settings (a changed secret or issuer discovers again). */
function configurationOf(s: ProviderSettings): Promise<client.Configuration> {
  const fingerprint = JSON.stringify([s.kind, s.issuer, s.tenant, s.clientId, s.clientSecret]);
  const cached = configurations.get(s.providerKey);
  if (cached && cached.fingerprint === fingerprint) return cached.config;
  const config = discover(s);
  configurations.set(s.providerKey, { fingerprint, config });
  // A failed discovery (the issuer was down) is tried again next time.
  config.catch(() => {
    if (configurations.get(s.providerKey)?.config === config) configurations.delete(s.providerKey);
  });
  return config;
}

async function discover(s: ProviderSettings): Promise<client.Configuration> {
  if (s.kind === 'github') {
    return new client.Configuration(
      { issuer: GITHUB.issuer, authorization_endpoint: GITHUB.authorization_endpoint, token_endpoint: GITHUB.token_endpoint },
      s.clientId,
      s.clientSecret,
    );
  }
  const issuer = issuerOf(s);
  const problem = issuerProblem(issuer.href);
  if (problem) throw new ProviderFailure('providerFailed', `issuer ${issuer.href}: ${problem}`);
  // openid-client refuses http unless told: only ever for a loopback issuer.
  const insecure = issuer.protocol === 'http:' && isLoopbackUrl(issuer);
  return client.discovery(issuer, s.clientId, s.clientSecret, undefined, {
    timeout: 10,
    ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
  });
}

export type AuthorizationChecks = { state: string; nonce: string; codeVerifier: string };

/** Fresh state, nonce and PKCE verifier for one sign-in. */
export function newChecks(): AuthorizationChecks {
  return { state: client.randomState(), nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier() };
}

/** The provider's authorisation address, with state, nonce (OpenID) and the PKCE S256 challenge. */
export async function authorizationUrl(s: ProviderSettings, redirectUri: string, checks: AuthorizationChecks): Promise<string> {
  const config = await configurationOf(s).catch((err: unknown) => {
    throw new ProviderFailure('providerFailed', `discovery of ${s.providerKey} failed: ${String(err)}`);
  });
  const params: Record<string, string> = {
    redirect_uri: redirectUri,
    response_type: 'code',
    state: checks.state,
    code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
    code_challenge_method: 'S256',
  };
  if (s.kind === 'github') {
    params.scope = 'read:user user:email';
  } else {
    params.scope = 'openid email profile';
    params.nonce = checks.nonce;
    // Lets the person pick which account of the provider to use, rather than the last one silently.
    if (s.kind === 'google' || s.kind === 'microsoft') params.prompt = 'select_account';
  }
  return client.buildAuthorizationUrl(config, params).href;
}

/**
 * Trades the callback's code for the person's identity, checking state, PKCE and (OpenID) the ID
 * token's signature, issuer, audience and nonce. A code used before is refused by the provider.
 */
export async function exchangeCode(s: ProviderSettings, callbackUrl: URL, redirectUri: string, checks: AuthorizationChecks): Promise<ProviderIdentity> {
  if (callbackUrl.searchParams.get('error') === 'access_denied') throw new ProviderFailure('cancelled', 'access_denied');
  const config = await configurationOf(s);
  // The token request names the same redirect_uri the authorisation did, whatever host the callback came in on.
  const current = new URL(redirectUri);
  current.search = callbackUrl.search;
  try {
    if (s.kind === 'github') {
      const tokens = await client.authorizationCodeGrant(config, current, { expectedState: checks.state, pkceCodeVerifier: checks.codeVerifier });
      return await githubIdentity(config, tokens.access_token);
    }
    const tokens = await client.authorizationCodeGrant(config, current, {
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      pkceCodeVerifier: checks.codeVerifier,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new ProviderFailure('providerFailed', 'no ID token');
    let info: Record<string, unknown> = claims;
    if (typeof claims.email !== 'string') {
      // Some providers put the e-mail only in the userinfo answer.
      info = { ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
    }
    return {
      subject: claims.sub,
      email: typeof info.email === 'string' ? info.email.trim().toLowerCase() : null,
      // Microsoft says so with xms_edov (the e-mail's domain is verified); others with email_verified.
      emailVerified: info.email_verified === true || (s.kind === 'microsoft' && info.xms_edov === true),
      name: typeof info.name === 'string' ? info.name : typeof info.preferred_username === 'string' ? info.preferred_username : null,
    };
  } catch (err) {
    if (err instanceof ProviderFailure) throw err;
    if (err instanceof client.AuthorizationResponseError && err.error === 'access_denied') throw new ProviderFailure('cancelled', 'access_denied');
    throw new ProviderFailure('providerFailed', err instanceof Error ? `${err.name}: ${err.message}` : String(err));
  }
}

/** GitHub has no ID token: the id and name from /user, the primary verified e-mail from /user/emails. */
async function githubIdentity(config: client.Configuration, accessToken: string): Promise<ProviderIdentity> {
  const headers = new Headers({ accept: 'application/vnd.github+json', 'user-agent': 'Tandem', 'x-github-api-version': '2022-11-28' });
  const read = async (path: string) => {
    const res = await client.fetchProtectedResource(config, accessToken, new URL(`${GITHUB.api}${path}`), 'GET', undefined, headers);
    if (!res.ok) throw new ProviderFailure('providerFailed', `GitHub ${path} answered ${res.status}`);
    return (await res.json()) as unknown;
  };
  const user = (await read('/user')) as { id?: number; login?: string; name?: string | null };
  if (typeof user.id !== 'number') throw new ProviderFailure('providerFailed', 'GitHub /user has no id');
  const emails = (await read('/user/emails')) as { email: string; primary: boolean; verified: boolean }[];
  const list = Array.isArray(emails) ? emails : [];
  const chosen = list.find((e) => e.primary && e.verified) ?? list.find((e) => e.verified) ?? list.find((e) => e.primary) ?? null;
  return {
    subject: String(user.id),
    email: chosen ? chosen.email.trim().toLowerCase() : null,
    emailVerified: !!chosen?.verified,
    name: user.name || user.login || null,
  };
}
