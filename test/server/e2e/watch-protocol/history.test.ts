/**
 * The watch rules of kube-apiserver over real HTTP, the history window and 410, for EVERY store: the same
 * definitions run on the in-memory store and on a real etcd (one etcd per run, a key prefix per
 * server); fixture.ts starts the servers.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/protocol/clock.js';
import { STORE_KINDS } from '../../../helpers/etcd.js';
import { call, watch } from '../../../helpers/server.js';
import { PODS, watchServers } from './fixture.js';

describe.each(STORE_KINDS)('watch protocol over the %s store', (kind) => {
  const { server, createPod } = watchServers(kind);

  describe('watch: history window and 410', () => {
    it('a watch from before a compaction gets an ERROR event with a 410 Expired Status', async () => {
      const s = await server();
      const a = await createPod(s, 'a');
      await createPod(s, 'b');
      await call(s, 'POST', '/debug/watchmark/compact');
      const w = await watch(s, `${PODS}?watch=1&resourceVersion=${a.metadata.resourceVersion}`);
      const e = await w.next();
      expect(e.type).toBe('ERROR');
      expect(e.object).toMatchObject({
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'Expired',
        code: 410,
        message: expect.stringMatching(
          new RegExp(`^too old resource version: ${a.metadata.resourceVersion} \\(\\d+\\)$`),
        ),
      });
      expect(await w.ended).toBe('clean');
      const stats = (await call(s, 'GET', '/debug/watchmark/stats')).body;
      expect(stats.expiredSent).toBe(1);
    });

    it('events older than --history-window leave the history: a stale RV gets 410, a fresh one resumes', async () => {
      const clock = new ManualClock(Date.now());
      const s = await server({ historyWindow: 150, clock });
      const a = await createPod(s, 'a');
      await createPod(s, 'b');
      clock.advance(250);
      const c = await createPod(s, 'c');
      const stale = await watch(s, `${PODS}?watch=1&resourceVersion=${a.metadata.resourceVersion}`);
      expect((await stale.next()).type).toBe('ERROR');
      // The history still holds c, so a watch from just before it resumes.
      const fresh = await watch(
        s,
        `${PODS}?watch=1&resourceVersion=${Number(c.metadata.resourceVersion) - 1}`,
      );
      const e = await fresh.next();
      expect([e.type, e.object.metadata?.name]).toEqual(['ADDED', 'c']);
      fresh.close();
    });

    it('the store still answers an exact list where the watch cache refuses a watch', async () => {
      const clock = new ManualClock(Date.now());
      const s = await server({ historyWindow: 50, clock });
      const a = await createPod(s, 'a');
      clock.advance(100);
      await createPod(s, 'b');
      const list = await call(
        s,
        'GET',
        `${PODS}?resourceVersion=${a.metadata.resourceVersion}&resourceVersionMatch=Exact`,
      );
      expect(list.status).toBe(200);
      expect(list.body.items.map((p: any) => p.metadata.name)).toEqual(['a']);
      const w = await watch(s, `${PODS}?watch=1&resourceVersion=${Number(a.metadata.resourceVersion) - 1}`);
      expect((await w.next()).type).toBe('ERROR');
    });

    it('init events examined count every history event after the start RV; sent counts the matching ones', async () => {
      const s = await server();
      const start = s.latestRevision();
      await createPod(s, 'a', { nodeName: 'n1' });
      await createPod(s, 'b', { nodeName: 'n2' });
      await createPod(s, 'c', { nodeName: 'n2' });
      const w = await watch(s, `${PODS}?watch=1&resourceVersion=${start}&fieldSelector=spec.nodeName%3Dn1`);
      expect((await w.next()).object.metadata?.name).toBe('a');
      const stats = (await call(s, 'GET', '/debug/watchmark/stats')).body;
      expect(stats.initEventsExamined).toBe(3);
      expect(stats.initEventsSent).toBe(1);
      w.close();
    });
  });
});
