/**
 * Why an upstream call failed, as far as users and operators are concerned:
 * busy (rate limit, overload, 5xx, dropped connection: another try may work), auth (the provider
 * refused the key), not-found (the provider does not know the model), context-too-long (the
 * conversation does not fit), timeout (no answer in time), request (the provider refused this
 * request for another reason).
 */
export type UpstreamFailureKind = 'busy' | 'auth' | 'not-found' | 'context-too-long' | 'timeout' | 'request';

/** A failed upstream call; the message is for logs (scrubbed there), never for users. */
export class UpstreamFailure extends Error {
  constructor(
    readonly kind: UpstreamFailureKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'UpstreamFailure';
  }
}
