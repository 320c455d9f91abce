import type { FakeOidc } from '../fixtures/fake-oidc.ts';

/**
 * A browser's part in "sign in with another account", over real HTTP: a cookie jar per origin and
 * redirects followed by hand, so a test can stop, change or replay any step.
 */
export class CookieJar {
  private readonly cookies = new Map<string, { name: string; value: string; path: string }[]>();

  header(url: URL): string {
    const list = this.cookies.get(url.origin) ?? [];
    return list
      .filter((c) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) || c.path === '/')
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  store(url: URL, res: Response): void {
    const list = this.cookies.get(url.origin) ?? [];
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      const path = attrs.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) || '/';
      const expired = attrs.some((a) => /^max-age=0$/i.test(a) || (/^expires=/i.test(a) && new Date(a.slice(8)).getTime() < Date.now()));
      const kept = list.filter((c) => !(c.name === name && c.path === path));
      if (!expired) kept.push({ name, value, path });
      list.splice(0, list.length, ...kept);
    }
    this.cookies.set(url.origin, list);
  }

  /** Whether a cookie of this name is held for the origin. */
  has(origin: string, name: string): boolean {
    return (this.cookies.get(origin) ?? []).some((c) => c.name === name);
  }
}

/** One request as a browser makes it: the jar's cookies sent, its Set-Cookie kept, no redirect followed. */
export async function browse(jar: CookieJar, href: string, init: { token?: string; method?: string; body?: unknown } = {}): Promise<Response> {
  const url = new URL(href);
  const headers: Record<string, string> = {};
  const cookie = jar.header(url);
  if (cookie) headers.cookie = cookie;
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json-patch+json';
  const res = await fetch(url, { method: init.method ?? 'GET', headers, redirect: 'manual', body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  jar.store(url, res);
  return res;
}

/** The address a redirect (3xx Location) or the callback's page (meta refresh) sends the browser to. */
export async function nextLocation(res: Response, base: string): Promise<string> {
  const location = res.headers.get('location');
  if (location) return new URL(location, base).href;
  const html = await res.text();
  const refresh = /http-equiv="refresh" content="0;url=([^"]+)"/.exec(html);
  if (!refresh) throw new Error(`no redirect in ${res.status}: ${html.slice(0, 200)}`);
  return new URL(refresh[1]!.replace(/&#38;/g, '&'), base).href;
}

/** Starts a sign-in (or link) on the server: the provider's authorisation address. */
export async function startProvider(
  jar: CookieJar,
  appUrl: string,
  query: { providerKey: string; action?: 'login' | 'link'; returnTo?: string },
  token?: string,
): Promise<{ Code: number; Msg: string; Data: { url: string } | null }> {
  const params = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
  const res = await browse(jar, `${appUrl}/api/Account/GetProviderByAction?${params}`, { token });
  return (await res.json()) as { Code: number; Msg: string; Data: { url: string } | null };
}

/**
 * At the fake provider: from its authorisation address to the server's callback address (with code
 * and state), signed in as `account`.
 */
export async function signInAtProvider(jar: CookieJar, fake: FakeOidc, authorizationUrl: string, account: string): Promise<string> {
  let res = await browse(jar, authorizationUrl);
  const interaction = await nextLocation(res, fake.issuer);
  if (!/\/interaction\//.test(interaction)) throw new Error(`the provider did not ask to sign in: ${interaction}`);
  res = await browse(jar, `${interaction}/login?account=${encodeURIComponent(account)}`);
  let next = await nextLocation(res, fake.issuer);
  // Through the provider's own resume steps, until it sends the browser back to the client.
  for (let hops = 0; next.startsWith(fake.issuer) && hops < 5; hops++) {
    res = await browse(jar, next);
    next = await nextLocation(res, fake.issuer);
  }
  return next;
}

/** The callback on the server: where it sends the browser, as a URL of the server. */
export async function callback(jar: CookieJar, appUrl: string, callbackUrl: string): Promise<URL> {
  const res = await browse(jar, callbackUrl);
  if (res.status !== 200) throw new Error(`callback answered ${res.status}`);
  return new URL(await nextLocation(res, appUrl));
}

/** A whole sign-in: start, the provider, the callback. Answers where the browser lands. */
export async function providerSignIn(
  jar: CookieJar,
  appUrl: string,
  fake: FakeOidc,
  account: string,
  query: { providerKey: string; action?: 'login' | 'link'; returnTo?: string },
  token?: string,
): Promise<URL> {
  const started = await startProvider(jar, appUrl, query, token);
  if (started.Code !== 10000 || !started.Data) throw new Error(`GetProviderByAction answered ${started.Code}: ${started.Msg}`);
  return callback(jar, appUrl, await signInAtProvider(jar, fake, started.Data.url, account));
}
