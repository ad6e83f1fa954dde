/**
 * The server side of cost-run.ts, in its own process (so its CPU is not the
 * client's): an API server over plain HTTP with `count` pods in `demo`;
 * asked `{ churn: n }`, it relabels pods n times and answers `{ churned }`.
 */
import { startServer } from '../../src/server/index.js';
import { call, ensureNamespace, pod } from '../helpers/server.js';

const count = Number(process.env.COST_PODS ?? 10_000);
const server = await startServer({
  disableAdmissionPlugins: ['ServiceAccount'],
  insecureHttp: true,
  insecureNoAuth: true,
  compactionInterval: 0,
});
await ensureNamespace(server, 'demo');
async function inParallel(n: number, width: number, job: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await job(next++);
    }),
  );
}
await inParallel(count, 32, (i) =>
  call(server, 'POST', '/api/v1/namespaces/demo/pods', { body: pod(`p${i}`, { nodeName: `n${i % 50}` }) }),
);
let round = 0;
process.on('message', async (m: { churn?: number; close?: boolean }) => {
  if (m.close) {
    await server.close();
    process.exit(0);
  }
  if (m.churn) {
    round++;
    await inParallel(m.churn, 16, (i) =>
      call(server, 'PATCH', `/api/v1/namespaces/demo/pods/p${i % count}`, {
        body: { metadata: { labels: { round: `${round}-${i}` } } },
        headers: { 'content-type': 'application/merge-patch+json' },
      }),
    );
    process.send?.({ churned: m.churn });
  }
});
process.send?.({ url: server.url });
