import type { FastifyInstance, InjectOptions } from 'fastify';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * The served API reference (/api/docs/json) as tests read it: sample requests built from its
 * parameters and bodies (tests/server/route-guards.test.ts, tests/server/openapi.test.ts), and a
 * check of a real answer against what it declares for that route, status and content type.
 */

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
  default?: unknown;
  $ref?: string;
};
export type MediaTypes = Record<string, { schema: JsonSchema }>;
export type Operation = {
  security?: unknown[];
  parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content: MediaTypes };
  responses?: Record<string, { description: string; content?: MediaTypes }>;
};
export type OpenApi = {
  openapi: string;
  info: { description?: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
  'x-codes'?: { code: number; name: string; meaning: string; action: string }[];
};
export type RouteRef = { method: string; url: string };

export async function fetchApiDocument(app: FastifyInstance): Promise<OpenApi> {
  return (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
}

export const operationOf = (doc: OpenApi, route: RouteRef): Operation | undefined => doc.paths[route.url]?.[route.method.toLowerCase()];

/**
 * A plausible valid value for a schema, so that a guard that let a call through would have
 * something to change. `known` replaces the values of the fields it names (ids that exist, ...).
 */
export function sample(s: JsonSchema | undefined, known: Record<string, unknown> = {}): unknown {
  if (!s) return 'guard_test';
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const alt = s.anyOf ?? s.oneOf ?? s.allOf;
  if (alt?.length) return sample(alt.find((a) => a.type !== 'null') ?? alt[0], known);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, k in known ? known[k] : sample(v, known)]));
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 0) }, () => sample(s.items, known));
    case 'integer':
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return true;
    case 'string': {
      if (s.format === 'uri' || s.format === 'url') return 'https://guard.example.com/';
      if (s.format === 'email') return 'guard@example.com';
      const text = 'guard_test'.padEnd(s.minLength ?? 0, 'x');
      return s.maxLength ? text.slice(0, s.maxLength) : text;
    }
    default:
      return s.default ?? null;
  }
}

/** A request for a route built from its parameters and body in the document; `known` as for sample(). */
export function sampleRequest(doc: OpenApi, route: RouteRef, known: Record<string, unknown> = {}) {
  const op = operationOf(doc, route) ?? {};
  const query = new URLSearchParams();
  for (const p of op.parameters ?? []) if (p.in === 'query') query.set(p.name, String(p.name in known ? known[p.name] : sample(p.schema)));
  const bodySchema = Object.values(op.requestBody?.content ?? {})[0]?.schema;
  return { url: query.size ? `${route.url}?${query}` : route.url, body: route.method === 'POST' ? (sample(bodySchema, known) ?? {}) : undefined };
}

type Schema = Record<string, unknown>;

/**
 * An OpenAPI 3.0 schema as JSON Schema for Ajv. 3.0 is a dialect: `nullable: true` beside a type
 * (or beside an anyOf, as zod writes unions with null) means "or null", and exclusiveMinimum /
 * exclusiveMaximum are booleans next to minimum / maximum. Ajv's own `nullable` support needs a
 * `type` in the same object, which zod's output does not always have, so null is spelled out here.
 * Local references (#/components/schemas/...) are inlined: the contracts have no cycles.
 */
export function toJsonSchema(s: unknown, components: Record<string, JsonSchema> = {}, depth = 0): unknown {
  if (depth > 50) throw new Error('schema too deep: a cycle of references?');
  if (typeof s !== 'object' || s === null) return s;
  const o = s as Schema;
  const sub = (v: unknown) => toJsonSchema(v, components, depth + 1);
  if (typeof o.$ref === 'string') {
    const name = o.$ref.replace('#/components/schemas/', '');
    if (!components[name]) throw new Error(`unresolved reference ${o.$ref}`);
    return sub(components[name]);
  }
  const out: Schema = {};
  for (const [k, v] of Object.entries(o)) {
    if (k === 'nullable' || ((k === 'exclusiveMinimum' || k === 'exclusiveMaximum') && typeof v === 'boolean')) continue;
    if (k === 'properties') out[k] = Object.fromEntries(Object.entries(v as Schema).map(([name, p]) => [name, sub(p)]));
    else if (k === 'items' || k === 'not' || (k === 'additionalProperties' && typeof v === 'object')) out[k] = sub(v);
    else if (k === 'anyOf' || k === 'oneOf' || k === 'allOf') out[k] = (v as unknown[]).map(sub);
    else out[k] = v;
  }
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (o[flag] === true) {
      out[flag] = o[bound];
      delete out[bound];
    }
  }
  return o.nullable === true ? { anyOf: [out, { type: 'null' }] } : out;
}

export type Answer = { status: number; contentType: string; body: string };

