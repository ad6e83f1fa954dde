/**
 * The drop-in's deliberate differences from client-node's informer, each
 * named and shown, where a comparison helps, side by side with client-node
 * 1.4.0 on the same server: it keeps running after an error, a `start()`
 * from an error handler is harmless, `connect` is called on every
 * (re)watch, a callback that throws never stops the stream, a `stop()`
 * during the first list stops it, and `makeInformer` takes a field selector.
 */
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InformerHandlerError, makeInformer } from '../../src/client-node/index.js';
import { installCrd } from '../helpers/crds.js';
import { call } from '../helpers/server.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { waitUntil } from '../helpers/wait.js';
import { widget, widgetCrd } from '../helpers/widget.js';
import {
  CLIENT_NODE,
  DROP_IN,
  type Fixture,
  Recorder,
  type SubjectInformer,
  startFixture,
} from './subjects.js';

/** Backoff short enough for a test to see several retries. */
const FAST = { backoff: { initialMs: 20, maxMs: 100 } };

describe('watchmark/client-node: the deliberate differences', () => {
  let f: Fixture;
  let proxy: TcpProxy | undefined;
  const informers: SubjectInformer[] = [];
  const listPods = () => f.core.listNamespacedPod({ namespace: 'demo' });

  beforeEach(async () => {
    f = await startFixture();
  });
  afterEach(async () => {
    for (const i of informers.splice(0)) await i.stop();
    await proxy?.close();
    proxy = undefined;
    await f.close();
  });

  const track = <I extends SubjectInformer>(informer: I): I => {
    informers.push(informer);
    return informer;
  };

  /** client-node's KubeConfig for the same server through a TCP proxy whose connections a test can cut. */
  async function kubeConfigThroughProxy(): Promise<k8s.KubeConfig> {
    const target = new URL(f.server.url);
    proxy = await TcpProxy.start(`http://${target.host}`);
    const kc = new k8s.KubeConfig();
    kc.loadFromString(f.server.kubeconfig.replace(target.host, new URL(proxy.url).host));
    return kc;
  }

  it('a cut connection: client-node reports it and stops; the drop-in reports it and resumes without a list', async () => {
    const kc = await kubeConfigThroughProxy();
    const theirs = track(CLIENT_NODE.makeInformer(kc, '/api/v1/namespaces/demo/pods', listPods));
    const ours = track(DROP_IN.makeInformer(kc, '/api/v1/namespaces/demo/pods', listPods));
    const theirLog = new Recorder(theirs);
    const ourLog = new Recorder(ours);
    await Promise.all([theirs.start(), ours.start()]);
    await waitUntil(() => f.server.stats.openWatchers === 2, 'both informers watching');
    const listsBefore = f.server.stats.lists;
    const listed = Object.values(listsBefore).reduce((a, b) => a + b, 0);
    proxy?.resetAll();
    await ourLog.waitFor('connect', 2);
    await waitUntil(() => f.server.stats.openWatchers === 1, 'one informer watching again');
    await f.createPod('after');
    await ourLog.waitFor('add after');
    expect(theirLog.log[0]).toBe('connect');
    expect(theirLog.log.filter((l) => l.startsWith('error'))).toHaveLength(1);
    expect(theirLog.objects).toEqual([]);
    expect(theirs.list()).toEqual([]);
    expect(ourLog.log.filter((l) => l.startsWith('error'))).toHaveLength(1);
    expect(ourLog.objects).toEqual(['add after']);
    expect(Object.values(f.server.stats.lists).reduce((a, b) => a + b, 0)).toBe(listed);
  });

  it('start() from an error handler, the restart every client-node user writes, opens no second watch', async () => {
    const kc = await kubeConfigThroughProxy();
    const informer = track(
      makeInformer(kc, '/api/v1/namespaces/demo/pods', listPods, undefined, undefined, FAST),
    );
    const rec = new Recorder(informer);
    let restarts = 0;
    informer.on('error', () => {
      restarts++;
      void informer.start();
    });
    await informer.start();
    await waitUntil(() => f.server.stats.openWatchers === 1, 'the informer watching');
    const started = f.server.stats.watchesStarted;
    for (let cut = 1; cut <= 3; cut++) {
      proxy?.resetAll();
      await rec.waitFor('connect', cut + 1);
      await waitUntil(() => f.server.stats.watchesStarted === started + cut, `watch ${cut + 1} open`);
    }
    await f.createPod('still-here');
    await rec.waitFor('add still-here');
    expect(restarts).toBe(3);
    expect(f.server.stats.openWatchers).toBe(1);
    expect(f.server.stats.watchesStarted).toBe(started + 3);
  });

  it('a stream silent past the idle timeout is reported to error and resumed without a list', async () => {
    await f.close();
    f = await startFixture({ noBookmarks: true });
    const informer = track(
      makeInformer(f.kc, '/api/v1/namespaces/demo/pods', listPods, undefined, undefined, {
        idleTimeoutMs: 300,
      }),
    );
    const rec = new Recorder(informer);
    await informer.start();
    const listed = Object.values(f.server.stats.lists).reduce((a, b) => a + b, 0);
    await rec.waitFor('connect', 3);
    const errors = rec.log.filter((l) => l.startsWith('error'));
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(errors[0]).toContain('(no event or bookmark for 300 ms)');
    expect(Object.values(f.server.stats.lists).reduce((a, b) => a + b, 0)).toBe(listed);
    await f.createPod('heard');
    await rec.waitFor('add heard');
  });

  it("stop() with the documented restart handler: client-node's informer starts again, the drop-in's stays stopped", async () => {
    const results: Record<string, number> = {};
    for (const subject of [CLIENT_NODE, DROP_IN]) {
      const informer = track(subject.makeInformer(f.kc, '/api/v1/namespaces/demo/pods', listPods));
      let restarts = 0;
      let restarting = true;
      let restarted: Promise<void> | undefined;
      informer.on('error', () => {
        // client-node's documented handler, its 5 s made 50 ms (off at the end, or it would never stop).
        setTimeout(() => {
          if (!restarting) return;
          restarts++;
          restarted = informer.start();
        }, 50);
      });
      await informer.start();
      await waitUntil(() => f.server.stats.openWatchers === 1, `${subject.name} watching`);
      await informer.stop();
      await waitUntil(() => f.server.stats.openWatchers === 0, `${subject.name} stopped`);
      if (subject.name === 'client-node') {
        // Its stop() reports its own abort as an error; the handler starts it again.
        await waitUntil(() => f.server.stats.openWatchers === 1, 'client-node watching again after stop()');
        restarting = false;
        // The server counts the watch before client-node has its response: its start() resolves only once the
        // request is held, and a stop() before that aborts nothing (it has no request to abort yet).
        await restarted;
        await informer.stop();
        await waitUntil(() => f.server.stats.openWatchers === 0, 'client-node stopped again');
      }
      results[subject.name] = restarts;
    }
    expect(results['client-node']).toBeGreaterThanOrEqual(1);
    expect(results['drop-in']).toBe(0);
  });

  it("stop() while start() is still listing: client-node's watch opens anyway and stays open; the drop-in's never opens", async () => {
    // client-node checks `stopped` before its list, not after it: the watch opens once the list is in.
    const theirs = track(CLIENT_NODE.makeInformer(f.kc, '/api/v1/namespaces/demo/pods', listPods));
    const theirStart = theirs.start();
    await theirs.stop();
    await theirStart;
    await waitUntil(() => f.server.stats.openWatchers === 1, "client-node's watch, opened after its stop()");
    await theirs.stop();
    await waitUntil(() => f.server.stats.openWatchers === 0, 'client-node stopped by a second stop()');

    const watchesBefore = f.server.stats.watchesStarted;
    const ours = track(DROP_IN.makeInformer(f.kc, '/api/v1/namespaces/demo/pods', listPods));
    const ourStart = ours.start();
    await ours.stop();
    await ourStart;
    // Barrier: a second informer lists and watches in the time the stopped one would have.
    const other = track(DROP_IN.makeInformer(f.kc, '/api/v1/namespaces/demo/pods', listPods));
    await other.start();
    await waitUntil(() => f.server.stats.openWatchers === 1, 'the second informer watching');
    await f.createPod('after');
    await waitUntil(() => other.get('after', 'demo') !== undefined, 'the second informer hearing a new pod');
    expect(f.server.stats.watchesStarted).toBe(watchesBefore + 1);
    expect(f.server.stats.openWatchers).toBe(1);
  });

  it('a refused list is an error, retried with backoff until it works (here: the CRD is installed late)', async () => {
    const informer = track(
      makeInformer(
        f.kc,
        '/apis/example.com/v1/namespaces/demo/widgets',
        async () => ({}),
        undefined,
        undefined,
        FAST,
      ),
    );
    const rec = new Recorder(informer);
    const errors: any[] = [];
    informer.on('error', (err) => errors.push(err));
    const started = informer.start();
    await waitUntil(() => errors.length >= 2, 'two refused lists');
    await started;
    expect(errors[0].statusCode).toBe(404);
    expect(errors[0].code).toBe(404);
    await installCrd(f.server, widgetCrd());
    const created = await call(f.server, 'POST', '/apis/example.com/v1/namespaces/demo/widgets', {
      body: widget('w1'),
    });
    expect(created.status).toBe(201);
    await rec.waitFor('add w1');
    expect(informer.get('w1', 'demo')?.metadata?.name).toBe('w1');
  });

  it('a callback that throws or rejects is reported to error and never stops the stream', async () => {
    const informer = track(makeInformer(f.kc, '/api/v1/namespaces/demo/pods', listPods));
    const rec = new Recorder(informer, ['add']);
    const errors: unknown[] = [];
    informer.on('error', (err) => errors.push(err));
    informer.on('add', (o: any) => {
      if (o.metadata.name === 'bad') throw new Error('handler bug');
    });
    informer.on('add', async (o: any) => {
      if (o.metadata.name === 'bad') throw new Error('async handler bug');
    });
    await informer.start();
    await f.createPod('bad');
    await f.createPod('good');
    await rec.waitFor('add good');
    await waitUntil(() => errors.length === 2, 'both failures reported');
    expect(errors.every((e) => e instanceof InformerHandlerError && e.verb === 'add')).toBe(true);
    expect((errors as Error[]).map((e) => (e.cause as Error).message).sort()).toEqual([
      'async handler bug',
      'handler bug',
    ]);
    expect(informer.callbackFailures).toBe(2);
    expect(rec.log).toEqual(['add bad', 'add good']);
  });

  it("makeInformer's fifth argument: client-node drops it and caches every node's pods; the drop-in applies it", async () => {
    const onNode = () => f.core.listNamespacedPod({ namespace: 'demo', fieldSelector: 'spec.nodeName=n1' });
    const theirs = track(
      CLIENT_NODE.makeInformer(f.kc, '/api/v1/namespaces/demo/pods', onNode, undefined, 'spec.nodeName=n1'),
    );
    const ours = track(
      DROP_IN.makeInformer(f.kc, '/api/v1/namespaces/demo/pods', onNode, undefined, 'spec.nodeName=n1'),
    );
    const theirLog = new Recorder(theirs);
    const ourLog = new Recorder(ours);
    await Promise.all([theirs.start(), ours.start()]);
    const nodes = ['n1', 'n2', 'n3', 'n1', 'n2', 'n3', 'n4'];
    for (const [i, node] of nodes.entries()) await f.createPod(`p${i}`, { nodeName: node });
    await theirLog.waitFor('add p6');
    await ourLog.waitFor('add p3');
    expect(theirs.list()).toHaveLength(7);
    expect(ours.list().map((p) => p.metadata?.name)).toEqual(['p0', 'p3']);
  });
});
