/**
 * The watch rules of kube-apiserver over real HTTP, faults, for EVERY store: the same
 * definitions run on the in-memory store and on a real etcd (one etcd per run, a key prefix per
 * server); fixture.ts starts the servers.
 */
import { describe, expect, it } from 'vitest';
import { STORE_KINDS } from '../../../helpers/etcd.js';
import { call, watch } from '../../../helpers/server.js';
import { PODS, watchServers } from './fixture.js';

describe.each(STORE_KINDS)('watch protocol over the %s store', (kind) => {
  const { startOwned, server } = watchServers(kind);

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
