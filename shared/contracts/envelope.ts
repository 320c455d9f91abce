/**
 * Every answer of the API is {Code, Msg, Data}. Handled outcomes travel as HTTP 200 with their own
 * Code, because the client reads Code, not the HTTP status. docs/api.md lists them for people, and
 * shared/contracts/responses.ts for the API reference (CodeDocs).
 */
export const Codes = {
  Success: 10000,
  /** Bad input: a field is missing, of the wrong type or out of range. */
  BadRequest: 10400,
  /** Wrong e-mail or password, or an unknown, used or expired temp key. */
  LoginFailed: 10401,
  /** Not logged in: missing, invalid, expired or revoked token. */
  NotLoggedIn: 10402,
  /** Logged in, but the role does not allow this call. */
  Forbidden: 10403,
  /** Not found, or not yours (the two are answered alike on purpose). */
  NotFound: 10404,
  /** Conflicts with what exists (e-mail already registered, ...). */
  Conflict: 10409,
  /** The request body is larger than this call accepts. */
  PayloadTooLarge: 10413,
  /** A page or file that cannot be used: address not allowed, unsupported content, too large, unreachable. The Msg says which. */
  UploadRefused: 10422,
  /** Too many attempts; the Msg says when to retry. */
  RateLimited: 10429,
  /** The model needs a higher plan than the caller's. */
  PlanRequired: 10450,
  /** No model is configured on this server (or none is online). */
  NoModelConfigured: 10460,
  /** A feature the call needs is not set up on this server (web search, image generation); the Msg says which. */
  NotConfigured: 10461,
  /** The model's provider refused its key or does not know it, or it has no enabled deployment: an administrator must fix it. */
  ModelMisconfigured: 10462,
  /** The model is not of the type the call needs: not a chat model for a message, not an image-generation model for a drawing. */
  ModelWrongType: 10463,
  /** The conversation (with its attachments) does not fit the model's context. */
  ContextTooLong: 10414,
  /** The balance does not cover the model's cost. */
  NotEnoughPoints: 10470,
  /** The upstream model failed or is busy. */
  ModelBusy: 10503,
  /** The model did not answer in time. */
  ModelTimeout: 10504,
  /** The web search or image service failed or was too slow. */
  ServiceFailed: 10502,
  /** Used locally by the client for parse failures and unspecified failures; the server's own fault. */
  ServerError: 10500,
  /** Used locally by the client for an aborted request. */
  Aborted: 10087,
} as const;
export type Code = (typeof Codes)[keyof typeof Codes];

export type Envelope<T> = { Code: number; Msg: string; Data: T };
