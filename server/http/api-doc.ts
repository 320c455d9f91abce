import { jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Codes } from '../../shared/contracts/envelope.ts';
import {
  CodeDocs,
  FailureEnvelopeSchema,
  NotFoundEnvelopeSchema,
  ServerFaultEnvelopeSchema,
  ShuttingDownSchema,
  successEnvelopeSchema,
  type CodeName,
} from '../../shared/contracts/responses.ts';

/**
 * What the API reference (/api/docs/json) says every route answers, built from the same zod
 * contracts the routes use. The HTTP statuses are the ones the server really sends
 * (server/core/failures.ts): handled failures are HTTP 200 (rate limits, too large and wrong content
 * types included: the error handler in server/app.ts answers them so), our own faults 500, Fastify's
 * shutdown answer 503, 404 only where a route serves bytes (GetChatMedia), and 400 only where a
 * route says so (refusedStatus: Stripe's webhook). Response schemas only document: answers are
 * serialized as they are (setSerializerCompiler in server/app.ts).
 */

/** A success answer that is not a JSON envelope (a stream, bytes), for the API reference. */
export type RawAnswer = {
  description: string;
  /** Media type → the schema of the body (of each event, for a stream). */
  content: Record<string, z.ZodType>;
  /** Refusals of a media item come as HTTP 404 with the 10404 envelope (for <img src> and downloads). */
  notFoundStatus?: boolean;
  /**
   * A stream that has no `data: DONE`: it runs until the client or the server ends it. The document
   * says so with `x-endless: true` on the stream's event schema.
   */
  endless?: true;
};

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

/** The `response` of a route's Fastify schema: every status it answers, each with its media types. */
export function routeResponses(spec: { data?: z.ZodType; raw?: RawAnswer; refusedStatus?: 400; unavailableStatus?: true }) {
  const success = spec.raw
    ? {
        description: `${spec.raw.description} A failure is the JSON envelope (Code ≠ 10000, Data null), with HTTP 200.`,
        content: {
          ...json(FailureEnvelopeSchema),
          ...Object.fromEntries(
            Object.entries(spec.raw.content).map(([type, schema]) => [type, { schema: spec.raw?.endless && type === 'text/event-stream' ? schema.meta({ 'x-endless': true }) : schema }]),
          ),
        },
      }
    : {
        description:
          'The envelope: Code 10000 with Data, or a handled failure (Code ≠ 10000, Msg, Data null). Failures are HTTP 200 too: the client reads Code.',
        content: json(z.union([successEnvelopeSchema(spec.data ?? z.null()), FailureEnvelopeSchema])),
      };
  return {
    200: success,
    ...(spec.refusedStatus
      ? { 400: { description: 'Refused before anything was read (a webhook whose signature is missing, wrong or stale; or not set up): the failure envelope.', content: json(FailureEnvelopeSchema) } }
      : {}),
    ...(spec.raw?.notFoundStatus ? { 404: { description: 'Not found, or not the caller’s (Code 10404).', content: json(NotFoundEnvelopeSchema) } } : {}),
    500: { description: 'The server’s own fault (Code 10500); Msg names the request id.', content: json(ServerFaultEnvelopeSchema) },
    503: spec.unavailableStatus
      ? {
          description: 'This instance cannot serve: a dependency is down or it is shutting down (the failure envelope, or Fastify’s own answer once closed).',
          content: json(z.union([FailureEnvelopeSchema, ShuttingDownSchema])),
        }
      : { description: 'The server is shutting down (Fastify’s own answer, not an envelope).', content: json(ShuttingDownSchema) },
  };
}

/** The codes in the reference: a table in its description and the same as data (`x-codes`). */
export function codeList() {
  return (Object.keys(Codes) as CodeName[]).map((name) => ({ code: Codes[name], name, ...CodeDocs[name] }));
}

const INTRO = `Every answer is the envelope {Code, Msg, Data} (docs/api.md#the-envelope). Code 10000 is success, with Data as each route declares it (null for routes that answer none) and an empty Msg. Any other Code is a handled failure: Msg is a sentence a person can act on, in the caller's language, and Data is null. Handled failures are sent with HTTP 200, because the client reads Code; the other statuses are 500 (the server's own fault, Code 10500), 404 from GetChatMedia and GetHeadImg (and for URLs that are not routes), 400 from Stripe's webhook (a missing, wrong or stale signature), and 503 with Fastify's own body while the server shuts down. AddMessage answers text/event-stream, and GetChatMedia, GetHeadImg, ProxyImage, MarkdownToPdf, GetPosterByCode and admin/Poster/Preview answer bytes; their failures are the JSON envelope.`;

/** The `info` and extensions of the OpenAPI document. */
export function apiDocHeader() {
  const rows = codeList().map((c) => `| ${c.code} | ${c.name} | ${c.meaning} | ${c.action} |`);
  const description = [INTRO, '', '## Codes', '', '| Code | Name | Meaning | What to do |', '|---|---|---|---|', ...rows].join('\n');
  return { info: { title: 'Tandem API', version: '1', description }, 'x-codes': codeList() };
}

/**
 * The document's components: the schemas that carry an id (shared/contracts/responses.ts).
 * fastify-type-provider-zod makes an input twin (`<id>Input`) of each; the answers' twins are
 * referenced by nothing, so they are left out.
 */
export const withAnswerComponents: typeof jsonSchemaTransformObject = (document) => {
  const result = jsonSchemaTransformObject(document) as ReturnType<typeof jsonSchemaTransformObject> & {
    paths?: unknown;
    components?: { schemas?: Record<string, unknown> };
  };
  const schemas = result.components?.schemas ?? {};
  const used = JSON.stringify([result.paths, schemas]);
  for (const id of Object.keys(schemas)) {
    const unused = !used.includes(`"#/components/schemas/${id}"`);
    if (id.endsWith('Input') && id.slice(0, -'Input'.length) in schemas && unused) delete schemas[id];
  }
  return result;
};
