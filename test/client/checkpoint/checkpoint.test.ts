import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readCheckpointFile } from '../../../src/client/checkpoint/checkpoint-file.js';
import { KubeClient } from '../../../src/client/client.js';
import type { Informer, InformerOptions } from '../../../src/client/informer/informer.js';
import { isUndecoded } from '../../../src/client/watch/lazy-decode.js';
import type { KubeObject } from '../../../src/protocol/events.js';
import type { RunningServer } from '../../../src/server/index.js';
import { buildPod } from '../../../src/sim/index.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';
import { startTestServerWithClient } from '../../helpers/server.js';
import { startSilentServer } from '../../helpers/silent-server.js';
import { waitUntil } from '../../helpers/wait.js';

let dir: string;
const tempDir = tempDirForFile('watchmark-checkpoint-');
beforeAll(async () => {
  dir = tempDir();
});
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

let n = 0;
const serve = () =>
  startTestServerWithClient(join(dir, `kubeconfig-${n++}`), cleanups, { historyWindow: 600_000 });

const pod = (name: string, image = 'nginx:1.27'): KubeObject => buildPod(name, { image });

const lists = (s: RunningServer) => Object.values(s.stats.lists).reduce((a, b) => a + b, 0);

const warnings: string[] = [];
const logger = { warn: (_o: object, msg: string) => warnings.push(msg) };

async function informer(
  kube: KubeClient,
  path: string,
  opts: InformerOptions<KubeObject> = {},
): Promise<Informer<KubeObject>> {
  const i = kube.informer(
    'pods',
    { namespace: 'demo' },
    { checkpoint: { path, intervalMs: 10 }, logger, ...opts },
  );
  cleanups.push(() => i.stop());
  await i.start().synced();
  return i;
}

/** The informer's cache and the server's list, as sorted name@resourceVersion. */
async function same(kube: KubeClient, i: Informer<KubeObject>): Promise<void> {
  const want = (await kube.resource('pods', 'demo').list()).items.map(
    (o) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`,
  );
  want.sort();
  const got = () =>
    i
      .list()
      .map((o) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`)
      .sort();
  await waitUntil(
    () => JSON.stringify(got()) === JSON.stringify(want),
    () => `the informer's cache to equal the server's list (want ${want}; got ${got()})`,
    10_000,
    20,
  );
}

async function seed(kube: KubeClient): Promise<void> {
  const pods = kube.resource('pods', 'demo');
  for (const name of ['a', 'b', 'c', 'd']) await pods.create(pod(name));
}

/** While stopped: one update, one delete, one create. */
async function missWhileDown(kube: KubeClient): Promise<void> {
  const pods = kube.resource('pods', 'demo');
  await pods.patch('a', { spec: { containers: [{ name: 'c', image: 'nginx:1.28' }] } }, 'strategic');
  await pods.delete('b');
  await pods.create(pod('e'));
}

