/**
 * The clients under test, each behind the same small interface: start one
 * run (a fresh cache), learn when it is done and how long it took, stop it.
 *
 * - sync: list the namespace's pods once (resourceVersion=0, served from the
 *   watch cache, one request for every client) into a cache; done when the
 *   cache holds them all (for the informers: once their add handlers ran).
 * - steady: list the churn namespace at `baseRevision` (Exact), then watch
 *   from it: the server replays its history of `events` updates as fast as
 *   the client reads. Timed from the first update applied to the last.
 *
 * Every client's handlers do the same small work: count, and (steady) put
 * the object's key on a work queue, as a controller would.
 */
import { Agent, type IncomingMessage, request } from 'node:http';
import type { KubeObject } from '../../src/index.js';
import type { ClientJob } from './plan.js';
import { CHECKPOINT_EVERY, type Runner, stopwatch, type Timing, UpdateClock } from './timing.js';

const podsPath = (namespace: string) => `/api/v1/namespaces/${namespace}/pods`;
const listQuery = (job: ClientJob) =>
  job.phase === 'sync'
    ? 'resourceVersion=0'
    : `resourceVersion=${job.baseRevision}&resourceVersionMatch=Exact`;
const watchQuery = (job: ClientJob) =>
  `watch=true&allowWatchBookmarks=true&resourceVersion=${job.baseRevision}&timeoutSeconds=600`;

/** A GET that resolves with the (200) response; anything else rejects. */
function get(agent: Agent, url: string, path: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, url), { agent, headers: { accept: 'application/json' } }, (res) => {
      if (res.statusCode === 200) return resolve(res);
      res.resume();
      reject(new Error(`GET ${path}: HTTP ${res.statusCode}`));
    });
    req.on('error', reject);
    req.end();
  });
}

function readText(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
}

const keyOf = (o: KubeObject) => `${o.metadata?.namespace}/${o.metadata?.name}`;

/** node:http, one list request, newline split, JSON.parse, a Map: nothing else. */
function floorRunner(job: ClientJob, drainOnly: boolean): Runner {
  return {
    start(checkpoint) {
      const agent = new Agent({ keepAlive: true });
      const cache = new Map<string, KubeObject>();
      const queue = new Set<string>();
      let watch: IncomingMessage | undefined;
      const elapsed = stopwatch();
      const done = (async (): Promise<Timing> => {
        if (!drainOnly || job.phase === 'sync') {
          const list = JSON.parse(
            await readText(await get(agent, job.url, `${podsPath(job.namespace)}?${listQuery(job)}`)),
          ) as { items: KubeObject[] };
          for (const item of list.items) cache.set(keyOf(item), item);
          checkpoint?.();
        }
        if (job.phase === 'sync') return elapsed();
        const clock = new UpdateClock(job.events, checkpoint, job.warmupEvents);
        watch = await get(agent, job.url, `${podsPath(job.namespace)}?${watchQuery(job)}`);
        const stream = watch;
        stream.on('error', () => {});
        if (drainOnly) {
          stream.on('data', (chunk: Buffer) => {
            for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, nl + 1)) clock.tick();
          });
        } else {
          stream.setEncoding('utf8');
          let rest = '';
          stream.on('data', (text: string) => {
            const buf = rest + text;
            let start = 0;
            for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n', start)) {
              const line = buf.slice(start, nl);
              start = nl + 1;
              if (line.length === 0) continue;
              const event = JSON.parse(line) as { type: string; object: KubeObject };
              if (event.type === 'MODIFIED') {
                const key = keyOf(event.object);
                cache.set(key, event.object);
                // The same handler work as the other clients': the key onto a work queue.
                queue.add(key);
                clock.tick();
              }
            }
            rest = buf.slice(start);
          });
        }
        return clock.done;
      })();
      return {
        done,
        size: () => cache.size,
        async stop() {
          watch?.destroy();
          agent.destroy();
        },
      };
    },
  };
}

type ListWatchSource = import('../../src/index.js').ListWatchSource;

/** Lists at one exact resourceVersion (where the churn history starts) and watches as asked. */
class ExactListSource implements ListWatchSource {
  constructor(
    private readonly http: ListWatchSource,
    private readonly resourceVersion: string,
  ) {}

  get bytesRead(): number {
    return this.http.bytesRead;
  }

  list(params: Parameters<ListWatchSource['list']>[0]) {
    return this.http.list({
      ...params,
      resourceVersion: this.resourceVersion,
      resourceVersionMatch: 'Exact',
    });
  }

  watch(params: Parameters<ListWatchSource['watch']>[0]) {
    return this.http.watch(params);
  }
}

/** The compiled library, as users run it (and as client-node runs): under tsx, `keepNames` wrappers would bill it. */
const WATCHMARK_DIST = new URL('../../dist/index.js', import.meta.url).href;

