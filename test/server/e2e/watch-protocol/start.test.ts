/**
 * The watch rules of kube-apiserver over real HTTP, where a watch starts, for EVERY store: the same
 * definitions run on the in-memory store and on a real etcd (one etcd per run, a key prefix per
 * server); fixture.ts starts the servers.
 */
import { describe, expect, it } from 'vitest';
import { STORE_KINDS, settled } from '../../../helpers/etcd.js';
import { call, watch } from '../../../helpers/server.js';
import { PODS, watchServers } from './fixture.js';

describe.each(STORE_KINDS)('watch protocol over the %s store', (kind) => {
  const { server, createPod } = watchServers(kind);

  describe('watch: where it starts', () => {
    it('RV unset and RV "0" send synthetic ADDED for the current state, then changes', async () => {
      const s = await server();
      await createPod(s, 'a');
      await createPod(s, 'b');
      for (const rv of ['', '&resourceVersion=0']) {
        const w = await watch(s, `${PODS}?watch=1${rv}`);
        const first = [await w.next(), await w.next()];
        expect(first.map((e) => [e.type, e.object.metadata?.name])).toEqual([
          ['ADDED', 'a'],
          ['ADDED', 'b'],
        ]);
        w.close();
      }
      const w = await watch(s, `${PODS}?watch=true`);
      await w.next();
      await w.next();
      await call(s, 'DELETE', `${PODS}/a`);
      // A pod's delete writes its mark first (store.go updateForGracefulDeletionAndFinalizers).
      const mark = await w.next();
      expect(mark.type).toBe('MODIFIED');
      expect(mark.object.metadata?.deletionGracePeriodSeconds).toBe(0);
      const del = await w.next();
      expect(del.type).toBe('DELETED');
      expect(del.object.metadata?.name).toBe('a');
      w.close();
    });

    it('RV N sends only the changes after N, each with its own resourceVersion', async () => {
      const s = await server();
      const a = await createPod(s, 'a');
      await createPod(s, 'b');
      await call(s, 'PATCH', `${PODS}/a`, {
        body: { metadata: { labels: { x: 'y' } } },
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      await settled(s);
      const w = await watch(s, `${PODS}?watch=1&resourceVersion=${a.metadata.resourceVersion}`);
      const e1 = await w.next();
      const e2 = await w.next();
      expect([e1.type, e1.object.metadata?.name, e2.type, e2.object.metadata?.name]).toEqual([
        'ADDED',
        'b',
        'MODIFIED',
        'a',
      ]);
      expect(Number(e2.object.metadata?.resourceVersion)).toBeGreaterThan(
        Number(e1.object.metadata?.resourceVersion),
      );
      w.close();
    });

    it('a resourceVersion newer than the server has: a watch waits in a 200 stream, a streaming list gets a 504 ERROR event, a list a 504', async () => {
      // kube-apiserver 1.37: cacher.go `Watch` only waits for a streaming list's
      // resourceVersion (`waitUntilWatchCacheFreshAndForceAllEvents`, its error an ERROR event).
      const s = await server({ tooLargeWait: 200 });
      const w = await watch(s, `${PODS}?watch=1&resourceVersion=999999`);
      expect(w.status).toBe(200);
      const stream = await watch(
        s,
        `${PODS}?watch=1&resourceVersion=999999&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`,
      );
      expect(stream.status).toBe(200);
      const e = await stream.next();
      expect(e.type).toBe('ERROR');
      expect(e.object).toMatchObject({
        kind: 'Status',
        reason: 'Timeout',
        code: 504,
        message: expect.stringMatching(/^Timeout: Too large resource version: 999999, current: \d+$/),
        details: {
          causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
          retryAfterSeconds: 1,
        },
      });
      expect(await stream.ended).toBe('clean');
      const list = await call(s, 'GET', `${PODS}?resourceVersion=999999&resourceVersionMatch=NotOlderThan`);
      expect(list.status).toBe(504);
      w.close();
    });

    it('a watch from a resourceVersion a little ahead sends only the events after it', async () => {
      const s = await server();
      const rv = s.latestRevision();
      const w = await watch(s, `${PODS}?watch=1&resourceVersion=${rv + 1}`);
      expect(w.status).toBe(200);
      await createPod(s, 'late');
      await createPod(s, 'later');
      const e = await w.next();
      expect(e.type).toBe('ADDED');
      expect(e.object.metadata?.name).toBe('later');
      w.close();
    });
  });
});
