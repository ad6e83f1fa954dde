/**
 * The watch rules of kube-apiserver over real HTTP, selectors, for EVERY store: the same
 * definitions run on the in-memory store and on a real etcd (one etcd per run, a key prefix per
 * server); fixture.ts starts the servers.
 */
import { describe, expect, it } from 'vitest';
import { STORE_KINDS } from '../../../helpers/etcd.js';
import { call, watch } from '../../../helpers/server.js';
import { PODS, watchServers } from './fixture.js';

describe.each(STORE_KINDS)('watch protocol over the %s store', (kind) => {
  const { server, createPod } = watchServers(kind);

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
});