/** watchmark's Informer, through the public API (`KubeClient`, `Informer`, `objectKey`), from dist/. */
async function watchmarkRunner(job: ClientJob, lazy: boolean, readObjects: boolean): Promise<Runner> {
  const wm = (await import(WATCHMARK_DIST)) as typeof import('../../src/index.js');
  const connection = {
    server: job.url,
    insecureSkipTlsVerify: false,
    namespace: job.namespace,
    credentials: {
      authorization: async () => undefined,
      clientCertificate: async () => undefined,
      invalidate() {},
    },
  };
  return {
    start(checkpoint) {
      const kube = new wm.KubeClient(connection);
      // One list request, as the other clients (the default is pages of 500).
      const opts = { pageSize: 0, lazyDecode: lazy };
      let informer: InstanceType<typeof wm.Informer>;
      if (job.phase === 'sync') {
        informer = kube.informer('pods', { namespace: job.namespace }, opts);
      } else {
        // The churn history starts at baseRevision: list exactly there, and the watch resumes from it.
        const http = kube.resource('pods', job.namespace).listWatch();
        informer = new wm.Informer(new ExactListSource(http, String(job.baseRevision)), opts);
      }
      let adds = 0;
      // What a controller's handler does: put the key on its work queue (a set: keys dedupe).
      const queue = new Set<string>();
      const phases = new Set<string | undefined>();
      const clock = new UpdateClock(job.events, checkpoint, job.warmupEvents);
      informer.on({
        add: () => {
          if (++adds % CHECKPOINT_EVERY === 0) checkpoint?.();
        },
        update: (_old, object) => {
          queue.add(wm.objectKey(object));
          if (readObjects) phases.add((object as { status?: { phase?: string } }).status?.phase);
          clock.tick();
        },
      });
      const elapsed = stopwatch();
      let done: Promise<Timing>;
      if (job.phase === 'sync') done = informer.synced().then(elapsed);
      else {
        informer.start();
        done = clock.done;
      }
      return {
        done,
        size: () => informer.size,
        async stop() {
          await informer.stop();
          await kube.close();
        },
      };
    },
  };
}

/** @kubernetes/client-node 1.x: `makeInformer` (a ListWatch) over `CoreV1Api.listNamespacedPod`. */
async function clientNodeRunner(job: ClientJob): Promise<Runner> {
  const k8s = await import('@kubernetes/client-node');
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'bench', server: job.url, skipTLSVerify: true }],
    users: [{ name: 'bench' }],
    contexts: [{ name: 'bench', cluster: 'bench', user: 'bench', namespace: job.namespace }],
    currentContext: 'bench',
  });
  const api = kc.makeApiClient(k8s.CoreV1Api);
  return {
    start(checkpoint) {
      const listFn = () =>
        job.phase === 'sync'
          ? api.listNamespacedPod({ namespace: job.namespace, resourceVersion: '0' })
          : api.listNamespacedPod({
              namespace: job.namespace,
              resourceVersion: String(job.baseRevision),
              resourceVersionMatch: 'Exact',
            });
      const informer = k8s.makeInformer(kc, podsPath(job.namespace), listFn);
      let adds = 0;
      const queue = new Set<string>();
      let synced!: () => void;
      const listed = new Promise<void>((r) => {
        synced = r;
      });
      const clock = new UpdateClock(job.events, checkpoint, job.warmupEvents);
      informer.on('add', () => {
        if (++adds % CHECKPOINT_EVERY === 0) checkpoint?.();
        if (adds === job.objects) synced();
      });
      informer.on('update', (object) => {
        queue.add(`${object.metadata?.namespace}/${object.metadata?.name}`);
        clock.tick();
      });
      let stopped = false;
      let failed!: (err: unknown) => void;
      const failure = new Promise<never>((_, reject) => {
        failed = reject;
      });
      // ListWatch does not retry a failed list: fail the run rather than wait for the timeout.
      informer.on('error', (err) => {
        if (!stopped) failed(err);
      });
      const elapsed = stopwatch();
      void informer.start();
      const done = Promise.race([job.phase === 'sync' ? listed.then(elapsed) : clock.done, failure]);
      return {
        done,
        size: () => informer.list().length,
        async stop() {
          stopped = true;
          await informer.stop();
        },
      };
    },
  };
}

/** The runner for a job's client (its library imported now, before any baseline). */
export async function clientRunner(job: ClientJob): Promise<Runner> {
  switch (job.client) {
    case 'floor':
      return floorRunner(job, false);
    case 'drain':
      return floorRunner(job, true);
    case 'watchmark':
      return watchmarkRunner(job, false, false);
    case 'watchmark-lazy':
      return watchmarkRunner(job, true, false);
    case 'watchmark-lazy-read':
      return watchmarkRunner(job, true, true);
    case 'client-node':
      return clientNodeRunner(job);
  }
}
