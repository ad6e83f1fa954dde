import { describe, expect, it } from 'vitest';
import { Informer } from '../../../src/client/informer/informer.js';
import { ManualClock } from '../../../src/protocol/clock.js';
import type { KubeObject } from '../../../src/protocol/events.js';
import { ev, listOf, obj, ScriptedSource, ScriptedStream, settle } from '../../helpers/scripted-source.js';

function setup(opts: ConstructorParameters<typeof Informer>[1] = {}) {
  const clock = new ManualClock();
  const source = new ScriptedSource();
  const informer = new Informer(source, { clock, random: () => 0, ...opts });
  const log: string[] = [];
  informer.on({
    add: (o) => {
      log.push(`add ${o.metadata?.name}@${o.metadata?.resourceVersion}`);
    },
    update: (a, b) => {
      log.push(`update ${a.metadata?.name}@${a.metadata?.resourceVersion}->${b.metadata?.resourceVersion}`);
    },
    delete: (o, info) => {
      log.push(`delete ${o.metadata?.name}${info.finalStateUnknown ? ' (final state unknown)' : ''}`);
    },
  });
  return { clock, source, informer, log };
}

describe('Informer', () => {
  it('syncs from the list, then applies watch events to its cache in order', async () => {
    const t = setup();
    const s = new ScriptedStream();
    t.source.onList(listOf('10', [obj('a', '1'), obj('b', '2')])).onWatch(s);
    await t.informer.synced();
    expect(t.informer.list().map((o) => o.metadata?.name)).toEqual(['a', 'b']);
    s.push(
      ev.modified(obj('a', '11')),
      ev.added(obj('c', '12')),
      ev.deleted(obj('b', '13')),
      ev.bookmark('20'),
    );
    await settle();
    expect(t.log).toEqual(['add a@1', 'add b@2', 'update a@1->11', 'add c@12', 'delete b']);
    expect(t.informer.get('ns/a')?.metadata?.resourceVersion).toBe('11');
    expect(t.informer.get('ns/b')).toBeUndefined();
    await t.informer.stop();
  });

  it('a relist swaps the cache at once and emits exactly the differences', async () => {
    const t = setup();
    const s = new ScriptedStream();
    t.source.onList(listOf('10', [obj('a', '1'), obj('b', '2'), obj('c', '3')]));
    t.source.onList(listOf('30', [obj('a', '1'), obj('b', '25'), obj('d', '26')]));
    t.source.onWatch(s, new ScriptedStream());
    await t.informer.synced();
    t.log.length = 0;
    s.push(ev.error(410, 'Expired'));
    await settle();
    expect(t.log).toEqual(['update b@2->25', 'add d@26', 'delete c (final state unknown)']);
    expect(
      t.informer
        .list()
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['a', 'b', 'd']);
    await t.informer.stop();
  });

  it('a throwing or rejecting handler is counted and the stream goes on', async () => {
    const errors: string[] = [];
    const t = setup({ onHandlerError: (err, event) => errors.push(`${event}: ${(err as Error).message}`) });
    t.informer.on({
      add: () => {
        throw new Error('sync boom');
      },
      update: async () => {
        throw new Error('async boom');
      },
    });
    const s = new ScriptedStream();
    t.source.onList(listOf('10', [obj('a', '1')])).onWatch(s);
    await t.informer.synced();
    s.push(ev.modified(obj('a', '2')), ev.added(obj('b', '3')));
    await settle();
    expect(errors).toEqual(['add: sync boom', 'update: async boom', 'add: sync boom']);
    expect(t.informer.handlerErrors).toBe(3);
    expect(t.log).toEqual(['add a@1', 'update a@1->2', 'add b@3']);
    await t.informer.stop();
  });

  it('awaits async handlers before reading the next event (backpressure, no unbounded queue)', async () => {
    const t = setup();
    let release: () => void = () => {};
    let active = 0;
    let maxActive = 0;
    t.informer.on({
      update: async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise<void>((r) => {
          release = r;
        });
        active--;
      },
    });
    const s = new ScriptedStream();
    t.source.onList(listOf('10', [obj('a', '1')])).onWatch(s);
    await t.informer.synced();
    s.push(ev.modified(obj('a', '2')), ev.modified(obj('a', '3')), ev.modified(obj('a', '4')));
    await settle();
    // The first update is being handled: the rest are still unread in the stream.
    expect(t.informer.get('ns/a')?.metadata?.resourceVersion).toBe('2');
    for (let i = 0; i < 3; i++) {
      release();
      await settle();
    }
    expect(t.informer.get('ns/a')?.metadata?.resourceVersion).toBe('4');
    expect(maxActive).toBe(1);
    await t.informer.stop();
  });

  it('keeps indexes, namespace built in', async () => {
    const t = setup({
      indexers: { node: (o: KubeObject) => [String((o.spec as { nodeName?: string })?.nodeName ?? '')] },
    });
    const s = new ScriptedStream();
    const onNode = (name: string, rv: string, node: string, ns = 'ns'): KubeObject => ({
      ...obj(name, rv, ns),
      spec: { nodeName: node },
    });
    t.source.onList(listOf('10', [onNode('a', '1', 'n1'), onNode('b', '2', 'n2', 'other')])).onWatch(s);
    await t.informer.synced();
    expect(t.informer.byIndex('namespace', 'other').map((o) => o.metadata?.name)).toEqual(['b']);
    s.push(ev.modified(onNode('a', '11', 'n2')));
    await settle();
    expect(
      t.informer
        .byIndex('node', 'n2')
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['a', 'b']);
    expect(t.informer.byIndex('node', 'n1')).toEqual([]);
    expect(() => t.informer.byIndex('nope', 'x')).toThrow(/no indexer/);
    await t.informer.stop();
  });

  it('an index built on first use stays current through adds, moves, deletes and relists', async () => {
    const t = setup({
      indexers: { node: (o: KubeObject) => [String((o.spec as { nodeName?: string })?.nodeName)] },
    });
    const s = new ScriptedStream();
    const onNode = (name: string, rv: string, node: string): KubeObject => ({
      ...obj(name, rv),
      spec: { nodeName: node },
    });
    const names = (node: string) =>
      t.informer
        .byIndex('node', node)
        .map((o) => o.metadata?.name)
        .sort();
    t.source.onList(listOf('10', [onNode('a', '1', 'n1'), onNode('b', '2', 'n1')]));
    t.source.onList(listOf('30', [onNode('a', '21', 'n3'), onNode('d', '22', 'n1')]));
    t.source.onWatch(s, new ScriptedStream());
    await t.informer.synced();
    expect(names('n1')).toEqual(['a', 'b']);
    s.push(
      ev.modified(onNode('a', '11', 'n2')),
      ev.added(onNode('c', '12', 'n2')),
      ev.deleted(onNode('b', '13', 'n1')),
    );
    await settle();
    expect(names('n1')).toEqual([]);
    expect(names('n2')).toEqual(['a', 'c']);
    expect(t.informer.byIndex('namespace', 'ns').map((o) => o.metadata?.name)).toEqual(['a', 'c']);
    s.push(ev.error(410, 'Expired'));
    await settle();
    expect(names('n1')).toEqual(['d']);
    expect(names('n2')).toEqual([]);
    expect(names('n3')).toEqual(['a']);
    expect(
      t.informer
        .byIndex('namespace', 'ns')
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['a', 'd']);
    await t.informer.stop();
  });

  it('while an async handler holds an event, a removed handler gets nothing more and an added one only its adds', async () => {
    const t = setup();
    let release: () => void = () => {};
    const seen: string[] = [];
    t.informer.on({
      update: async (_a, b) => {
        seen.push(`slow ${b.metadata?.resourceVersion}`);
        await new Promise<void>((r) => {
          release = r;
        });
      },
    });
    const removed = t.informer.on({
      update: (_a, b) => void seen.push(`removed ${b.metadata?.resourceVersion}`),
    });
    const s = new ScriptedStream();
    t.source.onList(listOf('10', [obj('a', '1')])).onWatch(s);
    await t.informer.synced();
    s.push(ev.modified(obj('a', '2')));
    await settle();
    expect(seen).toEqual(['slow 2']);
    removed();
    t.informer.on({
      add: (o) => void seen.push(`late add ${o.metadata?.resourceVersion}`),
      update: (_a, b) => void seen.push(`late ${b.metadata?.resourceVersion}`),
    });
    release();
    await settle();
    s.push(ev.modified(obj('a', '3')));
    await settle();
    release();
    await settle();
    expect(seen).toEqual(['slow 2', 'late add 2', 'slow 3', 'late 3']);
    expect(t.log).toEqual(['add a@1', 'update a@1->2', 'update a@2->3']);
    await t.informer.stop();
  });

  it('resync re-delivers cached objects as updates; handlers added late get adds for the cache', async () => {
    const t = setup({ resyncPeriodMs: 1000 });
    t.source.onList(listOf('10', [obj('a', '1')])).onWatch(new ScriptedStream());
    await t.informer.synced();
    t.clock.advance(1000);
    await settle();
    expect(t.log).toEqual(['add a@1', 'update a@1->1']);
    const late: string[] = [];
    t.informer.on({ add: (o) => void late.push(o.metadata?.name ?? '') });
    await settle();
    expect(late).toEqual(['a']);
    await t.informer.stop();
  });

  it('ignores a delete for an unknown key and an apply with an unchanged resourceVersion', async () => {
    const t = setup();
    const s = new ScriptedStream();
    t.source.onList(listOf('10', [obj('a', '1')])).onWatch(s);
    await t.informer.synced();
    s.push(ev.deleted(obj('zz', '11')), ev.modified(obj('a', '1')));
    await settle();
    expect(t.log).toEqual(['add a@1']);
    await t.informer.stop();
  });
});