describe('informer checkpoint', () => {
  it('resumes after a restart from the checkpoint, with no list, and handlers see the loaded state then the missed changes', async () => {
    const { server, kube } = await serve();
    await seed(kube);
    const path = join(dir, 'resume.checkpoint');
    const first = await informer(kube, path);
    expect(first.checkpoint?.status.ignored).toBe('no checkpoint file');
    await first.stop();
    const saved = await readCheckpointFile(path);
    expect(saved.objects.map((o) => o.metadata?.name).sort()).toEqual(['a', 'b', 'c', 'd']);
    await missWhileDown(kube);
    const before = lists(server);
    const seen: string[] = [];
    const i = kube.informer('pods', { namespace: 'demo' }, { checkpoint: { path, intervalMs: 10 }, logger });
    cleanups.push(() => i.stop());
    i.on({
      add: (o) => void seen.push(`add ${o.metadata?.name}`),
      update: (_, o) => void seen.push(`update ${o.metadata?.name}`),
      delete: (o) => void seen.push(`delete ${o.metadata?.name}`),
    });
    await i.start().synced();
    await same(kube, i);
    expect(lists(server) - before).toBe(1); // same()'s own list: the informer listed nothing
    expect(i.checkpoint?.status).toMatchObject({
      resumed: true,
      loadedObjects: 4,
      lists: 0,
      // The update of a, b's delete mark (deletionTimestamp, which kube-apiserver writes before removing
      // a pod) and b's removal, the create of e.
      replayedEvents: 4,
    });
    expect(i.watcher.metrics.lists).toEqual({ initial: 0, expired: 0, tooLarge: 0, error: 0 });
    expect(seen.sort()).toEqual(
      ['add a', 'add b', 'add c', 'add d', 'add e', 'update b', 'delete b', 'update a'].sort(),
    );
  });

  it('relists exactly once when the checkpoint is outside the history window, replacing the loaded state with exact diffs', async () => {
    const { server, kube } = await serve();
    await seed(kube);
    const path = join(dir, 'expired.checkpoint');
    await (await informer(kube, path)).stop();
    await missWhileDown(kube);
    await server.compact();
    const before = lists(server);
    const deleted: Array<[string, boolean]> = [];
    const i = kube.informer('pods', { namespace: 'demo' }, { checkpoint: { path, intervalMs: 10 }, logger });
    cleanups.push(() => i.stop());
    i.on({ delete: (o, info) => void deleted.push([o.metadata?.name ?? '', info.finalStateUnknown]) });
    await i.start().synced();
    await waitUntil(() => i.watcher.metrics.lists.expired > 0, 'the relist after a 410', 10_000, 20);
    expect(lists(server) - before).toBe(1);
    await same(kube, i);
    expect(i.checkpoint?.status).toMatchObject({ resumed: true, lists: 1 });
    expect(deleted).toEqual([['b', true]]);
  });

  it('ignores a corrupted, truncated, empty, foreign, too old or other-version checkpoint with a warning, and lists', async () => {
    const { kube } = await serve();
    await seed(kube);
    const path = join(dir, 'good.checkpoint');
    await (await informer(kube, path)).stop();
    const good = await readFile(path);
    const text = good.toString('utf8');
    const variants: Array<[string, Buffer | string, RegExp, InformerOptions<KubeObject>?]> = [
      ['flipped byte', flip(good, Math.floor(good.length / 2)), /corrupt/],
      ['truncated', good.subarray(0, Math.floor(good.length * 0.7)), /truncated/],
      ['truncated at a line end', good.subarray(0, good.indexOf(0x0a) + 1), /truncated/],
      ['empty', '', /empty/],
      ['garbage', 'not a checkpoint\n{"end":"nope"}\n', /truncated|not JSON/],
      ['other version', rehash(text.replace('"version":1', '"version":99')), /format version 99/],
      ['too old', rehash(text.replace(/"savedAt":\d+/, '"savedAt":1')), /s old/],
      ['other namespace', good, /another namespace/, { checkpoint: { path: '', intervalMs: 10 } }],
    ];
    for (const [what, content, reason, extra] of variants) {
      const p = join(dir, `bad-${what.replace(/ /g, '-')}.checkpoint`);
      await writeFile(p, content);
      warnings.length = 0;
      const sel = extra ? { namespace: 'other' } : { namespace: 'demo' };
      if (extra) await kube.resource('namespaces').create({ metadata: { name: 'other' } });
      const i = kube.informer('pods', sel, { checkpoint: { path: p, intervalMs: 10 }, logger });
      cleanups.push(() => i.stop());
      await i.start().synced();
      expect(i.checkpoint?.status.resumed, what).toBe(false);
      expect(i.checkpoint?.status.ignored, what).toMatch(reason);
      expect(warnings.join('\n'), what).toMatch(/checkpoint ignored/);
      expect(i.watcher.metrics.lists.initial, what).toBe(1);
      if (!extra) await same(kube, i);
      else expect(i.list()).toEqual([]);
      await i.stop();
      // The informer's own write replaced the bad file with a good one.
      await readCheckpointFile(p);
    }
  });

  it('ignores a checkpoint of another cluster: a restarted in-memory server has a new kube-system uid', async () => {
    const one = await serve();
    await seed(one.kube);
    const path = join(dir, 'cluster.checkpoint');
    await (await informer(one.kube, path)).stop();
    // Same checkpoint, a new server (new storage): its resourceVersions mean nothing there.
    const two = await serve();
    warnings.length = 0;
    const i = await informer(two.kube, path);
    expect(i.checkpoint?.status.ignored).toMatch(/another (server|cluster)/);
    expect(i.list()).toEqual([]);
  });

  it('writes lazily decoded objects as they came, without decoding them, and loads them lazily', async () => {
    const { server, kube } = await serve();
    await seed(kube);
    const path = join(dir, 'lazy.checkpoint');
    const first = await informer(kube, path, { lazyDecode: true });
    expect(first.list().every(isUndecoded)).toBe(true);
    await first.stop();
    expect(first.list().every(isUndecoded)).toBe(true);
    const before = lists(server);
    const i = await informer(kube, path, { lazyDecode: true });
    expect(lists(server)).toBe(before);
    expect(i.list().every(isUndecoded)).toBe(true);
    const spec = i.get('demo/a')?.spec as { containers: Array<{ image: string }> } | undefined;
    expect(spec?.containers[0].image).toBe('nginx:1.27');
    await same(kube, i);
  });

  it('keeps the checkpoint current while running: bookmarks and events, at most once per interval', async () => {
    const { kube } = await serve();
    await seed(kube);
    const path = join(dir, 'running.checkpoint');
    const i = await informer(kube, path);
    await kube.resource('pods', 'demo').create(pod('f'));
    await waitUntil(
      async () => {
        const saved = await readCheckpointFile(path).catch(() => undefined);
        return saved?.objects.some((o) => o.metadata?.name === 'f') ?? false;
      },
      'the checkpoint to hold pod f',
      10_000,
      20,
    );
    expect(i.checkpoint?.status.writeErrors).toBe(0);
  });
});

