/**
 * The side-by-side run of issue 25: a quiet `spec.nodeName` informer,
 * client-node's and the drop-in's, each with the restart-on-error handler
 * client-node users write, through a counting TCP proxy, while the server's
 * history window is shorter than any watch's timeout, watches are cut and
 * the history compacted again and again, and other nodes' pods churn.
 *
 * Time is compressed (kube-apiserver's figures / `scale`): the history
 * window (75 s), the bookmark interval (60 s), the restart delay of the
 * handler (5 s). Each informer runs against its own server, the same
 * script of writes and faults, so every count is its own.
 *
 * `npx tsx test/client-node/compat-run.ts [seconds]` prints the table
 * docs/from-client-node.md shows; compat.test.ts runs a short one.
 */
import * as k8s from '@kubernetes/client-node';
import * as dropIn from '../../src/client-node/index.js';
import type { RunningServer } from '../../src/server/index.js';
import { call, ensureNamespace, pod, startTestServer } from '../helpers/server.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';

/** Settings of one run. */
export interface CompatOptions {
  /** Real seconds the faults and writes go on. */
  seconds: number;
  /** How much faster than a real cluster's clock the run goes (kube's durations are divided by it). */
  scale: number;
}

/** What one informer did in the run. */
export interface CompatResult {
  informer: 'client-node' | 'drop-in';
  lists: number;
  expired: number;
  watchRequests: number;
  errors: number;
  /** Changes to the informer's pods whose new state never reached a handler. */
  missed: number;
  changes: number;
  /** At the end: a watch open and a cache equal to the server's objects. */
  running: boolean;
}

const NODE = 'spec.nodeName=n1';
const PATH = '/api/v1/namespaces/demo/pods';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ok(p: Promise<{ status: number; text: string; body: any }>): Promise<any> {
  const r = await p;
  if (r.status >= 300) throw new Error(`${r.status} ${r.text}`);
  return r.body;
}

/** Cluster-time periods (ms) of the script, divided by `scale` in a run (compaction: kube-apiserver's default 5 min). */
const PERIODS = { otherWrite: 500, n1Change: 150_000, cut: 90_000, compaction: 300_000 };

/**
 * The writes and faults, the same for each informer, on a timetable:
 * other nodes' pods churn all the time (the resourceVersion moves past a
 * quiet informer's), the n1 pods change rarely, watches are cut and the
 * history compacted on their own periods. Returns the states the n1 pods
 * went through (`name vN`, `name deleted`).
 */
async function script(server: RunningServer, opts: CompatOptions, until: number): Promise<Set<string>> {
  const states = new Set<string>();
  const t0 = Date.now();
  const due = (period: number, n: number, offset = 0) =>
    Date.now() - t0 >= (n * period + offset) / opts.scale;
  const count = { other: 0, n1: 0, cut: 0, compaction: 0 };
  let live: string[] = [];
  while (Date.now() < until) {
    if (due(PERIODS.otherWrite, count.other + 1)) {
      count.other++;
      const other = `other-${count.other % 40}`;
      await call(server, 'DELETE', `/api/v1/namespaces/demo/pods/${other}?gracePeriodSeconds=0`);
      await ok(
        call(server, 'POST', '/api/v1/namespaces/demo/pods', { body: pod(other, { nodeName: 'n2' }) }),
      );
    }
    if (due(PERIODS.n1Change, count.n1 + 1)) {
      const step = ++count.n1;
      if (step % 3 === 1 || live.length === 0) {
        const name = `n1-${step}`;
        await ok(
          call(server, 'POST', '/api/v1/namespaces/demo/pods', { body: pod(name, { nodeName: 'n1' }) }),
        );
        live.push(name);
        states.add(`${name} v0`);
      } else if (step % 5 === 0 && live.length > 1) {
        const [gone, ...rest] = live;
        live = rest;
        await ok(call(server, 'DELETE', `/api/v1/namespaces/demo/pods/${gone}?gracePeriodSeconds=0`));
        states.add(`${gone} deleted`);
      } else {
        const name = live[live.length - 1];
        await ok(
          call(server, 'PATCH', `/api/v1/namespaces/demo/pods/${name}`, {
            body: { metadata: { labels: { v: String(step) } } },
            headers: { 'content-type': 'application/merge-patch+json' },
          }),
        );
        states.add(`${name} v${step}`);
      }
    }
    // Offsets keep the faults off the n1 changes' instants.
    if (due(PERIODS.cut, count.cut + 1, 3_000)) {
      count.cut++;
      server.dropWatches();
    }
    if (due(PERIODS.compaction, count.compaction + 1, 7_000)) {
      count.compaction++;
      await server.compact();
    }
    await sleep(10);
  }
  return states;
}

