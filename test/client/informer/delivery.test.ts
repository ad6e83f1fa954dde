/**
 * How an informer delivers to its handlers when handlers come and go while
 * an async handler holds delivery: a removed handler gets nothing after its
 * removal (not even the rest of a replay or of a relist's differences), and
 * after stop() nothing more is delivered. The rules themselves are in
 * src/client/informer/informer-delivery.ts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../src/client/client.js';
import { Informer, type InformerHandlers } from '../../../src/client/informer/informer.js';
import { ManualClock } from '../../../src/protocol/clock.js';
import type { KubeObject } from '../../../src/protocol/events.js';
import { cleanupAfterEach, tempDirForFile } from '../../helpers/lifecycle.js';
import { ev, listOf, obj, ScriptedSource, ScriptedStream } from '../../helpers/scripted-source.js';
import { startTestServerWithClient } from '../../helpers/server.js';
import { waitUntil } from '../../helpers/wait.js';

const tempDir = tempDirForFile('watchmark-informer-delivery-');
const cleanups = cleanupAfterEach();

let n = 0;
const serve = () => startTestServerWithClient(join(tempDir(), `kubeconfig-${n++}`), cleanups);

/** A promise the test settles: `open()` resolves `closed`. */
function gate(): { closed: Promise<void>; open: () => void } {
  let open: () => void = () => {};
  const closed = new Promise<void>((r) => {
    open = r;
  });
  return { closed, open };
}

const configMap = (name: string): KubeObject => ({
  metadata: { name, labels: { test: 'delivery' } },
  data: {},
});
const nameOf = (o: KubeObject) => o.metadata?.name ?? '';

/** Handlers that log `event name@resourceVersion` into `log`. */
function recorder(log: string[]): InformerHandlers<KubeObject> {
  const at = (o: KubeObject) => `${nameOf(o)}@${o.metadata?.resourceVersion}`;
  return {
    add: (o) => void log.push(`add ${at(o)}`),
    update: (_a, b) => void log.push(`update ${at(b)}`),
    delete: (o) => void log.push(`delete ${at(o)}`),
  };
}

/** Queues a first list and, after a 410 on its watch, a second: returns both watch streams. */
function listThenRelist(source: ScriptedSource, firstList: KubeObject[], secondList: KubeObject[]) {
  const first = new ScriptedStream();
  const second = new ScriptedStream();
  source.onList(listOf('10', firstList), listOf('30', secondList));
  source.onWatch(first, second);
  return { first, second };
}

/** An informer on a scripted source (list and watch answers the test queues), stopped after the test. */
function scripted() {
  const source = new ScriptedSource();
  const informer = new Informer(source, { clock: new ManualClock(), random: () => 0 });
  cleanups.push(() => informer.stop());
  return { source, informer };
}

/** An informer (not started) on the test's ConfigMaps in `demo`, stopped after the test. */
function configMapInformer(kube: KubeClient): Informer {
  const informer = kube.informer('configmaps', { namespace: 'demo', labelSelector: 'test=delivery' });
  cleanups.push(() => informer.stop());
  return informer;
}

describe('Informer delivery against a server', () => {
  it('a handler removed while its first replayed add is pending gets none of the rest of the replay', async () => {
    const { kube } = await serve();
    const configMaps = kube.resource('configmaps', 'demo');
    for (const name of ['cm-1', 'cm-2', 'cm-3']) await configMaps.create(configMap(name));
    const informer = configMapInformer(kube);
    const seenByAll: string[] = [];
    informer.on({ add: (o) => void seenByAll.push(nameOf(o)) });
    informer.start();
    await informer.synced();
    expect(informer.size).toBe(3);

    const held = gate();
    const late: string[] = [];
    const remove = informer.on({
      add: (o) => {
        late.push(nameOf(o));
        if (late.length === 1) return held.closed;
      },
    });
    await waitUntil(() => late.length === 1, 'the late handler to get its first replayed add');
    remove();
    held.open();

    // Barrier: a new object reaches the other handler, so the replay's queue is behind us.
    await configMaps.create(configMap('cm-4'));
    await waitUntil(() => seenByAll.includes('cm-4'), 'cm-4 to be delivered');
    expect(late).toHaveLength(1);
  });

  it('a handler removed while another holds a live event gets neither that event nor later ones', async () => {
    const { kube } = await serve();
    const configMaps = kube.resource('configmaps', 'demo');
    const informer = configMapInformer(kube);
    const held = gate();
    const slow: string[] = [];
    informer.on({
      add: (o) => {
        slow.push(nameOf(o));
        if (nameOf(o) === 'held') return held.closed;
      },
    });
    const removed: string[] = [];
    const remove = informer.on({ add: (o) => void removed.push(nameOf(o)) });
    informer.start();
    await informer.synced();

    await configMaps.create(configMap('held'));
    await waitUntil(() => slow.includes('held'), 'the first handler to hold the add');
    remove();
    await configMaps.create(configMap('after'));
    held.open();

    await waitUntil(() => slow.includes('after'), 'the next add to reach the first handler');
    expect(removed).toEqual([]);
  });

  it('stop() while an async handler is pending: it finishes, stop() waits for it, nothing more is delivered', async () => {
    const { kube } = await serve();
    const configMaps = kube.resource('configmaps', 'demo');
    for (const name of ['cm-1', 'cm-2', 'cm-3']) await configMaps.create(configMap(name));
    const informer = configMapInformer(kube);
    informer.start();
    await informer.synced();

    const held = gate();
    const late: string[] = [];
    let finished = false;
    informer.on({
      add: async (o) => {
        late.push(nameOf(o));
        if (late.length === 1) {
          await held.closed;
          finished = true;
        }
      },
    });
    await waitUntil(() => late.length === 1, 'the late handler to get its first replayed add');
    const stopped = informer.stop();
    held.open();
    await stopped;
    expect(finished).toBe(true);
    expect(late).toHaveLength(1);
  });
});

