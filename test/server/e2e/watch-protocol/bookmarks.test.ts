/**
 * The watch rules of kube-apiserver over real HTTP, bookmarks, for EVERY store: the same
 * definitions run on the in-memory store and on a real etcd (one etcd per run, a key prefix per
 * server); fixture.ts starts the servers.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/protocol/clock.js';
import { STORE_KINDS, settled } from '../../../helpers/etcd.js';
import { call, ensureNamespace, watch } from '../../../helpers/server.js';
import { PODS, watchServers } from './fixture.js';

describe.each(STORE_KINDS)('watch protocol over the %s store', (kind) => {
  const { server, createPod } = watchServers(kind);

  describe('watch: bookmarks', () => {
    it('are sent only when asked for, carry only the latest resourceVersion, and advance with writes to other kinds', async () => {
      const clock = new ManualClock(Date.now());
      const s = await server({ bookmarkInterval: 100, clock });
      const quiet = await watch(
        s,
        `${PODS}?watch=1&resourceVersion=${s.latestRevision()}&allowWatchBookmarks=true`,
      );
      const noBookmarks = await watch(s, `${PODS}?watch=1&resourceVersion=${s.latestRevision()}`);
      // Writes to another resource only: the pod watcher sees no event but its bookmark advances.
      const cm = await call(s, 'POST', '/api/v1/namespaces/demo/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } },
      });
      await settled(s);
      clock.advance(100);
      const b = await quiet.next(2000);
      expect(b).toEqual({
        type: 'BOOKMARK',
        object: {
          kind: 'Pod',
          apiVersion: 'v1',
          metadata: { resourceVersion: cm.body.metadata.resourceVersion },
        },
      });
      // Nothing newer: three more intervals pass without a bookmark. The barrier: a pod's ADDED,
      // which each stream carries after anything those intervals sent.
      clock.advance(300);
      await createPod(s, 'barrier');
      expect((await quiet.next(2000)).type).toBe('ADDED');
      expect((await noBookmarks.next(2000)).type).toBe('ADDED');
      expect(quiet.events.map((e) => e.type)).toEqual(['BOOKMARK', 'ADDED']);
      expect(noBookmarks.events.map((e) => e.type)).toEqual(['ADDED']);
      quiet.close();
      noBookmarks.close();
    });

    it('a last bookmark goes --bookmark-lead before the deadline, then the stream ends cleanly', async () => {
      const s = await server({ bookmarkInterval: 60_000, bookmarkLead: 500 });
      const w = await watch(
        s,
        `${PODS}?watch=1&resourceVersion=${s.latestRevision()}&allowWatchBookmarks=true&timeoutSeconds=1`,
      );
      const started = Date.now();
      await createPod(s, 'a');
      expect((await w.next()).type).toBe('ADDED');
      await ensureNamespace(s, 'other');
      const b = await w.next(2000);
      expect(b.type).toBe('BOOKMARK');
      const at = Date.now() - started;
      expect(at).toBeGreaterThanOrEqual(350);
      expect(await w.ended).toBe('clean');
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    });

    it('--no-bookmarks sends no periodic bookmark even when asked', async () => {
      const clock = new ManualClock(Date.now());
      const s = await server({ noBookmarks: true, bookmarkInterval: 50, clock });
      const w = await watch(
        s,
        `${PODS}?watch=1&resourceVersion=${s.latestRevision()}&allowWatchBookmarks=true`,
      );
      await ensureNamespace(s, 'other');
      await settled(s);
      // Six intervals with something newer to bookmark; the barrier pod's ADDED comes after them.
      clock.advance(300);
      await createPod(s, 'barrier');
      expect((await w.next(2000)).type).toBe('ADDED');
      expect(w.events.map((e) => e.type)).toEqual(['ADDED']);
      w.close();
    });
  });
});
