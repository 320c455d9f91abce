/**
 * What the server writes to its log must never carry a credential or a user's data: request URLs
 * keep their path and only the query parameters known to be harmless, error messages and stacks are scrubbed, and
 * database errors are reduced to the operation, the table or constraint and the SQLSTATE code (the
 * statement's parameters hold e-mails, password hashes and encrypted keys). docs/security.md#logs.
 */

const REDACTED = '[redacted]';

/**
 * The query parameters a log line may keep, by name: paging, filters and ids that are no capability
 * on their own (every by-id route checks the caller). Anything else — a reset token, a temp key, a
 * share id, a search term, a proxied image's address, a coupon code, an e-mail — is replaced by the
 * marker: the list says what is harmless, so a parameter added tomorrow is hidden until someone adds
 * it here.
 */
const HARMLESS_PARAMS = new Set([
  'action', 'actorId', 'aiModelId', 'aiModelMapId', 'aiPrompWordId', 'batchId', 'chatMediaId', 'chatMessageId',
  'chatSessionId', 'count', 'currency', 'eventType', 'exp', 'favouriteId', 'from', 'kind', 'lang', 'language',
  'minDurationMs', 'offset', 'order', 'page', 'pageSize', 'planLevel', 'role', 'scene', 'settingKey', 'sort',
  'source', 'status', 'targetId', 'targetType', 'timeZone', 'to', 'top', 'unreadOnly', 'userId', 'vipOrderId',
  'vipPackageId',
]);
/** A harmless value is short and plain (an id, a number, a word); anything else is hidden too. */
const PLAIN_VALUE = /^[A-Za-z0-9_.:+%-]{0,64}$/;

/** Path segments that are themselves a capability (a share link reads a chat): `/share/<id>`. */
const CAPABILITY_PATH = /^(\/share\/)[^/?#]+/;

/** Query parameter names that carry a credential, for free text (messages, stacks) that holds a URL. */
const SENSITIVE_PARAM = /([?&;][^=&\s#"'<>]*(?:token|key|sig|secret|password|passwd|code|reset|share|url|q)[^=&\s#"'<>]*=)[^&\s#"'<>]*/gi;
/** Authorization header values and key-like strings providers echo back (sk-..., AIza...). */
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;
const KEY_LIKE = /\b(?:sk|pk|rk|ak)-[A-Za-z0-9_-]{6,}|\bAIza[A-Za-z0-9_-]{10,}/g;

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    // A name that is not valid percent-encoding is judged as it is (and is not on the list).
    return name;
  }
}

/**
 * A URL (or a path with its query) as the log may hold it: the path, with capability segments
 * replaced; of the query, only harmless parameters keep their value; the fragment is dropped.
 */
export function redactUrl(url: string): string {
  const q = url.search(/[?#]/);
  const path = (q < 0 ? url : url.slice(0, q)).replace(CAPABILITY_PATH, `$1${REDACTED}`);
  if (q < 0 || url[q] === '#') return path;
  const query = url.slice(q + 1).split('#')[0]!;
  const params = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1);
    const harmless = HARMLESS_PARAMS.has(decodedName(name));
    if (!harmless) return `${/^[A-Za-z0-9_]{1,32}$/.test(name) ? name : REDACTED}=${REDACTED}`;
    return eq < 0 ? name : `${name}=${PLAIN_VALUE.test(value) ? value : REDACTED}`;
  });
  return `${path}?${params.join('&')}`;
}

/** Free text (an error message, a stack) with credentials in URLs, headers and key-like strings removed. */
export function redactText(text: string): string {
  return text
    .replace(SENSITIVE_PARAM, `$1${REDACTED}`)
    .replace(/(\/share\/)[A-Za-z0-9_-]+/g, `$1${REDACTED}`)
    .replace(BEARER, `$1 ${REDACTED}`).replace(KEY_LIKE, REDACTED);
}

/** An e-mail as a log may name it: the first letter and the domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at <= 0 ? REDACTED : `${email[0]}***${email.slice(at)}`;
}

type AnyError = Error & { code?: unknown; cause?: unknown; query?: unknown; params?: unknown; [k: string]: unknown };

/** A statement's text says what was attempted; the first words (no values: they are parameters). */
function operationOf(query: string): string {
  return query.replace(/\s+/g, ' ').trim().split(' ').slice(0, 4).join(' ').slice(0, 80);
}

/** Drizzle wraps driver errors with the statement and its parameters; PGlite's errors carry both too. */
const isQueryError = (err: AnyError) => typeof err.query === 'string' && 'params' in err;

/** The fields of a PostgreSQL error that name what failed, without any value from the row. */
function databaseFields(err: AnyError): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of ['code', 'table', 'constraint', 'column', 'schema', 'routine', 'severity']) {
    if (typeof err[name] === 'string') fields[name] = err[name];
  }
  return fields;
}

/** The stack without its message lines (a query error's message holds the parameters). */
function stackFrames(err: Error): string | undefined {
  if (!err.stack) return undefined;
  return err.stack
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
}

function serializeDatabaseError(err: AnyError): Record<string, unknown> {
  const cause = err.cause instanceof Error ? (err.cause as AnyError) : undefined;
  const driver = cause && !isQueryError(cause) ? cause : err;
  return {
    type: 'DatabaseError',
    operation: operationOf(String(err.query)),
    ...databaseFields(driver),
    ...(cause && driver === err ? databaseFields(cause) : {}),
    stack: stackFrames(err),
  };
}

/**
 * The log serializer of errors (`err` and `error` keys): type, message and stack, scrubbed; a
 * database error only by what failed. Causes are serialized the same way.
 */
export function serializeError(value: unknown, depth = 0): unknown {
  if (!(value instanceof Error)) return typeof value === 'string' ? redactText(value) : value;
  const err = value as AnyError;
  if (isQueryError(err) || (err.cause instanceof Error && isQueryError(err.cause as AnyError))) {
    return serializeDatabaseError(isQueryError(err) ? err : (err.cause as AnyError));
  }
  const out: Record<string, unknown> = {
    type: err.name,
    message: redactText(err.message),
    stack: err.stack ? redactText(err.stack) : undefined,
  };
  if (typeof err.code === 'string' || typeof err.code === 'number') out.code = err.code;
  if (typeof err.statusCode === 'number') out.statusCode = err.statusCode;
  if (err.cause !== undefined && depth < 3) out.cause = serializeError(err.cause, depth + 1);
  return out;
}

type LoggedRequest = { method?: string; url?: string; hostname?: string; ip?: string; socket?: { remotePort?: number } };

/** The log serializer of requests: Fastify's fields, with the URL's credentials removed. */
export function serializeRequest(req: LoggedRequest): Record<string, unknown> {
  return {
    method: req.method,
    url: req.url === undefined ? undefined : redactUrl(req.url),
    hostname: req.hostname,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** Top-level strings of what is logged (messages, `reason` fields), scrubbed like error messages. */
function scrubLogArgument(arg: unknown): unknown {
  if (typeof arg === 'string') return redactText(arg);
  if (arg === null || typeof arg !== 'object' || arg instanceof Error || Array.isArray(arg)) return arg;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(arg)) out[k] = typeof v === 'string' ? redactText(v) : v;
  return out;
}

/** Pino's logMethod hook: every log call passes its arguments through scrubLogArgument. */
export function scrubLogCall(this: unknown, args: unknown[], method: (...a: unknown[]) => void): void {
  method.apply(this, args.map(scrubLogArgument));
}