/** The document's entry for a Content-Type header: its media type exactly, else its `type/*` range, else the any-type range. */
function mediaEntry(content: MediaTypes, contentType: string): [string, JsonSchema] | null {
  const media = contentType.split(';')[0]!.trim().toLowerCase();
  for (const key of [media, `${media.split('/')[0]}/*`, '*/*']) if (content[key]) return [key, content[key]!.schema];
  return null;
}

/** A stream without `data: DONE` (its event schema says `x-endless`): the answer checked is its beginning. */
export const isEndless = (schema: JsonSchema | undefined): boolean => (schema as { 'x-endless'?: unknown } | undefined)?.['x-endless'] === true;

/** Whether the route's answer is an endless stream (the live unread count). */
export const answersEndless = (operation: { responses?: Record<string, { content?: MediaTypes }> } | undefined): boolean =>
  isEndless(operation?.responses?.['200']?.content?.['text/event-stream']?.schema);

/**
 * Sends `request` to an endless stream and reads its answer up to the first event, then lets it go.
 * A refusal (an envelope, not a stream) is read whole.
 */
export async function injectToFirstEvent(app: FastifyInstance, request: InjectOptions): Promise<{ status: number; contentType: string; body: string }> {
  const res = await app.inject({ ...request, payloadAsStream: true });
  const stream = res.stream();
  let body = '';
  for await (const chunk of stream) {
    body += String(chunk);
    if (body.includes('\n\n')) break;
  }
  stream.destroy();
  return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), body };
}

/** The `data:` payloads of an event stream, each checked to be one `data:` line. */
function eventPayloads(body: string): { payloads: string[]; problem?: string } {
  const blocks = body.split('\n\n').filter((b) => b.trim());
  const bad = blocks.find((b) => !b.startsWith('data: ') || b.includes('\n'));
  if (bad !== undefined) return { payloads: [], problem: `not one data: line per event: ${bad.slice(0, 120)}` };
  return { payloads: blocks.map((b) => b.slice('data: '.length)) };
}

/**
 * Checks real answers against the document: the status and the content type must be declared for
 * the route, and the body must match the schema declared for them (for an event stream: every
 * event, and the stream must end with `data: DONE`). Returns what is wrong, or [] when nothing is.
 */
export function answerChecker(doc: OpenApi) {
  // strict: false lets Ajv skip the OpenAPI-only keywords (description, example, x-...).
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const compiled = new Map<JsonSchema, ValidateFunction>();
  const validatorFor = (schema: JsonSchema) => {
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = ajv.compile(toJsonSchema(schema, doc.components?.schemas) as object)));
    return validate;
  };
  const mismatch = (schema: JsonSchema, value: unknown): string | null => {
    const validate = validatorFor(schema);
    return validate(value) ? null : ajv.errorsText(validate.errors, { separator: '; ' });
  };

  return (route: RouteRef, answer: Answer): string[] => {
    const label = `${route.method} ${route.url} → HTTP ${answer.status} ${answer.contentType}`;
    const response = operationOf(doc, route)?.responses?.[String(answer.status)];
    if (!response) return [`${label}: status not declared`];
    const entry = mediaEntry(response.content ?? {}, answer.contentType);
    if (!entry) return [`${label}: content type not declared (declared: ${Object.keys(response.content ?? {}).join(', ')})`];
    const [media, schema] = entry;
    const problems: string[] = [];
    const check = (value: unknown, what: string) => {
      const wrong = mismatch(schema, value);
      if (wrong) problems.push(`${label}: ${what} ${wrong}: ${JSON.stringify(value).slice(0, 300)}`);
    };
    if (media === 'text/event-stream') {
      const { payloads, problem } = eventPayloads(answer.body);
      if (problem) return [`${label}: ${problem}`];
      const endless = isEndless(schema);
      if (endless) {
        if (payloads.length === 0) problems.push(`${label}: no event`);
        if (payloads.includes('DONE')) problems.push(`${label}: an endless stream sent data: DONE`);
      } else {
        if (payloads.at(-1) !== 'DONE') problems.push(`${label}: the stream does not end with data: DONE`);
        if (payloads.length < 2) problems.push(`${label}: no event before DONE`);
      }
      for (const payload of endless ? payloads : payloads.slice(0, -1)) {
        try {
          check(JSON.parse(payload), 'event');
        } catch {
          problems.push(`${label}: an event is not JSON: ${payload.slice(0, 120)}`);
        }
      }
    } else if (media.includes('json')) {
      let value: unknown;
      try {
        value = JSON.parse(answer.body);
      } catch {
        return [`${label}: not JSON: ${answer.body.slice(0, 120)}`];
      }
      check(value, 'body');
    } else {
      check(answer.body, 'bytes');
    }
    return problems;
  };
}
