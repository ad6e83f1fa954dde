/**
 * Several API servers over one etcd: one logical API. What only a real,
 * shared store can show: a write through one server reaches watchers on all
 * with the same resourceVersion, data outlives a server, concurrent writers
 * through different servers never lose an update, compaction happens once per
 * interval however many servers tick, and etcd's own limits become Statuses.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import {
  generateCertificateAuthority,
  generateServingCertificates,
  issueClientCertificate,
} from '../../../src/server/pki/tls.js';
import { Compactor } from '../../../src/server/stores/compaction.js';
import type { EtcdStore } from '../../../src/server/stores/etcd.js';
import { etcdAvailable, settled, uniquePrefix, useEtcd } from '../../helpers/etcd.js';
import { call, ensureNamespace, pod, startTestServer, watch } from '../../helpers/server.js';

const PODS = '/api/v1/namespaces/demo/pods';

describe.skipIf(!etcdAvailable)('several API servers over one etcd', () => {
  const etcd = useEtcd();
  const opened: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    // Servers first (they stop watching), then their stores.
    for (const r of opened.splice(0).reverse()) await r.close();
  });

  /** A server over its own store on `prefix` (both closed after the test). */
  async function serverOn(prefix: string, opts: Parameters<typeof startTestServer>[0] = {}) {
    const store = etcd.newStore({ prefix });
    opened.push(store);
    const server = await startTestServer({ ...opts, store });
    opened.push(server);
    return { server, store };
  }

  it('a write through one server reaches watchers on every server, with the same resourceVersion', async () => {
    const prefix = uniquePrefix();
    const { server: a } = await serverOn(prefix);
    const { server: b } = await serverOn(prefix);
    await ensureNamespace(a, 'demo');
    await settled(b);
    const onB = await watch(
      b,
      `${PODS}?watch=1&resourceVersion=${b.latestRevision()}&allowWatchBookmarks=true`,
    );
    const onA = await watch(a, `${PODS}?watch=1&resourceVersion=${a.latestRevision()}`);
    const created = await call(a, 'POST', PODS, { body: pod('p') });
    expect(created.status, created.text).toBe(201);
    const [eb, ea] = [await onB.next(), await onA.next()];
    expect([eb.type, ea.type]).toEqual(['ADDED', 'ADDED']);
    expect(eb.object.metadata?.resourceVersion).toBe(created.body.metadata.resourceVersion);
    expect(ea.object.metadata?.resourceVersion).toBe(created.body.metadata.resourceVersion);
    // A write to another resource through A still moves B's bookmarks: one store watch feeds every cache.
    const cm = await call(a, 'POST', '/api/v1/namespaces/demo/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
    });
    const bookmark = await onB.until((e) => e.type === 'BOOKMARK', 3000);
    expect(Number(bookmark.object.metadata?.resourceVersion)).toBeGreaterThanOrEqual(
      Number(cm.body.metadata.resourceVersion),
    );
    const got = await call(b, 'GET', `${PODS}/p`);
    expect(got.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
    onA.close();
    onB.close();
  });

  it('data survives a server restart, and resourceVersions keep growing', async () => {
    const prefix = uniquePrefix();
    const first = await serverOn(prefix);
    await ensureNamespace(first.server, 'demo');
    const rvs: number[] = [];
    for (const name of ['a', 'b', 'c']) {
      const r = await call(first.server, 'POST', PODS, { body: pod(name) });
      rvs.push(Number(r.body.metadata.resourceVersion));
    }
    await first.server.close();
    await first.store.close();
    const second = await serverOn(prefix);
    const list = await call(second.server, 'GET', PODS);
    expect(list.body.items.map((p: any) => [p.metadata.name, Number(p.metadata.resourceVersion)])).toEqual([
      ['a', rvs[0]],
      ['b', rvs[1]],
      ['c', rvs[2]],
    ]);
    const cached = await call(second.server, 'GET', `${PODS}?resourceVersion=0`);
    expect(cached.body.items).toHaveLength(3);
    const next = await call(second.server, 'POST', PODS, { body: pod('d') });
    expect(Number(next.body.metadata.resourceVersion)).toBeGreaterThan(Math.max(...rvs));
    expect(Number(list.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(rvs[2]);
  });

  it('concurrent conflicting updates through two servers: exactly one wins, the other gets 409, nothing is lost', async () => {
    const prefix = uniquePrefix();
    const { server: a } = await serverOn(prefix);
    const { server: b } = await serverOn(prefix);
    await ensureNamespace(a, 'demo');
    await call(a, 'POST', PODS, { body: pod('p') });
    // The same resourceVersion sent through both servers at once: one 200, one 409.
    let wins = 0;
    for (let round = 0; round < 10; round++) {
      const current = (await call(a, 'GET', `${PODS}/p`)).body;
      const put = (s: RunningServer, who: string) => {
        const body = structuredClone(current);
        body.metadata.labels = { writer: who, round: String(round) };
        return call(s, 'PUT', `${PODS}/p`, { body });
      };
      const answers = await Promise.all([put(a, 'a'), put(b, 'b')]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(answers.find((r) => r.status === 409)!.body.reason).toBe('Conflict');
      const winner = answers.find((r) => r.status === 200)!;
      const now = (await call(b, 'GET', `${PODS}/p`)).body;
      expect(now.metadata.labels).toEqual(winner.body.metadata.labels);
      expect(now.metadata.resourceVersion).toBe(winner.body.metadata.resourceVersion);
      wins++;
    }
    expect(wins).toBe(10);
    // Read-modify-write counters through both servers, retrying on 409: no increment is lost.
    const bump = async (s: RunningServer, times: number) => {
      for (let i = 0; i < times; ) {
        const cur = (await call(s, 'GET', `${PODS}/p`)).body;
        cur.metadata.annotations = { count: String(Number(cur.metadata.annotations?.count ?? 0) + 1) };
        const r = await call(s, 'PUT', `${PODS}/p`, { body: cur });
        if (r.status === 200) i++;
        else expect(r.status, r.text).toBe(409);
      }
    };
    await Promise.all([bump(a, 25), bump(b, 25)]);
    expect((await call(a, 'GET', `${PODS}/p`)).body.metadata.annotations.count).toBe('50');
  });

  it('compacts once per interval however many servers tick, keeping the last interval readable', async () => {
    const prefix = uniquePrefix();
    const { server: a, store: storeA } = await serverOn(prefix);
    const storeB = etcd.newStore({ prefix });
    opened.push(storeB);
    const [ca, cb] = [new Compactor(storeA), new Compactor(storeB)];
    await ensureNamespace(a, 'demo');
    // First interval: both tick; A claims the key, B learns it lost. Nothing is compacted yet.
    await ca.tick();
    const r1 = await storeA.currentRevision();
    await cb.tick();
    await call(a, 'POST', PODS, { body: pod('x') });
    // Second interval: A's turn again compacts to what it saw at its previous tick.
    await ca.tick();
    await cb.tick();
    expect(await storeA.compactedRevision()).toBe(r1);
    await expect(storeB.list('/', { revision: r1 - 1 })).rejects.toMatchObject({ code: 'compacted' });
    await expect(storeB.list('/', { revision: r1 })).resolves.toBeDefined();
    // Claim + one compaction: B never won an interval A had already taken.
    expect(await compactKeyVersion(storeA)).toBe(2);
  });

  describe('with etcd at its default 1.5 MiB request limit', () => {
    const small = useEtcd({ maxRequestBytes: 1_572_864 });
    it('an object etcd refuses is a 413 that says why', async () => {
      const store = small.newStore();
      opened.push(store);
      const s = await startTestServer({ store });
      opened.push(s);
      await ensureNamespace(s, 'demo');
      // Under the server's 3 MiB body limit and every validation limit, over etcd's 1.5 MiB:
      // etcd's own check answers up to 2 MiB, its gRPC layer beyond.
      for (const kib of [1700, 2100]) {
        const big = pod(`big${kib}`);
        (big.spec.containers![0] as Record<string, unknown>).args = Array(kib).fill('x'.repeat(1024));
        const r = await call(s, 'POST', PODS, { body: big });
        expect(r.status, r.text).toBe(413);
        expect(r.body).toMatchObject({ kind: 'Status', reason: 'RequestEntityTooLarge', code: 413 });
        expect(r.body.message).toMatch(
          /etcd refused the object: it is over etcd's --max-request-bytes \(.*(request is too large|larger than max)/,
        );
      }
      expect((await call(s, 'POST', PODS, { body: pod('small') })).status).toBe(201);
    });
  });
});

describe.skipIf(!etcdAvailable)('etcd over TLS with client certificates', () => {
  const dir = mkdtempSync(join(tmpdir(), 'watchmark-etcd-tls-'));
  const files = {
    cert: join(dir, 'server.crt'),
    key: join(dir, 'server.key'),
    clientCa: join(dir, 'client-ca.crt'),
  };
  const pems: { ca?: string; clientCert?: string; clientKey?: string } = {};
  beforeAll(async () => {
    const serving = await generateServingCertificates({ hosts: ['127.0.0.1'] });
    const clientCa = await generateCertificateAuthority('etcd-client-ca', {});
    const client = await issueClientCertificate(clientCa, { commonName: 'watchmark' });
    writeFileSync(files.cert, serving.certPem);
    writeFileSync(files.key, serving.keyPem);
    writeFileSync(files.clientCa, clientCa.certPem);
    Object.assign(pems, { ca: serving.caCertPem, clientCert: client.certPem, clientKey: client.keyPem });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const etcd = useEtcd({
    clientTls: { certFile: files.cert, keyFile: files.key, clientCaFile: files.clientCa },
  });

  it('serves over https members with --etcd-cafile/--etcd-certfile/--etcd-keyfile', async () => {
    expect(etcd.cluster.endpoints[0]).toMatch(/^https:/);
    const s = await startTestServer({
      etcd: {
        endpoints: etcd.cluster.endpoints,
        prefix: uniquePrefix(),
        tls: { caPem: pems.ca, certPem: pems.clientCert, keyPem: pems.clientKey },
      },
    });
    try {
      await ensureNamespace(s, 'demo');
      const w = await watch(s, `${PODS}?watch=1&resourceVersion=${await settled(s)}`);
      const r = await call(s, 'POST', PODS, { body: pod('secure') });
      expect(r.status, r.text).toBe(201);
      expect((await w.next()).object.metadata?.resourceVersion).toBe(r.body.metadata.resourceVersion);
      w.close();
    } finally {
      await s.close();
    }
  });
});

/** The compaction key's version: how many compare-and-swaps won (one claim, then one per compaction). */
async function compactKeyVersion(store: EtcdStore): Promise<number> {
  // A turn that can never be ours (no version is -1) only reads the key's version.
  return (await store.compactIfTurn(-1, 0)).version;
}
