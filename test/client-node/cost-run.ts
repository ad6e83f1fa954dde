/**
 * What the drop-in costs over watchmark's own Informer, in client CPU: the
 * initial sync of `COST_PODS` pods (10,000) and a steady stream of updates
 * (`COST_UPDATES`, 20,000), each informer in turn, `COST_ROUNDS` rounds,
 * medians. The server runs in its own process (cost-server.ts). A quick
 * in-process check, not the bench: `npx tsx test/client-node/cost-run.ts`.
 */
import { fork } from 'node:child_process';
import * as k8s from '@kubernetes/client-node';
import { loadConnection } from '../../src/client/config/index.js';
import { makeInformer } from '../../src/client-node/index.js';
import { KubeClient } from '../../src/index.js';

const PODS = Number(process.env.COST_PODS ?? 10_000);
const UPDATES = Number(process.env.COST_UPDATES ?? 20_000);
const ROUNDS = Number(process.env.COST_ROUNDS ?? 3);

const child = fork(new URL('./cost-server.ts', import.meta.url).pathname, [], {
  execArgv: ['--import', 'tsx'],
  env: { ...process.env, COST_PODS: String(PODS) },
});
const messages: Array<(m: any) => void> = [];
child.on('message', (m) => messages.shift()?.(m));
const next = () => new Promise<any>((r) => messages.push(r));
const { url } = await next();

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

interface Side {
  name: string;
  run(): Promise<{ syncMs: number; steadyMs: number }>;
}

/** Starts an informer, syncs, then has the server churn and waits for every update. */
async function measure(
  start: (onUpdate: () => void) => Promise<() => Promise<void>>,
): Promise<{ syncMs: number; steadyMs: number }> {
  let updates = 0;
  let done: () => void = () => {};
  const all = new Promise<void>((r) => {
    done = r;
  });
  const onUpdate = () => {
    if (++updates === UPDATES) done();
  };
  const c0 = cpuMs();
  const stop = await start(onUpdate);
  const c1 = cpuMs();
  const churned = next();
  child.send({ churn: UPDATES });
  await all;
  const c2 = cpuMs();
  await churned;
  await stop();
  return { syncMs: c1 - c0, steadyMs: c2 - c1 };
}

const kc = new k8s.KubeConfig();
kc.loadFromOptions({
  clusters: [{ name: 'c', server: url, skipTLSVerify: true }],
  users: [{ name: 'u' }],
  contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
  currentContext: 'x',
});
// No kubeconfig: the server URL alone (plain HTTP, no credentials).
const connection = await loadConnection({ server: url, env: {} });

const sides: Side[] = [
  {
    name: 'watchmark Informer (list)',
    run: () =>
      measure(async (onUpdate) => {
        const kube = new KubeClient(connection, { qps: 0 });
        const informer = kube.informer('pods', { namespace: 'demo' });
        informer.on({ update: onUpdate });
        await informer.synced();
        return async () => {
          await informer.stop();
          await kube.close();
        };
      }),
  },
  {
    name: 'drop-in (list)',
    run: () =>
      measure(async (onUpdate) => {
        const informer = makeInformer(kc, '/api/v1/namespaces/demo/pods', undefined, undefined, undefined, {
          initial: 'list',
        });
        informer.on('update', onUpdate);
        await informer.start();
        return () => informer.stop();
      }),
  },
  {
    name: 'drop-in (streaming list, its default)',
    run: () =>
      measure(async (onUpdate) => {
        const informer = makeInformer(kc, '/api/v1/namespaces/demo/pods');
        informer.on('update', onUpdate);
        await informer.start();
        return () => informer.stop();
      }),
  },
];

const results = new Map<string, Array<{ syncMs: number; steadyMs: number }>>();
for (let round = 0; round < ROUNDS; round++) {
  for (const side of sides) {
    const r = await side.run();
    results.set(side.name, [...(results.get(side.name) ?? []), r]);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = results.get(sides[0].name) ?? [];
const baseSync = median(base.map((r) => r.syncMs));
const baseSteady = median(base.map((r) => r.steadyMs));
console.log(`${PODS} pods, ${UPDATES} updates, ${ROUNDS} rounds, client CPU medians`);
console.log('| informer | sync CPU ms | vs Informer | steady CPU µs/update | vs Informer |');
console.log('|---|---:|---:|---:|---:|');
for (const side of sides) {
  const rs = results.get(side.name) ?? [];
  const sync = median(rs.map((r) => r.syncMs));
  const steady = median(rs.map((r) => r.steadyMs));
  console.log(
    `| ${side.name} | ${sync.toFixed(0)} | ${(sync / baseSync).toFixed(2)}x | ${((steady * 1000) / UPDATES).toFixed(1)} | ${(steady / baseSteady).toFixed(2)}x |`,
  );
}
child.send({ close: true });
