/**
 * etcd sends an event's previous value only while revision - 1 is not
 * compacted; a watch still catching up when a compaction lands gets deletes
 * and updates without it. The chaos test's failover runs found a server
 * whose watch cache kept a deleted pod for good that way (the delete had no
 * previous value, so it never reached the cache). Such an event ends the
 * store watch instead, and the cache refills from a fresh list (refill.test.ts),
 * as kube-apiserver's etcd3 watcher does (storage/etcd3/event.go, parseEvent).
 * A fake gRPC stream feeds the watch here: a real etcd sends this only in a race.
 */
import { EventEmitter } from 'node:events';
import type { Etcd3, IWatchResponse } from 'etcd3';
import { describe, expect, it } from 'vitest';
import { EtcdPrefixWatch } from '../../../src/server/stores/etcd-watch.js';
import { StoreError, type StoreEvent } from '../../../src/server/stores/types.js';

/** The raw watch stream, as EtcdPrefixWatch uses it. */
class FakeStream extends EventEmitter {
  write(): boolean {
    return true;
  }
  cancel(): void {}
  end(): void {}
}

function kv(key: string, value: string, createRevision: number, modRevision: number) {
  return {
    key: Buffer.from(`/p${key}`),
    value: Buffer.from(value),
    create_revision: String(createRevision),
    mod_revision: String(modRevision),
    version: '1',
    lease: '0',
  };
}

async function watchOn(stream: FakeStream) {
  const client = { watchClient: { watch: async () => stream } } as unknown as Etcd3;
  const events: StoreEvent[] = [];
  const errors: Error[] = [];
  const watch = new EtcdPrefixWatch({
    client,
    key: Buffer.from('/p/'),
    rangeEnd: Buffer.from('/p0'),
    storeKey: (k) => k.toString().slice(2),
    afterRevision: 10,
    onEvents: (e) => events.push(...e),
    onError: (e) => errors.push(e),
    log: () => {},
  });
  // The stream is opened asynchronously.
  await new Promise((r) => setImmediate(r));
  return { watch, events, errors };
}

function respond(stream: FakeStream, events: unknown[]): void {
  stream.emit('data', { canceled: false, events } as unknown as IWatchResponse);
}

describe('etcd watch: events without their previous value', () => {
  it('a create needs none; a delete or update without one ends the watch as compacted', async () => {
    const stream = new FakeStream();
    const { watch, events, errors } = await watchOn(stream);
    respond(stream, [{ type: 'Put', kv: kv('/a', '{"v":1}', 11, 11) }]);
    expect(events.map((e) => [e.type, e.key, e.revision])).toEqual([['put', '/a', 11]]);
    expect(errors).toEqual([]);

    respond(stream, [{ type: 'Delete', kv: kv('/a', '', 0, 12) }]);
    expect(events).toHaveLength(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(StoreError);
    expect((errors[0] as StoreError).code).toBe('compacted');
    expect(errors[0].message).toMatch(/delete of \/a at revision 12 came without its previous value/);
    watch.close();
  });

  it('an update without its previous value ends the watch too', async () => {
    const stream = new FakeStream();
    const { watch, events, errors } = await watchOn(stream);
    respond(stream, [{ type: 'Put', kv: kv('/b', '{"v":2}', 5, 13) }]);
    expect(events).toEqual([]);
    expect(errors.map((e) => e.message)).toEqual([
      'etcd watch: put of /b at revision 13 came without its previous value (compacted meanwhile)',
    ]);
    watch.close();
  });

  it('updates and deletes with their previous values pass', async () => {
    const stream = new FakeStream();
    const { watch, events, errors } = await watchOn(stream);
    const prev = kv('/c', '{"v":1}', 11, 11);
    respond(stream, [
      { type: 'Put', kv: kv('/c', '{"v":2}', 11, 14), prev_kv: prev },
      { type: 'Delete', kv: kv('/c', '', 0, 15), prev_kv: kv('/c', '{"v":2}', 11, 14) },
    ]);
    expect(events.map((e) => [e.type, e.revision, e.prevValue])).toEqual([
      ['put', 14, '{"v":1}'],
      ['delete', 15, '{"v":2}'],
    ]);
    expect(errors).toEqual([]);
    watch.close();
  });
});
