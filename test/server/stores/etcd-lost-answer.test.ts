/**
 * A write whose answer is lost on the way back from etcd (its member died
 * after committing it, the connection reset) is settled from the key's
 * history before it is sent again, so the caller gets the write's real
 * outcome: a create that committed answers with its revision, not 409
 * AlreadyExists from its own resend; a delete that committed answers with
 * the deleted value, not 404. Found by the HA test under load (a POST
 * answered "pods p81 already exists" for a pod it had just created).
 *
 * A TCP proxy between the store and a real etcd swallows the answers (or the
 * requests), a second store straight to etcd sees what committed, and the
 * proxy then resets the connection, as a dying member does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../../src/server/index.js';
import type { EtcdStore } from '../../../src/server/stores/etcd.js';
import { StoreError } from '../../../src/server/stores/types.js';
import { etcdAvailable, uniquePrefix, useEtcd } from '../../helpers/etcd.js';
import { call, ensureNamespace, pod } from '../../helpers/server.js';
import { TcpProxy } from '../../helpers/tcp-proxy.js';
import { waitUntil } from '../../helpers/wait.js';

describe.skipIf(!etcdAvailable)('a write whose answer from etcd is lost', () => {
  const etcd = useEtcd();
  let proxy: TcpProxy;
  let store: EtcdStore;
  let direct: EtcdStore;

  async function open(): Promise<void> {
    proxy = await TcpProxy.start(etcd.cluster.endpoints[0]);
    const prefix = uniquePrefix();
    store = etcd.newStore({ endpoints: [proxy.url], prefix });
    direct = etcd.newStore({ prefix });
    await store.currentRevision();
  }

  afterEach(async () => {
    await store.close();
    await direct.close();
    await proxy.close();
  });

  /**
   * Runs `write` with the answers (`down`) or the requests (`up`) swallowed
   * until `until` holds, then resets the connection; answers what `write` did.
   */
  async function lose<T>(
    direction: 'up' | 'down',
    write: () => Promise<T>,
    until: () => Promise<boolean>,
    what: string,
  ): Promise<T> {
    proxy.swallow = direction;
    const pending = write();
    pending.catch(() => {});
    await waitUntil(until, what);
    proxy.swallow = undefined;
    proxy.resetAll();
    return pending;
  }

  /** {@link lose} for answers, until the write shows in etcd. */
  const loseAnswer = <T>(write: () => Promise<T>, committed: () => Promise<boolean>, what: string) =>
    lose('down', write, committed, what);

  const somethingSwallowed = async () => proxy.swallowed > 0;

  it('a create that committed answers with its own revision, once, instead of 409 from its resend', async () => {
    await open();
    const value = JSON.stringify({ metadata: { name: 'a', uid: 'u-1' } });
    const kv = await loseAnswer(
      () => store.create('/pods/demo/a', value),
      async () => (await direct.get('/pods/demo/a')) !== undefined,
      'the create committed in etcd',
    );
    const stored = await direct.get('/pods/demo/a');
    expect(stored?.value).toBe(value);
    expect(kv).toEqual({
      key: '/pods/demo/a',
      value,
      modRevision: stored?.modRevision,
      createRevision: stored?.createRevision,
    });
    expect(stored?.createRevision).toBe(stored?.modRevision);
  });

  it("a create of a key that is someone else's still answers exists", async () => {
    await open();
    await direct.create('/pods/demo/b', '{"uid":"theirs"}');
    const before = await direct.currentRevision();
    // Whether etcd refused it before the reset or refuses the resend, the answer is the same.
    const pending = lose(
      'down',
      () => store.create('/pods/demo/b', '{"uid":"mine"}'),
      somethingSwallowed,
      'an answer swallowed',
    );
    await expect(pending).rejects.toMatchObject({ code: 'exists' });
    expect((await direct.get('/pods/demo/b'))?.value).toBe('{"uid":"theirs"}');
    expect(await direct.currentRevision()).toBe(before);
  });

  it('an update that committed answers with its revision instead of 409', async () => {
    await open();
    const created = await store.create('/pods/demo/c', '{"v":1}');
    const kv = await loseAnswer(
      () => store.update('/pods/demo/c', '{"v":2}', created.modRevision),
      async () => (await direct.get('/pods/demo/c'))?.value === '{"v":2}',
      'the update committed in etcd',
    );
    const stored = await direct.get('/pods/demo/c');
    expect(kv).toEqual({
      key: '/pods/demo/c',
      value: '{"v":2}',
      modRevision: stored?.modRevision,
      createRevision: created.createRevision,
    });
  });

  it('a delete that committed answers with the deleted value and its revision instead of 404', async () => {
    await open();
    const created = await store.create('/pods/demo/d', '{"v":1}');
    // Later changes to other keys: the delete's revision is found among them.
    for (let i = 0; i < 5; i++) await direct.create(`/pods/demo/other-${i}`, '{}');
    const kv = await loseAnswer(
      () => store.delete('/pods/demo/d', created.modRevision),
      async () => (await direct.get('/pods/demo/d')) === undefined,
      'the delete committed in etcd',
    );
    const deletedAt = await direct.currentRevision();
    expect(kv).toEqual({
      key: '/pods/demo/d',
      value: '{"v":1}',
      modRevision: deletedAt,
      createRevision: created.createRevision,
    });
    // The history agrees: just before the delete the key was there, at it gone.
    expect(await direct.get('/pods/demo/d', deletedAt - 1)).toMatchObject({ value: '{"v":1}' });
  });

  it('a create that never reached etcd is sent again and applies once', async () => {
    await open();
    const kv = await lose(
      'up',
      () => store.create('/pods/demo/e', '{"uid":"e"}'),
      somethingSwallowed,
      'the create swallowed',
    );
    const stored = await direct.get('/pods/demo/e');
    expect(kv.modRevision).toBe(stored?.modRevision);
    expect(stored?.createRevision).toBe(stored?.modRevision);
  });

  it('when the history that would tell is compacted, the error says the outcome is unknown', async () => {
    await open();
    const created = await store.create('/pods/demo/f', '{"v":1}');
    const kv = loseAnswer(
      () => store.update('/pods/demo/f', '{"v":2}', created.modRevision),
      async () => {
        if ((await direct.get('/pods/demo/f'))?.value !== '{"v":2}') return false;
        // Another change after it, then compaction past the update's revision.
        await direct.create('/pods/demo/f-later', '{}');
        await direct.compact(await direct.currentRevision());
        return true;
      },
      'the update committed and compacted away',
    );
    await expect(kv).rejects.toSatisfy(
      (err: unknown) => err instanceof StoreError && /may or may not have been applied/.test(err.message),
    );
  });

  it('through the API: a POST whose pod committed answers 201 with it, not 409 AlreadyExists', async () => {
    await open();
    const server = await startServer({ disableAdmissionPlugins: ['ServiceAccount'], port: 0, store });
    try {
      await ensureNamespace(server, 'demo');
      // Every read before the create is answered; the create's own answer, and all after it, are lost.
      proxy.loseAnswersFrom = Buffer.from('lost-answer-marker');
      const posted = call(server, 'POST', '/api/v1/namespaces/demo/pods', {
        body: pod('p81', { namespace: 'demo', labels: { marker: 'lost-answer-marker' } }),
      });
      await waitUntil(
        async () => proxy.swallowed > 0 && (await direct.get('/core/pods/demo/p81')) !== undefined,
        'the pod committed in etcd, its answer swallowed',
      );
      proxy.swallow = undefined;
      proxy.resetAll();
      const r = await posted;
      expect(r.status, r.text).toBe(201);
      const got = await call(server, 'GET', '/api/v1/namespaces/demo/pods/p81');
      expect(got.body.metadata.uid).toBe(r.body.metadata.uid);
      expect(got.body.metadata.resourceVersion).toBe(r.body.metadata.resourceVersion);
    } finally {
      await server.close();
    }
  });
});
