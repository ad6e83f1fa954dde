/**
 * The floor under the garbage collector's start in a test cluster: what opening one watch per
 * deletable resource costs on bare node:http, with no API server behind it, over HTTP/1.1 (one
 * connection per watch, as every HTTP/1.1 client must) and over one HTTP/2 session (streams
 * multiplexed, as kube-controller-manager's client-go opens its informers' watches).
 *
 * Each round opens N watches (N = 75, the deletable resources of kube-apiserver 1.37 and
 * watchmark: one metadata watch-list each), waits for each one's first event (a BOOKMARK line, as
 * a watch-list's initial-events-end), and closes them; the figure is the process's CPU (client
 * and server are both here, as in `testCluster()`) per round, median of the rounds after warm-up.
 *
 *     npx tsx bench/experiments/watch-transport-floor.ts          # ~5 s
 *
 * What it showed (2 cores, other processes busy; docs in the closing note): HTTP/1.1
 * 41-52 ms CPU per 75 watches, HTTP/2 11-25 ms. With the server and the namespace controller at
 * about 35 ms, `testCluster()`'s 50 ms target is below what HTTP/1.1 alone costs its collector.
 */
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';

const N = Number(process.env.WATCHES ?? 75);
const ROUNDS = Number(process.env.ROUNDS ?? 30);
const WARMUP = 5;
const LINE = `${JSON.stringify({
  type: 'BOOKMARK',
  object: {
    kind: 'PartialObjectMetadata',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion: '12', annotations: { 'k8s.io/initial-events-end': 'true' } },
  },
})}\n`;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function http1(): Promise<number> {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    res.write(LINE);
    req.on('close', () => res.end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const before = cpuMs();
    const agent = new http.Agent({ keepAlive: true });
    const requests = await Promise.all(
      Array.from(
        { length: N },
        (_, i) =>
          new Promise<http.ClientRequest>((resolve, reject) => {
            const req = http.request(
              { host: '127.0.0.1', port, path: `/apis/g/v1/r${i}?watch=1&sendInitialEvents=true`, agent },
              (res) => res.once('data', () => resolve(req)),
            );
            req.on('error', reject);
            req.end();
          }),
      ),
    );
    const spent = cpuMs() - before;
    for (const req of requests) req.destroy();
    agent.destroy();
    if (r >= WARMUP) rounds.push(spent);
  }
  server.closeAllConnections();
  server.close();
  return median(rounds);
}

async function http2OneSession(): Promise<number> {
  const server = http2.createServer();
  server.on('stream', (stream) => {
    stream.respond({ ':status': 200, 'content-type': 'application/json' });
    stream.write(LINE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const before = cpuMs();
    const session = http2.connect(`http://127.0.0.1:${port}`);
    const streams = await Promise.all(
      Array.from(
        { length: N },
        (_, i) =>
          new Promise<http2.ClientHttp2Stream>((resolve) => {
            const stream = session.request({ ':path': `/apis/g/v1/r${i}?watch=1&sendInitialEvents=true` });
            stream.once('data', () => resolve(stream));
            stream.end();
          }),
      ),
    );
    const spent = cpuMs() - before;
    for (const s of streams) s.close();
    session.close();
    if (r >= WARMUP) rounds.push(spent);
  }
  server.close();
  return median(rounds);
}

const results = { watches: N, rounds: ROUNDS - WARMUP, http1CpuMs: 0, http2CpuMs: 0 };
results.http1CpuMs = Math.round((await http1()) * 10) / 10;
results.http2CpuMs = Math.round((await http2OneSession()) * 10) / 10;
console.log(JSON.stringify(results));
process.exit(0);
