// The floor of any proxy on this machine: a bare Node HTTP server that forwards the request to the
// upstream on a kept-alive connection and pipes the stream back, with no auth, no database and no
// parsing. The proxy-overhead benchmark runs it beside Tandem, so Tandem's cost can be read against
// what one more hop costs.
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

const upstream = new URL(process.env.UPSTREAM_URL!);
const agent = new Agent({ keepAlive: true });
const server = createServer((req, res) => {
  const up = request(
    {
      host: upstream.hostname,
      port: upstream.port,
      path: req.url,
      method: req.method,
      agent,
      headers: { 'content-type': 'application/json', 'content-length': req.headers['content-length'] ?? '0' },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, { 'content-type': answer.headers['content-type'] ?? 'application/octet-stream' });
      answer.pipe(res);
    },
  );
  up.on('error', () => res.destroy());
  req.pipe(up);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }) + '\n');
});
process.on('SIGTERM', () => process.exit(0));
