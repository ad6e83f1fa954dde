/**
 * REST over real HTTP, the stats of lists and writes: what kube-apiserver answers, Status bodies included
 * (fixture.ts holds what the REST suites share; watch rules live in ../watch-protocol/).
 */
import { describe, expect, it } from 'vitest';
import { call, ensureNamespace, pod, startTestServer } from '../../../helpers/server.js';
import { pods, stats } from './fixture.js';

describe('stats', () => {
  it('count lists by mode and the objects they returned', async () => {
    const server = await startTestServer();
    try {
      await ensureNamespace(server, 'st');
      for (const n of ['a', 'b', 'c']) {
        expect((await call(server, 'POST', pods('st'), { body: pod(n) })).status).toBe(201);
      }
      const before = await stats(server);
      await call(server, 'GET', pods('st'));
      await call(server, 'GET', `${pods('st')}?resourceVersion=0`);
      await call(server, 'GET', `${pods('st')}?resourceVersion=0&limit=2`);
      const page = await call(server, 'GET', `${pods('st')}?limit=2`);
      await call(server, 'GET', `${pods('st')}?limit=2&continue=${page.body.metadata.continue}`);
      await call(
        server,
        'GET',
        `${pods('st')}?limit=5&resourceVersion=${page.body.metadata.resourceVersion}`,
      );
      const after = await stats(server);
      const delta = (k: string) => [
        after.lists[k] - before.lists[k],
        after.listObjects[k] - before.listObjects[k],
      ];
      expect(delta('consistent')).toEqual([2, 5]);
      expect(delta('cache')).toEqual([2, 6]); // rv=0 ignores the limit: 3 + 3
      expect(delta('continue')).toEqual([1, 1]);
      expect(delta('exact')).toEqual([1, 3]);
      expect(after.writes).toBe(before.writes);
      expect(after.requests).toBeGreaterThan(before.requests);
      await call(server, 'GET', `${pods('st')}/nope`);
      const errors = await stats(server);
      expect(errors.requestErrors).toBe(after.requestErrors + 1);
      // A pod's DELETE is two writes, as kube-apiserver makes it: the deletionTimestamp mark
      // (grace 0), then the removal.
      await call(server, 'DELETE', `${pods('st')}/a`);
      expect((await stats(server)).writes).toBe(after.writes + 2);
    } finally {
      await server.close();
    }
  });
});
