/**
 * High availability, end to end: 3 etcd members, API servers over them, and
 * informers of watchmark's client, under write load.
 *  1. The server the informers watch through is SIGKILLed mid-stream: each
 *     resumes on another server from its last resourceVersion, no relist,
 *     and receives every event exactly once.
 *  2. An etcd member is SIGKILLed: writes and watches go on.
 *  3. A server restarts (a new, empty watch cache): a client whose
 *     resourceVersion predates it gets 410 and relists exactly once.
 * The figures (events written, received, relists) are printed for the report.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../../src/client/client.js';
import type { ClusterConnection } from '../../../src/client/config/index.js';
import type { Informer } from '../../../src/client/informer/informer.js';
import { freePort } from '../../../src/process/spawn/free-port.js';
import { TetheredProcess } from '../../../src/process/spawn/tethered-process.js';
import type { KubeObject } from '../../../src/protocol/events.js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { etcdAvailable, uniquePrefix, useEtcd } from '../../helpers/etcd.js';
import { call, ensureNamespace, pod } from '../../helpers/server.js';
import { waitUntil } from '../../helpers/wait.js';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.ts', import.meta.url));
const NS = 'ha';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function connection(server: string, servers: string[] = []): ClusterConnection {
  return {
    server,
    servers,
    insecureSkipTlsVerify: false,
    namespace: NS,
    credentials: {
      authorization: async () => undefined,
      clientCertificate: async () => undefined,
      invalidate() {},
    },
  };
}

/** `watchmark serve` as a child process over etcd, so that it can really be killed. */
async function serveProcess(
  endpoints: string[],
  prefix: string,
): Promise<{ url: string; process: TetheredProcess }> {
  const child = new TetheredProcess(process.execPath, [
    '--import',
    'tsx',
    MAIN,
    'serve',
    '--insecure-http',
    '--insecure-no-auth',
    `--etcd-servers=${endpoints.join(',')}`,
    `--etcd-prefix=${prefix}`,
  ]);
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve not ready: ${out}`)), 20_000);
    child.wrapper.stdout?.on('data', (text: string) => {
      out += text;
      const m = /ready at (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  child.wrapper.stdout?.resume();
  return { url, process: child };
}

/**
 * Writes pods through `server` at about `perSecond` until `stop` says so: creates, updates, deletes.
 * `progress.written` counts the writes done so far, for the phases to wait on;
 * `progress.deleted` the deletes among them.
 */
async function writeLoad(
  server: RunningServer,
  perSecond: number,
  stop: () => boolean,
  progress: { written: number; deleted: number } = { written: 0, deleted: 0 },
): Promise<number> {
  let n = 0;
  const live: string[] = [];
  while (!stop()) {
    const started = Date.now();
    const op = n % 3;
    let r: Awaited<ReturnType<typeof call>>;
    if (op === 0 || live.length < 3) {
      const name = `p${n}`;
      r = await call(server, 'POST', PODS, { body: pod(name, { labels: { n: String(n) } }) });
      if (r.status === 201) live.push(name);
    } else if (op === 1) {
      const name = live[n % live.length];
      r = await call(server, 'PATCH', `${PODS}/${name}`, {
        body: { metadata: { labels: { n: String(n) } } },
        headers: { 'content-type': 'application/merge-patch+json' },
      });
    } else {
      const name = live.shift()!;
      r = await call(server, 'DELETE', `${PODS}/${name}`);
      progress.deleted++;
    }
    n++;
    // Every write must go through, etcd member down or not (the store retries while etcd elects).
    expect(r.status, r.text).toBeLessThan(300);
    progress.written++;
    // Pacing of the load, not a wait for a condition.
    await sleep(Math.max(0, 1000 / perSecond - (Date.now() - started)));
  }
  return progress.written;
}

/** Waits until `informer` holds exactly the objects (and resourceVersions) `server` lists. */
async function converged(informer: Informer, server: RunningServer, timeoutMs = 10_000): Promise<void> {
  let want = '';
  let have = '';
  await waitUntil(
    async () => {
      const list = await call(server, 'GET', PODS);
      want = list.body.items
        .map((p: KubeObject) => `${p.metadata?.name}@${p.metadata?.resourceVersion}`)
        .join(',');
      have = informer
        .list()
        .map((p) => `${p.metadata?.name}@${p.metadata?.resourceVersion}`)
        .sort((x, y) => x.localeCompare(y, 'en', { numeric: true }))
        .join(',');
      const sorted = want
        .split(',')
        .sort((x, y) => x.localeCompare(y, 'en', { numeric: true }))
        .join(',');
      return have === sorted;
    },
    () => `the informer to converge:\n want ${want}\n have ${have}`,
    timeoutMs,
    50,
  );
}

describe.skipIf(!etcdAvailable)('HA: 3 etcd members, several API servers, informers under write load', () => {
  const etcd = useEtcd({ members: 3 });
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('survives a killed API server, a killed etcd member and a restarted server without losing an event', async () => {
    const prefix = uniquePrefix();
    const endpoints = etcd.cluster.endpoints;
    const a = await serveProcess(endpoints, prefix);
    cleanups.push(() => a.process.kill());
    const serverOpts = {
      disableAdmissionPlugins: ['ServiceAccount'] as string[],
      insecureHttp: true,
      insecureNoAuth: true,
      etcd: { endpoints, prefix },
    } as const;
    const b = await startServer(serverOpts);
    cleanups.push(() => b.close());
    await ensureNamespace(b, NS);

    // Phase 1: informers through A (B listed as the fallback), writes through B; A dies mid-stream.
    const kube = new KubeClient(connection(a.url, [b.url]), { qps: 0 });
    cleanups.push(() => kube.close());
    const backoff = { initialMs: 100, maxMs: 1_000 };
    const informers = Array.from({ length: 4 }, () =>
      kube.informer('pods', { namespace: NS }, { backoff, serverBookmarkIntervalMs: 60_000 }),
    );
    const received = informers.map(() => 0);
    informers.forEach((inf, i) => {
      inf.on({
        add: () => void received[i]++,
        update: () => void received[i]++,
        delete: () => void received[i]++,
      });
      inf.start();
    });
    await Promise.all(informers.map((inf) => inf.synced()));
    let stopWrites = false;
    const loadStarted = Date.now();
    const progress = { written: 0, deleted: 0 };
    const load = writeLoad(b, 150, () => stopWrites, progress);
    // Mid-stream: every informer has received events through A.
    await waitUntil(() => received.every((r) => r >= 40), 'events through server A', 20_000);
    const aKilledAt = Date.now() - loadStarted;
    await a.process.kill();
    expect(a.process.running).toBe(false);
    // Every informer resumed on B and goes on receiving there.
    const atKill = progress.written;
    await waitUntil(
      () =>
        informers.every((inf) => inf.watcher.metrics.resumes >= 1) && received.every((r) => r >= atKill + 40),
      'the informers resuming on server B',
      20_000,
    );

    // Phase 2: one etcd member dies (SIGKILL); writes through B and watches through B go on.
    const victim = etcd.cluster.members[0];
    const victimKilledAt = Date.now() - loadStarted;
    await victim.kill();
    const atVictim = progress.written;
    await waitUntil(
      () => progress.written >= atVictim + 120 && received.every((r) => r >= atVictim + 120),
      'writes and events going on without the etcd member',
      30_000,
    );
    stopWrites = true;
    const written = await load;
    const rate = Math.round((written * 1000) / (Date.now() - loadStarted));
    for (const inf of informers) await converged(inf, b);
    const relists = informers.map((inf) => inf.watcher.metrics.lists);
    const resumes = informers.map((inf) => inf.watcher.metrics.resumes);
    console.log(
      `failover: ${written} writes (${rate}/s, one writer); A killed after ${(aKilledAt / 1000).toFixed(1)} s, ` +
        `etcd ${victim.name} after ${(victimKilledAt / 1000).toFixed(1)} s; ` +
        `events received per informer ${received.join('/')}; relists ${JSON.stringify(relists[0])}; resumes ${resumes.join('/')}; ` +
        `now on ${kube.transport.server} (B is ${b.url})`,
    );
    expect(kube.transport.server).toBe(b.url);
    for (let i = 0; i < informers.length; i++) {
      // One list (the first), never another: every restart resumed from the last resourceVersion.
      expect(relists[i]).toEqual({ initial: 1, expired: 0, tooLarge: 0, error: 0 });
      expect(resumes[i]).toBeGreaterThanOrEqual(1);
      // Every write is one notification, a pod's delete two (kube-apiserver writes its deletionTimestamp
      // mark, then removes it): none lost, none twice (the namespace existed before).
      expect(received[i]).toBe(written + progress.deleted);
    }

    // Phase 3: a server restarts with a fresh cache; its client, pinned to it, is behind that cache.
    const port = await freePort();
    let c = await startServer({ ...serverOpts, port });
    const pinned = new KubeClient(connection(c.url), { qps: 0 });
    cleanups.push(() => pinned.close());
    const follower = pinned.informer('pods', { namespace: NS }, { backoff });
    follower.start();
    await follower.synced();
    await c.close();
    for (let i = 0; i < 20; i++) {
      expect((await call(b, 'POST', PODS, { body: pod(`late${i}`) })).status).toBe(201);
    }
    c = await startServer({ ...serverOpts, port });
    cleanups.push(() => c.close());
    await converged(follower, c);
    for (const inf of informers) await converged(inf, b);
    const lists = follower.watcher.metrics.lists;
    console.log(
      `restart: the pinned client relisted ${lists.expired} time(s) after 410 (lists ${JSON.stringify(lists)})`,
    );
    expect(lists).toEqual({ initial: 1, expired: 1, tooLarge: 0, error: 0 });
    await follower.stop();
    await Promise.all(informers.map((inf) => inf.stop()));
    await victim.start();
  }, 60_000);
});
