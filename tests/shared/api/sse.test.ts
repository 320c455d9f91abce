import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerResponse } from 'node:http';
import { tokenPersisted } from '../../../shared/atoms/auth.ts';
import { visitorIdPersisted } from '../../../shared/api/driver-id.ts';
import { sendPreparedMessage } from '../../../shared/api/early-message.ts';
import { ApiError, onUnauthorized } from '../../../shared/api/request.ts';
import { sseEvents, streamMessage, type StreamUpdate } from '../../../shared/api/sse.ts';
import { peekPersisted, writePersisted } from '../../../shared/storage/active.ts';
import { serveTheseTests } from '../../helpers/fake-api.ts';
import { chatData, sendEnvelope } from '../../helpers/http-server.ts';

const PATH = '/api/Chat/AddMessage';

const server = serveTheseTests();

const event = (body: unknown, eol = '\n') => `data: ${JSON.stringify(body)}${eol}${eol}`;
const ok = (output: string, extra: Record<string, unknown> = {}, eol = '\n') =>
  event({ Code: 10000, Msg: '', Data: chatData({ OutputMessage: output, ...extra }) }, eol);

/**
 * Bytes of the answer's body the client has received so far: fetch is wrapped (beforeEach) to count
 * them as they come, from zero at each call, and to tell `arrivals` of each chunk.
 */
let received = 0;
const arrivals = new Set<() => void>();

/** Resolves once the client has received `bytes` bytes of the answer's body. */
function clientReceived(bytes: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (received < bytes) return;
      arrivals.delete(check);
      resolve();
    };
    arrivals.add(check);
    check();
  });
}

beforeEach(() => {
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    received = 0;
    const response = await realFetch(input, init);
    if (!response.body) return response;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          received += chunk.byteLength;
          for (const check of [...arrivals]) check();
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  });
});
afterEach(() => vi.restoreAllMocks());

/**
 * Writes the bytes in the given pieces, each once the client has received the one before, so the
 * client reads them apart.
 */
async function streamPieces(res: ServerResponse, pieces: Buffer[]): Promise<void> {
  res.socket?.setNoDelay(true);
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
  let written = 0;
  for (const piece of pieces) {
    res.write(piece);
    await clientReceived((written += piece.length));
  }
  res.end();
}

/** Splits bytes at the given offsets. */
function splitAt(bytes: Buffer, offsets: number[]): Buffer[] {
  const points = [0, ...offsets, bytes.length];
  return points.slice(1).map((end, i) => bytes.subarray(points[i], end));
}

function streamOf(pieces: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const p of pieces) controller.enqueue(p);
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const events: string[] = [];
  for await (const e of sseEvents(stream)) events.push(e);
  return events;
}

describe('sseEvents', () => {
  it('yields the same events whatever the split, with CRLF, CR and LF line ends', async () => {
    const text = 'data: 你好🙂\r\n\r\n: comment\ndata: a\ndata: b\n\ndata:x\r\rdata: DONE\n\n';
    const bytes = Buffer.from(text, 'utf8');
    const expected = ['你好🙂', 'a\nb', 'x', 'DONE'];
    expect(await collect(streamOf([bytes]))).toEqual(expected);
    // Every single split point and every pair of them, including inside a character and a CRLF.
    for (let i = 1; i < bytes.length; i++) {
      expect(await collect(streamOf(splitAt(bytes, [i])))).toEqual(expected);
      for (let j = i + 1; j < bytes.length; j += 3) {
        expect(await collect(streamOf(splitAt(bytes, [i, j])))).toEqual(expected);
      }
    }
    // One byte per read.
    expect(await collect(streamOf([...bytes].map((b) => Uint8Array.of(b))))).toEqual(expected);
  });

  it('yields a last event that has no blank line after it', async () => {
    expect(await collect(streamOf([Buffer.from('data: a\n\ndata: b')]))).toEqual(['a', 'b']);
  });
});

