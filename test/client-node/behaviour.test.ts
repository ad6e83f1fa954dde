/**
 * The behaviour suite: every assertion here runs against client-node's own
 * informer (1.4.0, the devDependency) and against the drop-in, each built
 * from client-node's KubeConfig for a real server over TLS with a token.
 * Where the two deliberately differ, the test says so by name and asserts
 * each side (the differences that need faults are in differences.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watch as rawWatch } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';
import { type Fixture, names, Recorder, SUBJECTS, type SubjectInformer, startFixture } from './subjects.js';

describe.each(SUBJECTS)('$name informer', (subject) => {
  let f: Fixture;
  const informers: SubjectInformer[] = [];
  const listPods =
    (namespace = 'demo', labelSelector?: string, fieldSelector?: string) =>
    () =>
      f.core.listNamespacedPod({ namespace, labelSelector, fieldSelector });

  beforeEach(async () => {
    f = await startFixture();
  });
  afterEach(async () => {
    for (const i of informers.splice(0)) await i.stop();
    await f.close();
  });

  const make = (...args: Parameters<typeof subject.makeInformer>) => {
    const informer = subject.makeInformer(...args);
    informers.push(informer);
    return informer;
  };

  it('start() resolves after connect and an add for every object, in list order', async () => {
    for (const n of ['c', 'a', 'b']) await f.createPod(n);
    const informer = make(f.kc, '/api/v1/namespaces/demo/pods', listPods());
    const rec = new Recorder(informer);
    await informer.start();
    expect(rec.log).toEqual(['connect', 'add a', 'add b', 'add c']);
    expect(names(informer.list())).toEqual(['demo/a', 'demo/b', 'demo/c']);
  });

  it('a new object is an add, a change an update with the new object, a deletion a delete', async () => {
    const informer = make(f.kc, '/api/v1/namespaces/demo/pods', listPods());
    const rec = new Recorder(informer);
    const updated: any[] = [];
    const deleted: any[] = [];
    informer.on('update', (o) => updated.push(o));
    informer.on('delete', (o) => deleted.push(o));
    await informer.start();
    await f.createPod('web');
    await rec.waitFor('add web');
    await f.relabel('web', { tier: 'front' });
    await rec.waitFor('update web');
    await f.deletePod('web');
    await rec.waitFor('delete web');
    // A pod's delete first writes its mark (deletionTimestamp, grace 0), as kube-apiserver does: an update, then the delete.
    expect(rec.objects).toEqual(['add web', 'update web', 'update web', 'delete web']);
    expect(updated[0].metadata.labels).toEqual({ tier: 'front' });
    expect(updated[1].metadata.deletionTimestamp).toEqual(expect.any(String));
    expect(updated[1].metadata.deletionGracePeriodSeconds).toBe(0);
    expect(deleted[0].metadata.name).toBe('web');
    expect(informer.list()).toEqual([]);
  });

  it('objects from watch events are the JSON the server sent; from the first list, see the difference', async () => {
    await f.createPod('listed');
    const informer = make(f.kc, '/api/v1/namespaces/demo/pods', listPods());
    const rec = new Recorder(informer);
    await informer.start();
    await f.createPod('watched');
    await rec.waitFor('add watched');
    const watched = informer.get('watched', 'demo') as any;
    expect(Object.getPrototypeOf(watched)).toBe(Object.prototype);
    expect(typeof watched.metadata.creationTimestamp).toBe('string');
    expect(watched.spec.containers[0].image).toBe('nginx:1.27');
    const listed = informer.get('listed', 'demo') as any;
    expect(listed.spec.containers[0].image).toBe('nginx:1.27');
    // The difference: client-node caches what listFn returned (model classes, Date timestamps) next to
    // watch events' plain JSON; the drop-in lists the path itself, so every object is plain JSON.
    if (subject.name === 'client-node') expect(listed.metadata.creationTimestamp).toBeInstanceOf(Date);
    else expect(typeof listed.metadata.creationTimestamp).toBe('string');
  });

  it('change is called for add, update and delete; off() removes a callback (change: all three)', async () => {
    const informer = make(f.kc, '/api/v1/namespaces/demo/pods', listPods());
    const changes: string[] = [];
    const onChange = (o: any) => changes.push(o.metadata.name);
    const adds: string[] = [];
    const onAdd = (o: any) => adds.push(o.metadata.name);
    informer.on('change', onChange);
    informer.on('add', onAdd);
    const rec = new Recorder(informer);
    await informer.start();
    await f.createPod('one');
    await f.relabel('one', { v: '2' });
    await f.deletePod('one');
    await rec.waitFor('delete one');
    // add, update, the delete's mark (an update: kube-apiserver writes deletionTimestamp first), delete.
    expect(changes).toEqual(['one', 'one', 'one', 'one']);
    informer.off('change', onChange);
    informer.off('add', onAdd);
    await f.createPod('two');
    await rec.waitFor('add two');
    expect(changes).toEqual(['one', 'one', 'one', 'one']);
    expect(adds).toEqual(['one']);
    expect(() => informer.on('bogus', () => {})).toThrow('Unknown verb: bogus');
  });

  it('list(namespace) and get(name, namespace) over an all-namespaces path', async () => {
    await f.createPod('a');
    await f.createPod('b', { namespace: 'default' });
    const informer = make(f.kc, '/api/v1/pods', () => f.core.listPodForAllNamespaces());
    await informer.start();
    expect(names(informer.list())).toEqual(['default/b', 'demo/a']);
    expect(names(informer.list('demo'))).toEqual(['demo/a']);
    expect(informer.list('nowhere')).toEqual([]);
    expect(informer.get('a', 'demo')?.metadata?.name).toBe('a');
    expect(informer.get('a', 'default')).toBeUndefined();
    expect(informer.get('a')).toBeUndefined();
  });

  it('get(name) finds a cluster-scoped object', async () => {
    const informer = make(f.kc, '/api/v1/namespaces', () => f.core.listNamespace());
    await informer.start();
    expect(informer.get('demo')?.metadata?.name).toBe('demo');
    expect(names(informer.list())).toContain('/demo');
  });

  it('a label selector: only matching objects, and one relabelled away is a delete', async () => {
    await f.createPod('web', { labels: { app: 'web' } });
    await f.createPod('db', { labels: { app: 'db' } });
    const informer = make(f.kc, '/api/v1/namespaces/demo/pods', listPods('demo', 'app=web'), 'app=web');
    const rec = new Recorder(informer);
    await informer.start();
    expect(names(informer.list())).toEqual(['demo/web']);
    await f.createPod('web-2', { labels: { app: 'web' } });
    await f.createPod('db-2', { labels: { app: 'db' } });
    await rec.waitFor('add web-2');
    await f.relabel('web', { app: 'db' });
    await rec.waitFor('delete web');
    expect(rec.objects).toEqual(['add web', 'add web-2', 'delete web']);
  });

  it("ListWatch's field selector applies to the watch (with a listFn that selects the same)", async () => {
    await f.createPod('p1', { nodeName: 'n1' });
    await f.createPod('p2', { nodeName: 'n2' });
    const informer = subject.listWatch(
      f.kc,
      '/api/v1/namespaces/demo/pods',
      listPods('demo', undefined, 'spec.nodeName=n1'),
      false,
      undefined,
      'spec.nodeName=n1',
    );
    informers.push(informer);
    const rec = new Recorder(informer);
    await informer.start();
    await f.createPod('p3', { nodeName: 'n2' });
    await f.createPod('p4', { nodeName: 'n1' });
    await rec.waitFor('add p4');
    expect(rec.objects).toEqual(['add p1', 'add p4']);
  });

  it('ListWatch starts itself unless autoStart is false', async () => {
    await f.createPod('a');
    const started = subject.listWatch(f.kc, '/api/v1/namespaces/demo/pods', listPods(), true);
    const idle = subject.listWatch(f.kc, '/api/v1/namespaces/demo/pods', listPods(), false);
    informers.push(started, idle);
    await waitUntil(() => started.list().length === 1, 'the auto-started ListWatch to list');
    await waitUntil(() => f.server.stats.openWatchers === 1, 'the auto-started ListWatch to watch');
    expect(idle.list()).toEqual([]);
    expect(f.server.stats.openWatchers).toBe(1);
  });

  it('stop() ends the watch on the server and no callback runs after it', async () => {
    const informer = make(f.kc, '/api/v1/namespaces/demo/pods', listPods());
    const rec = new Recorder(informer);
    await informer.start();
    await waitUntil(() => f.server.stats.openWatchers === 1, 'the informer watch open');
    await informer.stop();
    await waitUntil(() => f.server.stats.openWatchers === 0, 'the informer watch closed');
    // A watch of our own is the barrier: once it has seen the pod, the informer would have too.
    const probe = await rawWatch(f.server, '/api/v1/namespaces/demo/pods?watch=true');
    await f.createPod('late');
    await probe.until((e) => e.type === 'ADDED' && (e.object as any).metadata.name === 'late');
    probe.close();
    expect(rec.objects).toEqual([]);
    // The deliberate difference: client-node 1.4.0's stop() aborts its own request and reports that abort.
    if (subject.name === 'client-node')
      expect(rec.log).toEqual(['connect', 'error The user aborted a request.']);
    else expect(rec.log).toEqual(['connect']);
  });

  it('start() while running: the drop-in opens nothing; client-node aborts its own watch and reports that', async () => {
    const informer = make(f.kc, '/api/v1/namespaces/demo/pods', listPods());
    const rec = new Recorder(informer);
    await informer.start();
    await waitUntil(() => f.server.stats.openWatchers === 1, 'the informer watching');
    const started = f.server.stats.watchesStarted;
    await informer.start();
    await f.createPod('after');
    await rec.waitFor('add after');
    await waitUntil(() => f.server.stats.openWatchers === 1, 'one watch open');
    if (subject.name === 'client-node') {
      expect(rec.log).toEqual(['connect', 'error The user aborted a request.', 'connect', 'add after']);
      expect(f.server.stats.watchesStarted).toBe(started + 1);
    } else {
      expect(rec.log).toEqual(['connect', 'add after']);
      expect(f.server.stats.watchesStarted).toBe(started);
    }
  });

  it('start() after stop() resumes from the last resourceVersion: what changed meanwhile arrives, no list', async () => {
    await f.createPod('kept');
    await f.createPod('gone');
    const informer = make(f.kc, '/api/v1/namespaces/demo/pods', listPods());
    const rec = new Recorder(informer, ['add', 'update', 'delete']);
    await informer.start();
    await informer.stop();
    await f.createPod('new');
    await f.deletePod('gone');
    const lists = f.server.stats.lists;
    const listsBefore = Object.values(lists).reduce((a, b) => a + b, 0);
    await informer.start();
    await rec.waitFor('delete gone');
    // The pod's delete mark (deletionTimestamp) is an update before the delete, as from kube-apiserver.
    expect(rec.objects).toEqual(['add gone', 'add kept', 'add new', 'update gone', 'delete gone']);
    expect(names(informer.list())).toEqual(['demo/kept', 'demo/new']);
    expect(Object.values(f.server.stats.lists).reduce((a, b) => a + b, 0)).toBe(listsBefore);
  });

  it('start() after stop() past a compaction relists (410) without an error; the differences arrive', async () => {
    await f.createPod('kept');
    await f.createPod('gone');
    const informer = make(f.kc, '/api/v1/namespaces/demo/pods', listPods());
    const rec = new Recorder(informer, ['add', 'update', 'delete', 'error']);
    await informer.start();
    await informer.stop();
    await f.createPod('new');
    await f.deletePod('gone');
    await f.server.compact();
    const expiredBefore = f.server.stats.expiredSent;
    await informer.start();
    await rec.waitFor('delete gone');
    await rec.waitFor('add new');
    expect(f.server.stats.expiredSent).toBeGreaterThan(expiredBefore);
    const afterStop = rec.log.slice(2).filter((l) => l !== 'error The user aborted a request.');
    expect(afterStop.sort()).toEqual(['add new', 'delete gone']);
    expect(names(informer.list())).toEqual(['demo/kept', 'demo/new']);
    // client-node checks `stopped` only before its list: a stop() during the relist would leave its watch open.
    await waitUntil(() => f.server.stats.openWatchers === 1, 'the relisted informer watching again');
  });
});
