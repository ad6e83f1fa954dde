/**
 * Issue 26, item 1: the floor's steady work (bench/client/runners.ts
 * `floorRunner`, steady phase) with its one hot closure cut in three small
 * functions (split, parse, cache), to test whether the floor's speed varying
 * from process to process comes from how V8 compiles that one closure. Same
 * requests, same operations per event. Used by steady-profile-child.ts when
 * VARIANT=floor-split.
 */
import { Agent, type IncomingMessage, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { KubeObject } from '../../src/index.js';
import type { ClientJob } from '../client/plan.js';
import type { Runner, Timing } from '../client/timing.js';

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
const cpuMsNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** The cache half: one decoded event into the Map and its key onto the queue. */
class Cache {
  readonly map = new Map<string, KubeObject>();
  readonly queue = new Set<string>();
  count = 0;
  apply(event: { type: string; object: KubeObject }): void {
    if (event.type !== 'MODIFIED') return;
    const key = keyOf(event.object);
    this.map.set(key, event.object);
    this.queue.add(key);
    this.count++;
  }
}

/** The split half: whole lines out of decoded chunks. */
class Lines {
  private rest = '';
  constructor(private readonly line: (text: string) => void) {}
  push(text: string): void {
    const buf = this.rest + text;
    let start = 0;
    for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n', start)) {
      if (nl > start) this.line(buf.slice(start, nl));
      start = nl + 1;
    }
    this.rest = buf.slice(start);
  }
}

export function floorSplitRunner(job: ClientJob): Runner {
  const paths = `/api/v1/namespaces/${job.namespace}/pods`;
  return {
    start(checkpoint) {
      const agent = new Agent({ keepAlive: true });
      const cache = new Cache();
      let watch: IncomingMessage | undefined;
      const done = (async (): Promise<Timing> => {
        const list = JSON.parse(
          await readText(
            await get(
              agent,
              job.url,
              `${paths}?resourceVersion=${job.baseRevision}&resourceVersionMatch=Exact`,
            ),
          ),
        ) as { items: KubeObject[] };
        for (const item of list.items) cache.map.set(keyOf(item), item);
        checkpoint?.();
        watch = await get(
          agent,
          job.url,
          `${paths}?watch=true&allowWatchBookmarks=true&resourceVersion=${job.baseRevision}&timeoutSeconds=600`,
        );
        const stream = watch;
        stream.on('error', () => {});
        stream.setEncoding('utf8');
        return new Promise<Timing>((resolve) => {
          let t0 = 0;
          let c0 = 0;
          const lines = new Lines((text) => {
            cache.apply(JSON.parse(text));
            if (cache.count === 1) {
              t0 = performance.now();
              c0 = cpuMsNow();
            }
            if (cache.count % 2000 === 0) checkpoint?.();
            if (cache.count === job.events) {
              const ms = performance.now() - t0;
              resolve({ ms, cpuMs: cpuMsNow() - c0, eventsPerSec: ((job.events - 1) * 1000) / ms });
            }
          });
          stream.on('data', (text: string) => lines.push(text));
        });
      })();
      return {
        done,
        size: () => cache.map.size,
        async stop() {
          watch?.destroy();
          agent.destroy();
        },
      };
    },
  };
}