describe('streamMessage', () => {
  it('reads the answer of a request sent before it (the side panel’s first script), sending nothing itself; its signal cancels that request', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(ok('Sent early.', { FinishReason: 'stop' }) + 'data: DONE\n\n');
    });
    const sent = sendPreparedMessage({ url: `${server.url}${PATH}`, headers: { 'content-type': 'application/json-patch+json' }, body: { aiModelId: 'basic', inputMessage: 'hi' } });
    const result = await streamMessage(PATH, { aiModelId: 'other' }, { sent });
    expect(result.text).toBe('Sent early.');
    expect(server.requests.map((r) => JSON.parse(r.body))).toEqual([{ aiModelId: 'basic', inputMessage: 'hi' }]);

    server.handle(() => undefined);
    const controller = new AbortController();
    const pending = streamMessage(PATH, {}, { signal: controller.signal, sent: sendPreparedMessage({ url: `${server.url}${PATH}`, headers: {}, body: {} }) });
    await vi.waitFor(() => expect(server.requests).toHaveLength(2));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 10087 });
  });

  it('posts with the usual headers and accumulates the answer across awkward chunks', async () => {
    await writePersisted(tokenPersisted, 'tok');
    const wire = Buffer.from(
      ok('') + ok('Hello, ', {}, '\r\n') + ok('世界 🙂') + ok('!', { ModelName: 'Auto → Basic' }) + ok('', { FinishReason: 'stop', ModelName: 'Auto → Basic' }) + 'data: DONE\n\n',
      'utf8',
    );
    // Split inside the 3-byte 世, inside the 4-byte emoji and between a CR and its LF.
    const world = wire.indexOf(Buffer.from('世'));
    const emoji = wire.indexOf(Buffer.from('🙂'));
    const crlf = wire.indexOf(Buffer.from('\r\n'));
    server.handle((_req, res) => streamPieces(res, splitAt(wire, [crlf + 1, world + 1, world + 2, emoji + 3])));

    const updates: StreamUpdate[] = [];
    const result = await streamMessage(PATH, { aiModelId: 'basic', inputMessage: 'hi' }, { onUpdate: (u) => updates.push(u) });

    expect(result).toEqual({
      text: 'Hello, 世界 🙂!',
      ids: { chatMessageId: 'm1', chatSessionId: 's1' },
      modelName: 'Auto → Basic',
      modelId: 'basic',
      finishReason: 'stop',
    });
    expect(updates.map((u) => u.text)).toEqual(['', 'Hello, ', 'Hello, 世界 🙂', 'Hello, 世界 🙂!', 'Hello, 世界 🙂!']);
    const [seen] = server.requests;
    expect(seen.method).toBe('POST');
    expect(seen.headers['content-type']).toBe('application/json-patch+json');
    expect(seen.headers.reqtarget).toBe('web');
    expect(seen.headers.authorization).toBe('Bearer tok');
    expect(JSON.parse(seen.body)).toEqual({ aiModelId: 'basic', inputMessage: 'hi' });
  });

  it('leaves in the task of its caller when the login and the DriverId were read already (start-up reads them), else after reading them', async () => {
    server.handle((_req, res) => streamPieces(res, [Buffer.from(ok('Hi', { FinishReason: 'stop' }) + 'data: DONE\n\n')]));
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    // Only this stream's requests: a timer another file left in this worker may fetch too.
    const sent = (): number => fetchSpy.mock.calls.filter(([url]) => String(url).endsWith(PATH)).length;
    // A fresh page: nothing read yet.
    const first = streamMessage(PATH, { inputMessage: 'one' });
    expect(sent()).toBe(0);
    await first;
    expect(sent()).toBe(1);

    await writePersisted(tokenPersisted, 'tok');
    await writePersisted(visitorIdPersisted, 'visitor-0123456789');
    const second = streamMessage(PATH, { inputMessage: 'two' });
    expect(sent()).toBe(2);
    await second;
    expect(server.requests[1].headers.authorization).toBe('Bearer tok');
    expect(server.requests[1].headers.driverid).toBe('visitor-0123456789');
    fetchSpy.mockRestore();
  });

  it('replaces the text when ReplaceMessage is set', async () => {
    server.handle((_req, res) =>
      streamPieces(res, [Buffer.from(ok('draft ') + ok('answer') + ok('Final answer', { ReplaceMessage: true }) + ok(' more') + 'data: DONE\n\n')]),
    );
    const result = await streamMessage(PATH, {});
    expect(result.text).toBe('Final answer more');
  });

  it('keeps the latest Citations and ToolCalls, validated, across events that do not carry them', async () => {
    const citations = [{ index: 1, title: 'Rust', url: 'https://rust-lang.org/', extra: 'ignored' }];
    const search = { toolCallId: 't1', toolName: 'web_search', input: '{"query":"rust"}', output: '', images: [] };
    server.handle((_req, res) =>
      streamPieces(res, [
        Buffer.from(
          ok('', { ToolCalls: [{ ...search, status: 'running' }] }) +
            ok('', { ToolCalls: [{ ...search, status: 'completed', output: '3 results' }], Citations: citations }) +
            ok('Rust [1]') +
            // Malformed extras are ignored: the last good values stay and the answer goes on.
            ok('.', { Citations: [{ index: 'one' }], ToolCalls: 'nope', Unknown: { x: 1 } }) +
            ok('', { FinishReason: 'stop' }) +
            'data: DONE\n\n',
        ),
      ]),
    );
    const updates: StreamUpdate[] = [];
    const result = await streamMessage(PATH, {}, { onUpdate: (u) => updates.push(u) });

    expect(updates[0].citations).toBeUndefined();
    expect(updates[0].toolCalls).toEqual([{ ...search, status: 'running' }]);
    expect(updates[1].toolCalls![0]).toMatchObject({ status: 'completed', output: '3 results' });
    expect(result.text).toBe('Rust [1].');
    expect(result.citations).toEqual([{ index: 1, title: 'Rust', url: 'https://rust-lang.org/' }]);
    expect(result.toolCalls).toEqual([{ ...search, status: 'completed', output: '3 results' }]);
    // The same arrays while no event changes them, so memoized views skip them.
    expect(updates[2].citations).toBe(updates[1].citations);
    expect(result.toolCalls).toBe(updates[1].toolCalls);
  });

  it("rejects with the error event's Msg, or the busy message when it has none", async () => {
    server.handle((_req, res) =>
      streamPieces(res, [Buffer.from(ok('partial') + event({ Code: 10470, Msg: 'Not Enough Points', Data: chatData() }) + 'data: DONE\n\n')]),
    );
    const updates: string[] = [];
    const error = await streamMessage(PATH, {}, { onUpdate: (u) => updates.push(u.text) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect([(error as ApiError).code, (error as ApiError).message]).toEqual([10470, 'Not Enough Points']);
    expect(updates).toEqual(['partial']);

    server.handle((_req, res) => streamPieces(res, [Buffer.from(event({ Code: 10503, Msg: '', Data: null }))]));
    const busy = (await streamMessage(PATH, {}).catch((e: unknown) => e)) as ApiError;
    expect([busy.code, busy.message]).toEqual([10503, 'This model is busy now. Please try again later']);
  });

  it('rejects with 10500 when an event is not JSON', async () => {
    server.handle((_req, res) => streamPieces(res, [Buffer.from(ok('a') + 'data: {"Code":10000,\n\n')]));
    const error = (await streamMessage(PATH, {}).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe(10500);
  });

  it('rejects with 10087 when aborted mid-stream, and closes the connection', async () => {
    let closed = false;
    server.handle(async (_req, res) => {
      res.on('close', () => (closed = true));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(ok('first'));
    });
    const controller = new AbortController();
    const error = (await streamMessage(PATH, {}, {
      signal: controller.signal,
      onUpdate: () => controller.abort(),
    }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe(10087);
    await expect.poll(() => closed).toBe(true);
  });

  it('reads a plain envelope answered before the stream: 10402 logs out', async () => {
    await writePersisted(tokenPersisted, 'stale');
    let unauthorized = 0;
    const stop = onUnauthorized(() => unauthorized++);
    server.handle((_req, res) => sendEnvelope(res, { Code: 10402, Msg: 'Please log in again' }));
    const error = (await streamMessage(PATH, {}).catch((e: unknown) => e)) as ApiError;
    stop();
    expect([error.code, error.message]).toEqual([10402, 'Please log in again']);
    expect(unauthorized).toBe(1);
    expect(peekPersisted(tokenPersisted)).toBeNull();
  });

  it('rejects when the connection ends before DONE', async () => {
    server.handle((_req, res) => streamPieces(res, [Buffer.from(ok('cut off'))]));
    const error = (await streamMessage(PATH, {}).catch((e: unknown) => e)) as ApiError;
    expect([error.code, error.message]).toEqual([10500, 'network error']);
  });
});