/** Runs one informer through the script; see the file comment. */
export async function runCompat(
  which: 'client-node' | 'drop-in',
  opts: CompatOptions,
): Promise<CompatResult> {
  const server = await startTestServer({
    historyWindow: 75_000 / opts.scale,
    bookmarkInterval: 60_000 / opts.scale,
    bookmarkLead: 2_000 / opts.scale,
  });
  const proxy = await TcpProxy.start(server.url);
  try {
    await ensureNamespace(server, 'demo');
    const kc = new k8s.KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: proxy.url, skipTLSVerify: true }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const listFn = () => core.listNamespacedPod({ namespace: 'demo', fieldSelector: NODE });
    // client-node's makeInformer drops a field selector: its ListWatch takes one, so both follow only n1.
    const informer =
      which === 'client-node'
        ? new k8s.ListWatch<k8s.V1Pod>(PATH, new k8s.Watch(kc), listFn, false, undefined, NODE)
        : new dropIn.ListWatch<k8s.V1Pod>(PATH, new dropIn.Watch(kc), listFn, false, undefined, NODE);
    const seen = new Set<string>();
    const state = (p: k8s.V1Pod) => `${p.metadata?.name} v${p.metadata?.labels?.v ?? 0}`;
    informer.on('add', (p) => seen.add(state(p)));
    informer.on('update', (p) => seen.add(state(p)));
    informer.on('delete', (p) => seen.add(`${p.metadata?.name} deleted`));
    let errors = 0;
    let ending = false;
    informer.on('error', () => {
      errors++;
      // The restart every client-node informer needs (its docs: 5 s), compressed like the rest.
      setTimeout(() => {
        if (!ending) void informer.start();
      }, 5_000 / opts.scale);
    });
    await informer.start();
    const states = await script(server, opts, Date.now() + opts.seconds * 1000);
    // Settle: a restart pending, a bookmark or two.
    await sleep(Math.max(500, (3 * 60_000) / opts.scale));
    const truth = await ok(call(server, 'GET', `${PATH}?fieldSelector=${encodeURIComponent(NODE)}`));
    const cached = new Map(informer.list().map((p) => [p.metadata?.name, p.metadata?.resourceVersion]));
    const same =
      cached.size === truth.items.length &&
      truth.items.every((p: any) => cached.get(p.metadata.name) === p.metadata.resourceVersion);
    const running = same && server.stats.openWatchers > 0;
    ending = true;
    await informer.stop();
    const requests = proxy.requests.filter((r) => r.path.startsWith(PATH));
    const streaming = requests.filter((r) => r.watch && /[?&]sendInitialEvents=true/.test(r.path));
    return {
      informer: which,
      lists: requests.filter((r) => !r.watch).length + streaming.length,
      expired: server.stats.expiredSent,
      watchRequests: requests.filter((r) => r.watch).length - streaming.length,
      errors,
      missed: [...states].filter((s) => !seen.has(s)).length,
      changes: states.size,
      running,
    };
  } finally {
    await proxy.close();
    await server.close();
  }
}

/** The results as the table the docs show. */
export function table(results: CompatResult[], opts: CompatOptions): string {
  const cluster = Math.round(opts.seconds * opts.scale);
  const every = (ms: number) => `${ms / 1000 / opts.scale} s`;
  const head = [
    `${opts.seconds} s at ${opts.scale}x (${cluster} s of cluster time): history window ${every(75_000)}, ` +
      `bookmarks every ${every(60_000)}, the informer's pods changed every ${every(PERIODS.n1Change)}, ` +
      `other pods written every ${every(PERIODS.otherWrite)}, watches cut every ${every(PERIODS.cut)}, ` +
      `history compacted every ${every(PERIODS.compaction)}`,
    '',
    '| informer | lists | 410s | watch requests | errors | events missed | still running |',
    '|---|---:|---:|---:|---:|---:|---|',
  ];
  const rows = results.map(
    (r) =>
      `| ${r.informer} | ${r.lists} | ${r.expired} | ${r.watchRequests} | ${r.errors} | ` +
      `${r.missed} of ${r.changes} | ${r.running ? 'yes' : 'no'} |`,
  );
  return [...head, ...rows].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const opts = { seconds: Number(process.argv[2] ?? 30), scale: Number(process.argv[3] ?? 10) };
  const results = [await runCompat('client-node', opts), await runCompat('drop-in', opts)];
  console.log(table(results, opts));
}
