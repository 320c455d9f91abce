// The floor of any proxy on this machine: a bare Node HTTP server that forwards the request to the
// upstream and pipes the stream back, with no auth, no database and no parsing. The proxy-overhead
// benchmark runs it beside Tandem, so Tandem's cost can be read against what one more hop costs.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

const upstream = process.env.UPSTREAM_URL!;
const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const up = await fetch(upstream + req.url, { method: req.method, headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
  res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/octet-stream' });
  Readable.fromWeb(up.body as never).pipe(res);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }) + '\n');
});
process.on('SIGTERM', () => process.exit(0));
