/**
 * REST over real HTTP, lists by resourceVersion: what kube-apiserver answers, Status bodies included
 * (fixture.ts holds what the REST suites share; watch rules live in ../watch-protocol/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../../src/server/index.js';
import type { Store } from '../../../../src/server/stores/types.js';
import { STORE_KINDS, useStores } from '../../../helpers/etcd.js';
import { type Answer, call, pod, startTestServer } from '../../../helpers/server.js';
import { expectStatus, MERGE, pods, restHelpers, stats } from './fixture.js';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});
const { freshNamespace, created } = restHelpers(() => s);

/**
 * The list rules run against every store (memory, and a real etcd when
 * available): the store answers consistent, exact and continue reads itself,
 * so these are the rules an etcd-backed server must keep too.
 */
describe.each(STORE_KINDS)('list: resourceVersion semantics (%s store)', (kind) => {
  const stores = useStores(kind);
  let shared: RunningServer;
  let store: Store;
  beforeAll(async () => {
    shared = s;
    store = stores.newStore();
    s = await startTestServer({ store });
  });
  afterAll(async () => {
    await s.close();
    await store.close();
    s = shared;
  });

  const names = (r: Answer) => r.body.items.map((i: any) => i.metadata.name);

  it('unset is a consistent read, "0" serves the cache, N is not older than N', async () => {
    const ns = await freshNamespace();
    const a = await created(pods(ns), pod('a'));
    const b = await created(pods(ns), pod('b'));
    const before = await stats(s);
    const consistent = await call(s, 'GET', pods(ns));
    expect(consistent.body).toMatchObject({ kind: 'PodList', apiVersion: 'v1' });
    expect(names(consistent)).toEqual(['a', 'b']);
    // The store's revision at the read: at least the last write's.
    expect(Number(consistent.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(
      Number(b.metadata.resourceVersion),
    );
    const cached = await call(s, 'GET', `${pods(ns)}?resourceVersion=0`);
    expect(names(cached)).toEqual(['a', 'b']);
    const notOlder = await call(s, 'GET', `${pods(ns)}?resourceVersion=${a.metadata.resourceVersion}`);
    expect(names(notOlder)).toEqual(['a', 'b']);
    expect(Number(notOlder.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(
      Number(a.metadata.resourceVersion),
    );
    const explicit = await call(
      s,
      'GET',
      `${pods(ns)}?resourceVersion=${a.metadata.resourceVersion}&resourceVersionMatch=NotOlderThan`,
    );
    expect(names(explicit)).toEqual(['a', 'b']);
    const explicitZero = await call(
      s,
      'GET',
      `${pods(ns)}?resourceVersion=0&resourceVersionMatch=NotOlderThan`,
    );
    expect(names(explicitZero)).toEqual(['a', 'b']);
    const after = await stats(s);
    expect(after.lists.consistent - before.lists.consistent).toBe(1);
    expect(after.lists.cache - before.lists.cache).toBe(2);
    expect(after.lists.notOlderThan - before.lists.notOlderThan).toBe(2);
  });

  it('N newer than the server has is a 504 after waiting', async () => {
    const ns = await freshNamespace();
    const r = await call(s, 'GET', `${pods(ns)}?resourceVersion=99999999`);
    expectStatus(r, 504, 'Timeout');
    expect(r.body.details.causes).toEqual([
      { reason: 'ResourceVersionTooLarge', message: 'Too large resource version' },
    ]);
  });

  it('a limit with N, or resourceVersionMatch=Exact, reads exactly N; 410 once compacted', async () => {
    const ns = await freshNamespace();
    const a = await created(pods(ns), pod('a'));
    await created(pods(ns), pod('b'));
    await call(s, 'PATCH', `${pods(ns)}/a`, { body: { metadata: { labels: { v: '2' } } }, headers: MERGE });
    const rv = a.metadata.resourceVersion;
    const exact = await call(s, 'GET', `${pods(ns)}?limit=10&resourceVersion=${rv}`);
    expect(exact.status, exact.text).toBe(200);
    expect(names(exact)).toEqual(['a']);
    expect(exact.body.metadata.resourceVersion).toBe(rv);
    expect(exact.body.items[0].metadata.labels).toBeUndefined();
    const matched = await call(s, 'GET', `${pods(ns)}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect(names(matched)).toEqual(['a']);
    const compact = await call(s, 'POST', '/debug/watchmark/compact');
    expect(compact.status).toBe(200);
    const gone = await call(s, 'GET', `${pods(ns)}?limit=10&resourceVersion=${rv}`);
    expectStatus(gone, 410, 'Expired');
    expect(gone.body.message).toMatch(new RegExp(`^too old resource version: ${rv} \\(\\d+\\)$`));
    expectStatus(
      await call(s, 'GET', `${pods(ns)}?resourceVersion=${rv}&resourceVersionMatch=Exact`),
      410,
      'Expired',
    );
    // RV "0" with a limit still serves the cache.
    expect(names(await call(s, 'GET', `${pods(ns)}?limit=10&resourceVersion=0`))).toEqual(['a', 'b']);
  });

  it('refuses the invalid combinations: 422 for ListOptions validation, 400 for the rest', async () => {
    const ns = await freshNamespace();
    await created(pods(ns), pod('a'));
    await created(pods(ns), pod('b'));
    const page = await call(s, 'GET', `${pods(ns)}?limit=1`);
    const token = encodeURIComponent(page.body.metadata.continue);
    // validation.go `ValidateListOptions`: every error at once, a 422.
    const invalid = [
      'resourceVersionMatch=NotOlderThan',
      'resourceVersionMatch=Exact',
      `resourceVersionMatch=NotOlderThan&resourceVersion=0&continue=${token}`,
      'resourceVersion=0&resourceVersionMatch=Exact',
      'resourceVersion=1&resourceVersionMatch=Newest',
      'sendInitialEvents=true',
    ];
    for (const q of invalid) expectStatus(await call(s, 'GET', `${pods(ns)}?${q}`), 422, 'Invalid');
    const bad = [
      `continue=${token}&resourceVersion=5`,
      'resourceVersion=abc',
      'resourceVersion=-1',
      'limit=ten',
      'limit=1.5',
      'continue=garbage',
    ];
    for (const q of bad) expectStatus(await call(s, 'GET', `${pods(ns)}?${q}`), 400, 'BadRequest');
    const rv = await call(s, 'GET', `${pods(ns)}?resourceVersion=abc`);
    expect(rv.body.message).toBe(
      'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
    );
    // RV "0" beside continue is what client-go's pager sends: allowed.
    expect((await call(s, 'GET', `${pods(ns)}?limit=1&resourceVersion=0&continue=${token}`)).status).toBe(
      200,
    );
  });

  it('limit + continue returns every item exactly once, with and without a label selector', async () => {
    const ns = await freshNamespace();
    const all: string[] = [];
    for (let i = 0; i < 23; i++) {
      const name = `p${String(i).padStart(2, '0')}`;
      all.push(name);
      await created(pods(ns), pod(name, { labels: { parity: i % 2 === 0 ? 'even' : 'odd' } }));
    }
    for (const [selector, expected] of [
      ['', all],
      ['parity=even', all.filter((_, i) => i % 2 === 0)],
      ['parity=odd', all.filter((_, i) => i % 2 === 1)],
    ] as const) {
      for (const rv of ['', '0']) {
        for (const limit of [1, 4, 7, 100]) {
          const seen: string[] = [];
          let token: string | undefined;
          let listRV: string | undefined;
          let pages = 0;
          do {
            const q = new URLSearchParams({ limit: String(limit) });
            if (selector) q.set('labelSelector', selector);
            if (token) q.set('continue', token);
            else if (rv) q.set('resourceVersion', rv);
            const r = await call(s, 'GET', `${pods(ns)}?${q}`);
            expect(r.status, r.text).toBe(200);
            // resourceVersion "0" is served from the cache, which ignores the limit (cacher.go).
            if (rv === '0') expect(r.body.items.length).toBe(expected.length);
            else expect(r.body.items.length).toBeLessThanOrEqual(limit);
            listRV ??= r.body.metadata.resourceVersion;
            expect(r.body.metadata.resourceVersion).toBe(listRV);
            seen.push(...names(r));
            token = r.body.metadata.continue || undefined;
            if (token && !selector) {
              expect(r.body.metadata.remainingItemCount).toBe(expected.length - seen.length);
            }
            if (!token) expect(r.body.metadata.remainingItemCount).toBeUndefined();
            expect(++pages).toBeLessThan(50);
          } while (token);
          expect(seen, `selector=${selector} rv=${rv} limit=${limit}`).toEqual([...expected]);
        }
      }
    }
  });

  it('a continue token keeps its snapshot: writes after the first page do not show', async () => {
    const ns = await freshNamespace();
    for (const n of ['a', 'b', 'c']) await created(pods(ns), pod(n));
    const first = await call(s, 'GET', `${pods(ns)}?limit=2`);
    await created(pods(ns), pod('d'));
    await call(s, 'DELETE', `${pods(ns)}/c`);
    const second = await call(s, 'GET', `${pods(ns)}?limit=2&continue=${first.body.metadata.continue}`);
    expect(second.status, second.text).toBe(200);
    expect(second.body.items.map((i: any) => i.metadata.name)).toEqual(['c']);
    expect(second.body.metadata.continue).toBeUndefined();
  });

  it('an expired continue token is a 410 with a token to go on inconsistently, a garbage one a 400', async () => {
    const ns = await freshNamespace();
    for (const n of ['a', 'b', 'c']) await created(pods(ns), pod(n));
    const first = await call(s, 'GET', `${pods(ns)}?limit=1`);
    const token = first.body.metadata.continue;
    expect(token).toBeTruthy();
    await call(s, 'PATCH', `${pods(ns)}/b`, { body: { metadata: { labels: { x: 'y' } } }, headers: MERGE });
    await call(s, 'POST', '/debug/watchmark/compact');
    const expired = await call(s, 'GET', `${pods(ns)}?limit=1&continue=${token}`);
    expectStatus(expired, 410, 'Expired');
    expect(expired.body.message).toContain('continue parameter is too old');
    // etcd3's handleCompactedErrorForPaging: the 410 carries a token that goes on from the same
    // key at the latest revision, an inconsistent list the client may choose (e2e's API chunking
    // conformance test takes it).
    expect(expired.body.message).toContain('or use the continue token in this response');
    const inconsistent = expired.body.metadata.continue;
    expect(JSON.parse(Buffer.from(inconsistent, 'base64url').toString())).toMatchObject({ rv: -1 });
    await created(pods(ns), pod('d'));
    const rest = await call(s, 'GET', `${pods(ns)}?limit=5&continue=${inconsistent}`);
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.items.map((i: any) => i.metadata.name)).toEqual(['b', 'c', 'd']);
    expect(Number(rest.body.metadata.resourceVersion)).toBeGreaterThan(
      Number(first.body.metadata.resourceVersion),
    );
    for (const garbage of ['garbage', '%%%', Buffer.from('{"v":"x"}').toString('base64url'), 'e30']) {
      const r = await call(s, 'GET', `${pods(ns)}?limit=1&continue=${encodeURIComponent(garbage)}`);
      expectStatus(r, 400, 'BadRequest');
    }
  });

  it('lists every namespace at /api/v1/pods, with selectors', async () => {
    const ns1 = await freshNamespace();
    const ns2 = await freshNamespace();
    await created(pods(ns1), pod('x', { labels: { cross: 'yes' } }));
    await created(pods(ns2), pod('x', { labels: { cross: 'yes' } }));
    await created(pods(ns2), pod('y'));
    const r = await call(s, 'GET', '/api/v1/pods?labelSelector=cross%3Dyes');
    expect(r.status, r.text).toBe(200);
    expect(r.body.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`)).toEqual([
      `${ns1}/x`,
      `${ns2}/x`,
    ]);
    // Pages across namespaces, in namespace/name order.
    const seen: string[] = [];
    let token = '';
    do {
      const page = await call(s, 'GET', `/api/v1/pods?limit=1&labelSelector=cross%3Dyes${token}`);
      expect(page.status, page.text).toBe(200);
      seen.push(...page.body.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`));
      token = page.body.metadata.continue ? `&continue=${page.body.metadata.continue}` : '';
    } while (token);
    expect(seen).toEqual([`${ns1}/x`, `${ns2}/x`]);
    const byField = await call(s, 'GET', `/api/v1/pods?fieldSelector=metadata.namespace%3D${ns2}`);
    expect(byField.body.items).toHaveLength(2);
    expectStatus(await call(s, 'GET', '/api/v1/pods?fieldSelector=spec.bogus%3Dx'), 400, 'BadRequest');
    expectStatus(await call(s, 'GET', '/api/v1/pods?labelSelector=a%20in%20(b'), 400, 'BadRequest');
  });
});
