import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatStreamData } from '../../shared/contracts/chat.ts';

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: SeenRequest, res: http.ServerResponse) => void | Promise<void>;

export interface TestServer {
  url: string;
  requests: SeenRequest[];
  /** Replaces the handler for the next requests. */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** A real HTTP server on a free port, recording what it received, for client code to talk to. */
export async function startTestServer(initial: Handler = (_req, res) => void res.end()): Promise<TestServer> {
  let handler = initial;
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(seen);
      Promise.resolve(handler(seen, res)).catch((error: unknown) => {
        res.statusCode = 599;
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers a {Code, Msg, Data} envelope as JSON, with extra headers. */
export function sendEnvelope(res: http.ServerResponse, envelope: { Code: number; Msg?: string; Data?: unknown }, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ Msg: '', Data: null, ...envelope }));
}

/**
 * An AddMessage event's Data: `fields` over an answer nobody looks at (message m1 of session s1,
 * asked 'hi' of the model basic, named Basic, not finished). Extra fields (Citations, ToolCalls) go along.
 */
export function chatData(fields: Partial<ChatStreamData> & Record<string, unknown> = {}): ChatStreamData & Record<string, unknown> {
  return {
    ChatMessageId: 'm1',
    ChatSessionId: 's1',
    InputMessage: 'hi',
    OutputMessage: '',
    FinishReason: null,
    ModelName: 'Basic',
    ModelId: 'basic',
    ReplaceMessage: false,
    ...fields,
  };
}

/**
 * AddMessage answers as the server streams them: `openChatStream`, then one `sendChatEvent` per
 * `data:` event (Code 10000), then `endChatStream` (the closing `data: DONE`).
 */
export function openChatStream(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
}

export function sendChatEvent(res: http.ServerResponse, data: Record<string, unknown>): void {
  res.write(`data: ${JSON.stringify({ Code: 10000, Msg: '', Data: data })}\n\n`);
}

export function endChatStream(res: http.ServerResponse): void {
  res.end('data: DONE\n\n');
}

/** A whole AddMessage answer of one event. */
export function sendChatAnswer(res: http.ServerResponse, data: Record<string, unknown>): void {
  openChatStream(res);
  sendChatEvent(res, data);
  endChatStream(res);
}

/**
 * Holds a test server's answers: a handler `await`s `wait()`, which resolves at once unless the
 * test called `hold()`, whose returned function lets them all go. `reset()` between tests.
 */
export function createGate() {
  let held: Promise<void> | null = null;
  let release = () => {};
  return {
    wait: (): Promise<void> => held ?? Promise.resolve(),
    hold(): () => void {
      held = new Promise((resolve) => (release = resolve));
      return () => {
        held = null;
        release();
      };
    },
    reset() {
      held = null;
    },
  };
}

/**
 * Writes SSE text as it is, or (awkward) in pieces of 1 to 7 bytes, each its own write, so events and
 * UTF-8 characters straddle network reads.
 */
export async function writeSse(res: http.ServerResponse, text: string, awkward = false): Promise<void> {
  const buf = Buffer.from(text, 'utf8');
  if (!awkward) return void res.write(buf);
  for (let i = 0, n = 1; i < buf.length && !res.destroyed; i += n, n = (n % 7) + 1) {
    res.write(buf.subarray(i, i + n));
    await new Promise((r) => setImmediate(r));
  }
}

/** A request a fake model API received: for the upstream model id it named. */
export type ModelRequest = { method: string; path: string; model: string; headers: http.IncomingHttpHeaders; body: any };

/** What every fake model API (tests/fixtures/fake-*.ts) can be scripted to do for one upstream model id. */
export type StreamScript = {
  /** Text pieces, one streamed event each. Defaults to an echo of the last user message. */
  chunks?: string[];
  /** Delay before each piece. */
  delayMs?: number;
  /** Answer this HTTP status with the API's own error JSON, before any stream. */
  status?: number;
  /** After this many pieces: 'error' sends the API's error event, 'drop' destroys the socket. */
  failAfter?: { chunks: number; mode: 'error' | 'drop' };
  /** Write the SSE bytes in pieces cut inside multi-byte characters, with CRLF line ends. */
  awkward?: boolean;
  /** Never answer (the test aborts). */
  hang?: boolean;
};

/** A fake model API whose answers are scripted per upstream model id. */
export type ScriptedFake<Script, Request> = {
  url: string;
  /** What the server's base URL setting takes for this fake. */
  baseUrl: string;
  requests: Request[];
  script(model: string, script: Script): void;
  reset(): void;
  close(): Promise<void>;
};

/** The fake around a test server: `scripts` and `requests` are the ones its handler reads and fills. */
export function scriptedFake<Script>(
  server: TestServer,
  basePath: string,
  scripts: Map<string, Script>,
  requests: ModelRequest[],
): ScriptedFake<Script, ModelRequest> {
  return {
    url: server.url,
    baseUrl: `${server.url}${basePath}`,
    requests,
    script: (model, script) => void scripts.set(model, script),
    reset() {
      scripts.clear();
      requests.length = 0;
      server.requests.length = 0;
    },
    close: () => server.close(),
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The text of the last user message of a chat request (`messages`, content a string or text parts). */
export function lastUserText(body: any): string {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const last = [...messages].reverse().find((m) => m.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return (last.content ?? []).filter((p: any) => p.type === 'text').map((p: any) => p.text).join('');
}

/**
 * How a fake model translates (the server's translation protocol, server/services/translate): when the
 * last user message is the JSON `{"targetLanguage", "segments"}`, the answer is the JSON
 * `{"detectedLanguage", "translations"}` with each segment prefixed by `[<target>] ` (placeholder tags
 * and all kept), so tests can tell a translation from its original. Segments starting with "Bonjour"
 * are detected as French, others as English. null when the message is not a translation request.
 */
export function fakeTranslation(text: string): string | null {
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch {
    return null;
  }
  const { targetLanguage, segments } = (request ?? {}) as { targetLanguage?: unknown; segments?: unknown };
  if (typeof targetLanguage !== 'string' || !Array.isArray(segments)) return null;
  const texts = segments.map(String);
  return JSON.stringify({
    detectedLanguage: texts.some((s) => s.startsWith('Bonjour')) ? 'fr' : 'en',
    translations: texts.map((s) => (s.trim() === '' ? '' : `[${targetLanguage}] ${s}`)),
  });
}

/**
 * How a fake model summarises a part of a long video's transcript (server/services/chat/video-parts.ts):
 * when the last user message is a part request ("Video: …\nPart i of n…" then `[mm:ss] text` lines),
 * the answer is two points, the part's first and last timestamps, so tests can tell which lines each
 * part had. null for any other message.
 */
export function fakePartSummary(text: string): string | null {
  const part = /^Video: .*\nPart (\d+) of (\d+)/.exec(text);
  if (!part) return null;
  const stamps = [...text.matchAll(/^\[((?:\d{1,2}:)?\d{1,2}:\d{2})\]/gm)].map((m) => m[1]);
  return `- [${stamps[0]}] Part ${part[1]} begins.\n- [${stamps.at(-1)}] Part ${part[1]} ends.`;
}

/** The default answer of a fake model API: `Echo: <text>` in pieces of 4 characters. */
export function echoPieces(text: string): string[] {
  const reply = `Echo: ${text}`;
  const pieces: string[] = [];
  for (let i = 0; i < reply.length; i += 4) pieces.push(reply.slice(i, i + 4));
  return pieces;
}
