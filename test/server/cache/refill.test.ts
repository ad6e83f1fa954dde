/**
 * When the store watch that feeds the watch cache breaks for good (over etcd:
 * compacted past the cache's revision after a long outage), the cache refills
 * from a fresh list and closes every watcher cleanly. Clients come back with
 * their resourceVersion: one older than the new cache gets 410 and relists,
 * as from a restarted kube-apiserver; a fresh one just resumes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { MemoryStore } from '../../../src/server/stores/memory.js';
import { StoreError, type StoreEvent, type StoreWatch } from '../../../src/server/stores/types.js';
import { call, ensureNamespace, pod, startTestServer, watch } from '../../helpers/server.js';

/** A memory store whose watches the test can break, as a compaction would break an etcd watch. */
class BreakableStore extends MemoryStore {
  private readonly broken = new Set<(err: Error) => void>();

  override watch(
    after: number,
    onEvents: (e: StoreEvent[]) => void,
    onError: (err: Error) => void,
  ): StoreWatch {
    const inner = super.watch(after, onEvents, onError);
    this.broken.add(onError);
    return {
      close: () => {
        this.broken.delete(onError);
        inner.close();
      },
    };
  }

  /** Ends every watch with `compacted`, as etcd cancels a watch whose revision is gone. */
  breakWatches(): void {
    for (const onError of [...this.broken]) {
      this.broken.delete(onError);
      onError(new StoreError('compacted', 'required revision has been compacted', 0));
    }
  }
}

const PODS = '/api/v1/namespaces/demo/pods';

describe('watch cache refill after its store watch breaks', () => {
  const open: RunningServer[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
  });

  it('closes watchers cleanly; an older resourceVersion then gets 410, the current one resumes', async () => {
    const store = new BreakableStore();
    const errors: string[] = [];
    const s = await startTestServer({ store, log: (m) => errors.push(m) });
    open.push(s);
    await ensureNamespace(s, 'demo');
    const before = (await call(s, 'POST', PODS, { body: pod('a') })).body.metadata.resourceVersion;
    await call(s, 'POST', PODS, { body: pod('b') });
    const w = await watch(s, `${PODS}?watch=1&resourceVersion=${before}`);
    expect((await w.next()).object.metadata?.name).toBe('b');
    store.breakWatches();
    expect(await w.ended).toBe('clean');
    expect(errors.join('\n')).toMatch(/store watch failed: required revision has been compacted/);
    // The refilled cache starts at the store's revision now: older ones are gone from it.
    const stale = await watch(s, `${PODS}?watch=1&resourceVersion=${before}`);
    const gone = await stale.next();
    expect([gone.type, (gone.object as { code?: number }).code]).toEqual(['ERROR', 410]);
    const now = s.latestRevision();
    const fresh = await watch(s, `${PODS}?watch=1&resourceVersion=${now}`);
    await call(s, 'POST', PODS, { body: pod('c') });
    const e = await fresh.next();
    expect([e.type, e.object.metadata?.name]).toEqual(['ADDED', 'c']);
    // And the refilled cache serves the full state.
    const listed = await call(s, 'GET', `${PODS}?resourceVersion=0`);
    expect(listed.body.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual([
      'a',
      'b',
      'c',
    ]);
    fresh.close();
  });
});
