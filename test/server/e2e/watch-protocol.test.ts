/**
 * The watch rules of kube-apiserver, over real HTTP, for EVERY store: the
 * same definitions run on the in-memory store and on a real etcd (one etcd
 * per run, a key prefix per server). Over etcd the watch cache follows the
 * store through its watch, a moment after a write answers; tests that look at
 * the cache right after a write wait for it first (`settled`), which the
 * memory store, delivering synchronously, never needs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/protocol/clock.js';
import type { RunningServer } from '../../../src/server/index.js';
import type { Store } from '../../../src/server/stores/types.js';
import { STORE_KINDS, settled, useStores } from '../../helpers/etcd.js';
import { call, ensureNamespace, pod, startTestServer, watch } from '../../helpers/server.js';

const PODS = '/api/v1/namespaces/demo/pods';

describe.each(STORE_KINDS)('watch protocol over the %s store', (kind) => {
  const stores = useStores(kind);
  const open: Array<{ server: RunningServer; store: Store }> = [];
  /** A server over a fresh store; closed (server, then store) after the test. */
  async function startOwned(opts: Parameters<typeof startTestServer>[0] = {}): Promise<RunningServer> {
    const store = stores.newStore();
    const s = await startTestServer({ ...opts, store });
    open.push({ server: s, store });
    return s;
  }
  async function server(opts: Parameters<typeof startTestServer>[0] = {}): Promise<RunningServer> {
    const s = await startOwned(opts);
    await ensureNamespace(s, 'demo');
    await settled(s);
    return s;
  }
  afterEach(async () => {
    for (const { server: s, store } of open.splice(0)) {
      await s.close();
      await store.close();
    }
  });

  async function createPod(s: RunningServer, name: string, extra: Parameters<typeof pod>[1] = {}) {
    const r = await call(s, 'POST', PODS, { body: pod(name, extra) });
    expect(r.status, r.text).toBe(201);
    await settled(s);
    return r.body;
  }

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

  describe('watch: streaming lists (sendInitialEvents)', () => {
    const STREAM = `${PODS}?watch=1&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan`;

    it('sends ADDED for every object, then the initial-events-end bookmark, then changes', async () => {
      const s = await server({ noBookmarks: true });
      await createPod(s, 'a');
      await createPod(s, 'b');
      const w = await watch(s, STREAM);
      const [a, b, end] = [await w.next(), await w.next(), await w.next()];
      expect([a.type, b.type]).toEqual(['ADDED', 'ADDED']);
      expect(end).toEqual({
        type: 'BOOKMARK',
        object: {
          kind: 'Pod',
          apiVersion: 'v1',
          metadata: {
            resourceVersion: String(s.latestRevision()),
            annotations: { 'k8s.io/initial-events-end': 'true' },
          },
        },
      });
      await createPod(s, 'c');
      expect((await w.next()).object.metadata?.name).toBe('c');
      w.close();
    });

    it('is validated as kube-apiserver does, and refused with 422 under --no-watch-list', async () => {
      const s = await server();
      // Since 1.34 a streaming list no longer needs allowWatchBookmarks: without it, no end bookmark.
      await createPod(s, 'a');
      const noBookmarks = await watch(
        s,
        `${PODS}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=1`,
      );
      expect(noBookmarks.status).toBe(200);
      expect((await noBookmarks.next()).type).toBe('ADDED');
      expect(await noBookmarks.ended).toBe('clean');
      expect(noBookmarks.events.map((e) => e.type)).toEqual(['ADDED']);
      const noMatch = await watch(s, `${PODS}?watch=1&sendInitialEvents=true&allowWatchBookmarks=true`).catch(
        (e) => e,
      );
      expect(noMatch.status).toBe(422);
      // Every error at once, as validation.go `validateWatchOptions`.
      const exact = await watch(
        s,
        `${PODS}?watch=1&sendInitialEvents=true&resourceVersionMatch=Exact&resourceVersion=1`,
      ).catch((e) => e);
      expect(exact.status).toBe(422);
      expect(exact.body.details.causes.map((c: { reason: string }) => c.reason)).toEqual([
        'FieldValueForbidden',
        'FieldValueNotSupported',
      ]);
      const off = await server({ noWatchList: true });
      const refused = await watch(off, STREAM).catch((e) => e);
      expect(refused.status).toBe(422);
      expect(refused.body.reason).toBe('Invalid');
    });

    it('a legacy watch (resourceVersion unset or "0") with bookmarks ends its initial events with the marker', async () => {
      // SetListOptionsDefaults turns it into a streaming list (internalversion/defaults.go).
      const s = await server();
      await createPod(s, 'a');
      for (const rv of ['', '&resourceVersion=0']) {
        const w = await watch(s, `${PODS}?watch=1&allowWatchBookmarks=true${rv}`);
        expect((await w.next()).type).toBe('ADDED');
        const end = await w.next();
        expect(end.type).toBe('BOOKMARK');
        expect(end.object.metadata?.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
        w.close();
      }
    });

    it('malformed parameters: a resourceVersion Go cannot parse is a bare 500, a bad timeoutSeconds a 400', async () => {
      const s = await server();
      const rv = await watch(s, `${PODS}?watch=1&resourceVersion=abc`).catch((e) => e);
      expect(rv.status).toBe(500);
      expect(rv.body.reason).toBeUndefined();
      expect(rv.body.message).toBe(
        'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
      );
      const timeout = await watch(s, `${PODS}?watch=1&timeoutSeconds=x`).catch((e) => e);
      expect(timeout.status).toBe(400);
      expect(timeout.body.message).toBe('strconv.ParseInt: parsing "x": invalid syntax');
    });
  });

  describe('watch: selectors', () => {
    it('an object that starts matching arrives as ADDED, one that stops as DELETED with its old content', async () => {
      const s = await server();
      await createPod(s, 'p', { labels: { app: 'web' } });
      const w = await watch(
        s,
        `${PODS}?watch=1&resourceVersion=${s.latestRevision()}&labelSelector=app%3Dweb`,
      );
      const patch = (labels: Record<string, string | null>) =>
        call(s, 'PATCH', `${PODS}/p`, {
          body: { metadata: { labels } },
          headers: { 'content-type': 'application/merge-patch+json' },
        });
      const moved = await patch({ app: 'db' });
      const gone = await w.next();
      expect(gone.type).toBe('DELETED');
      expect(gone.object.metadata?.labels).toEqual({ app: 'web' });
      expect(gone.object.metadata?.resourceVersion).toBe(moved.body.metadata.resourceVersion);
      await patch({ app: 'web' });
      expect((await w.next()).type).toBe('ADDED');
      await patch({ app: 'web', v: '2' });
      expect((await w.next()).type).toBe('MODIFIED');
      w.close();
    });

    it('field selectors filter by spec.nodeName and metadata.name; unknown fields are a 400', async () => {
      const s = await server();
      const w = await watch(
        s,
        `${PODS}?watch=1&resourceVersion=${s.latestRevision()}&fieldSelector=spec.nodeName%3Dn1`,
      );
      await createPod(s, 'x', { nodeName: 'n2' });
      await createPod(s, 'y', { nodeName: 'n1' });
      expect((await w.next()).object.metadata?.name).toBe('y');
      w.close();
      const bad = await call(s, 'GET', `${PODS}?fieldSelector=spec.colour%3Dred`);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/spec\.colour/);
      const badLabel = await call(s, 'GET', `${PODS}?labelSelector=a%20in%20(`);
      expect(badLabel.status).toBe(400);
    });
  });

  describe('watch: faults', () => {
    it('drop-watches cuts every stream mid-flight', async () => {
      const s = await server();
      const w = await watch(s, `${PODS}?watch=1`);
      const r = await call(s, 'POST', '/debug/watchmark/drop-watches');
      expect(r.body).toEqual({ droppedWatches: 1 });
      expect(await w.ended).toBe('aborted');
    });

    it('timeoutSeconds ends the stream with no terminal event', async () => {
      const s = await server();
      const w = await watch(s, `${PODS}?watch=1&timeoutSeconds=1`);
      expect(await w.ended).toBe('clean');
      expect(w.events).toEqual([]);
    });

    it('close() ends open watches cleanly', async () => {
      const s = await startOwned();
      const w = await watch(s, '/api/v1/pods?watch=1');
      await s.close();
      expect(await w.ended).toBe('clean');
    });
  });
});
