/**
 * The watch rules of kube-apiserver over real HTTP, streaming lists (sendInitialEvents), for EVERY store: the same
 * definitions run on the in-memory store and on a real etcd (one etcd per run, a key prefix per
 * server); fixture.ts starts the servers.
 */
import { describe, expect, it } from 'vitest';
import { STORE_KINDS } from '../../../helpers/etcd.js';
import { watch } from '../../../helpers/server.js';
import { PODS, watchServers } from './fixture.js';

describe.each(STORE_KINDS)('watch protocol over the %s store', (kind) => {
  const { server, createPod } = watchServers(kind);

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
});
