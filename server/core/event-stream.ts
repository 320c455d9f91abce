/**
 * A response as text/event-stream, as services write it: the chat's answer (chat/stream.ts) and a
 * resumed one (chat/resume.ts). The HTTP side makes it from a reply (http/event-stream.ts), so no
 * service sees the reply. Until `open`, events are held (nothing, not even the headers, reaches the
 * client); `open` sends the headers (with `headers` added) and what was held. Writes to a client
 * that has gone are dropped.
 */
export type EventStream = {
  send(chunk: string): void;
  /** The last chunk and the end of the body, in one write. */
  end(chunk?: string): void;
  open(headers?: Record<string, string>): void;
  /** How long the answer's first event waited for `open` (ms). */
  waitedMs(): number;
  /** `fn` runs once the client has gone (at once if it has already). */
  onClose(fn: () => void): void;
};
