/**
 * What answering in protobuf costs: one list of 500 ConfigMaps read in JSON and in protobuf
 * (Accept: application/vnd.kubernetes.protobuf) from an in-memory server over plain HTTP, each
 * read repeated and timed at the client (first byte sent to last byte read), plus the bytes on
 * the wire and the one-time cost of the first protobuf answer (loading protobufjs and the schema).
 * The protobuf answer is built from the JSON one (src/server/protobuf/answer.ts), so its cost is
 * the JSON answer's plus a parse and an encode.
 *
 * JSON, what every client can ask for instead, is the baseline: the result is the ratio of the
 * medians, rounds interleaved so both forms share the machine's moments alike.
 *
 *   npm run bench:protobuf            # 30 reads per form; writes bench/results/protobuf-answer.json
 *   npm run bench:protobuf -- 100     # more reads
 */
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { startServer } from '../src/server/index.js';

const ITEMS = 500;
const ROUNDS = Number(process.argv[2] ?? 30);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) {
  process.stderr.write(
    `bench:protobuf: rounds must be a positive integer, not ${JSON.stringify(process.argv[2])}\n`,
  );
  process.exit(1);
}
const PATH = '/api/v1/namespaces/default/configmaps';

function get(url: string, accept: string): Promise<{ ms: number; bytes: number; type: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(`${url}${PATH}`, { headers: { accept } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
      });
      res.on('end', () =>
        resolve({ ms: performance.now() - started, bytes, type: String(res.headers['content-type']) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function post(url: string, body: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${PATH}`,
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 201 ? resolve() : reject(new Error(`POST ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const server = await startServer({ insecureHttp: true, insecureNoAuth: true, port: 0 });
  try {
    for (let i = 0; i < ITEMS; i++) {
      await post(server.url, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${i}`, labels: { app: 'bench', index: String(i) } },
        data: { 'config.yaml': `key: value-${i}\nother: ${'x'.repeat(200)}\n`, small: String(i) },
      });
    }
    const first = await get(server.url, 'application/vnd.kubernetes.protobuf');
    const forms = { json: 'application/json', protobuf: 'application/vnd.kubernetes.protobuf' };
    const samples: Record<string, Array<{ ms: number; bytes: number; type: string }>> = {};
    for (const name of Object.keys(forms)) samples[name] = [];
    for (let i = 0; i < 5; i++) for (const accept of Object.values(forms)) await get(server.url, accept);
    for (let i = 0; i < ROUNDS; i++) {
      for (const [name, accept] of Object.entries(forms)) samples[name].push(await get(server.url, accept));
    }
    const results: Record<string, { medianMs: number; bytes: number; type: string }> = {};
    for (const [name, list] of Object.entries(samples)) {
      results[name] = {
        medianMs: Number(median(list.map((s) => s.ms)).toFixed(2)),
        bytes: list[0].bytes,
        type: list[0].type,
      };
    }
    const report = {
      benchmark: 'protobuf-answer',
      items: ITEMS,
      rounds: ROUNDS,
      firstProtobufMs: Number(first.ms.toFixed(1)),
      ...results,
      protobufTimeRatio: Number((results.protobuf.medianMs / results.json.medianMs).toFixed(2)),
      protobufBytesRatio: Number((results.protobuf.bytes / results.json.bytes).toFixed(2)),
    };
    const text = `${JSON.stringify(report, null, 2)}\n`;
    writeFileSync(new URL('./results/protobuf-answer.json', import.meta.url), text);
    process.stdout.write(text);
  } finally {
    await server.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
