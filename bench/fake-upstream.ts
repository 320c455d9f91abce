// Runs the test suite's fake OpenAI-compatible upstream in its own process for the benchmarks, so
// that it does not share an event loop with the client or the server being measured.
import { startFakeOpenAI } from '../tests/fixtures/fake-openai.ts';

const chunks = Number(process.env.BENCH_CHUNKS ?? 20);
const delayMs = Number(process.env.BENCH_CHUNK_DELAY_MS ?? 2);
const fake = await startFakeOpenAI();
fake.script('bench-model', { chunks: Array.from({ length: chunks }, (_, i) => `tok${i} `), delayMs, stamp: true });
// The recorded requests would grow without bound during a load run.
setInterval(() => (fake.requests.length = 0), 1000).unref();
process.stdout.write(JSON.stringify({ url: fake.url }) + '\n');
process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