describe('checkpoint identity', () => {
  it('stop() while the identity GET is unanswered ends at once, not after the request timeout', async () => {
    const silent = await startSilentServer();
    cleanups.push(() => silent.close());
    const kubeconfig = join(dir, 'silent-kubeconfig');
    await silent.writeKubeconfig(kubeconfig, 'demo');
    const kube = await KubeClient.load({ kubeconfig, qps: 0, requestTimeoutMs: 600_000 });
    cleanups.push(() => kube.close());
    const i = kube.informer('pods', {}, { checkpoint: { path: join(dir, 'silent.checkpoint') } }).start();
    // Wait until the identity request is on the wire, then stop: the stop signal must abort it.
    await waitUntil(() => silent.connections() > 0, 'the identity request');
    await i.stop();
    expect(i.isSynced).toBe(false);
  });
});

describe('shared informer factory checkpoint', () => {
  it('checkpoints every informer in its directory and resumes each on the next start', async () => {
    const { server, kube } = await serve();
    await seed(kube);
    const cpDir = await mkdtemp(join(dir, 'factory-'));
    const kubeconfig = join(dir, `kubeconfig-${n - 1}`);
    const factoryOf = () =>
      KubeClient.load({
        kubeconfig,
        qps: 0,
        informerFactory: { checkpoint: { dir: cpDir, intervalMs: 10 } },
      });
    const one = await factoryOf();
    one.sharedInformer('pods', { namespace: 'demo' });
    one.sharedInformer('namespaces');
    await one.informers.synced();
    await one.close();
    expect((await readdir(cpDir)).sort()).toEqual([
      expect.stringMatching(/^namespaces\.core\._all\.[0-9a-f]{12}\.checkpoint$/),
      expect.stringMatching(/^pods\.core\.demo\.[0-9a-f]{12}\.checkpoint$/),
    ]);
    await missWhileDown(kube);
    const before = lists(server);
    const two = await factoryOf();
    cleanups.push(() => two.close());
    const pods = two.sharedInformer('pods', { namespace: 'demo' });
    two.sharedInformer('namespaces');
    await two.informers.synced();
    expect(two.informers.all().map((i) => i.checkpoint?.status.resumed)).toEqual([true, true]);
    await same(kube, pods);
    expect(lists(server) - before).toBe(1); // same()'s own
  });
});

function flip(buf: Buffer, at: number): Buffer {
  const copy = Buffer.from(buf);
  // A letter inside a JSON string: still JSON, so only the hash can tell.
  let i = at;
  while (!/[a-z]/.test(String.fromCharCode(copy[i]))) i++;
  copy[i] = copy[i] === 0x61 ? 0x62 : 0x61;
  return copy;
}

/** The text with its trailer's hash recomputed: a well-formed file with a changed header. */
function rehash(text: string): string {
  const lines = text.split('\n');
  lines.pop();
  lines.pop();
  const body = `${lines.join('\n')}\n`;
  const sha256 = createHash('sha256').update(body).digest('hex');
  return `${body}${JSON.stringify({ end: 'watchmark-checkpoint', objects: lines.length - 1, sha256 })}\n`;
}