describe('Informer delivery during a relist', () => {
  it("a handler removed during a relist's differences gets none of the rest", async () => {
    const { source, informer } = scripted();
    const held = gate();
    const slow: string[] = [];
    informer.on({
      add: (o) => void slow.push(`add ${nameOf(o)}`),
      update: (_a, b) => {
        slow.push(`update ${nameOf(b)}`);
        if (nameOf(b) === 'b') return held.closed;
      },
      delete: (o) => void slow.push(`delete ${nameOf(o)}`),
    });
    const removed: string[] = [];
    const remove = informer.on(recorder(removed));
    const { first, second } = listThenRelist(
      source,
      [obj('a', '1'), obj('b', '2'), obj('c', '3')],
      [obj('a', '1'), obj('b', '25'), obj('d', '26')],
    );
    await informer.synced();
    expect(removed).toEqual(['add a@1', 'add b@2', 'add c@3']);

    first.push(ev.error(410, 'Expired'));
    await waitUntil(() => slow.includes('update b'), 'the relist to hold on its first difference');
    remove();
    held.open();
    await waitUntil(() => slow.includes('delete c'), "the rest of the relist's differences");
    second.push(ev.added(obj('e', '31')));
    await waitUntil(() => slow.includes('add e'), 'the next event after the relist');
    expect(slow).toEqual(['add a', 'add b', 'add c', 'update b', 'add d', 'delete c', 'add e']);
    expect(removed).toEqual(['add a@1', 'add b@2', 'add c@3']);
  });
});

describe('Informer delivery rules', () => {
  it("a handler added during a relist's differences gets the new list as adds and none of the differences", async () => {
    const { source, informer } = scripted();
    const late: string[] = [];
    let added = false;
    informer.on({
      update: () => {
        // Added from inside the first difference, while the rest are queued behind it.
        if (added) return;
        added = true;
        informer.on(recorder(late));
      },
    });
    const { first, second } = listThenRelist(
      source,
      [obj('a', '1'), obj('b', '2'), obj('c', '3')],
      [obj('a', '21'), obj('b', '22'), obj('d', '26')],
    );
    await informer.synced();
    first.push(ev.error(410, 'Expired'));
    await waitUntil(() => late.length === 3, 'the late handler to be replayed the new list');
    second.push(ev.modified(obj('d', '31')));
    await waitUntil(() => late.includes('update d@31'), 'the next event');
    expect(late).toEqual(['add a@21', 'add b@22', 'add d@26', 'update d@31']);
  });

  it('a handler that returns a value that is not a promise is called as a synchronous one', async () => {
    const { source, informer } = scripted();
    const names: string[] = [];
    // As JavaScript may pass it: `push` returns a number, which the handler types do not allow.
    const pushing = (prefix: string) => ({ add: (o: KubeObject) => names.push(prefix + nameOf(o)) }) as never;
    informer.on(pushing(''));
    const stream = new ScriptedStream();
    source.onList(listOf('10', [obj('a', '1')])).onWatch(stream);
    await informer.synced();
    stream.push(ev.added(obj('b', '2')));
    await waitUntil(() => names.includes('b'), 'the live add');
    informer.on(pushing('late '));
    expect(names).toEqual(['a', 'b', 'late a', 'late b']);
    expect(informer.handlerErrors).toBe(0);
  });
});
