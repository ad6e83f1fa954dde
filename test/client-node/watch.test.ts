/**
 * `new Watch(kc).watch(path, queryParams, callback, done)`: the same
 * assertions against client-node 1.4.0's Watch and the drop-in's, on a real
 * server over TLS: events as `(type, object, event)`, `done(null)` when the
 * server ends the stream, `done(err)` with `statusCode` when it refuses, an
 * AbortError after `abort()`, and a 410 as an ERROR event.
 */
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as dropIn from '../../src/client-node/index.js';
import { waitUntil } from '../helpers/wait.js';
import { type Fixture, startFixture } from './subjects.js';

interface WatchLike {
  watch(
    path: string,
    query: Record<string, string | number | boolean | undefined>,
    callback: (phase: string, obj: any, event?: any) => void,
    done: (err: any) => void,
  ): Promise<AbortController>;
}

const WATCHES: Array<{ name: string; make: (kc: k8s.KubeConfig) => WatchLike }> = [
  { name: 'client-node', make: (kc) => new k8s.Watch(kc) },
  { name: 'drop-in', make: (kc) => new dropIn.Watch(kc) },
];

/** One watch's callbacks, recorded. */
function recordWatch() {
  const events: string[] = [];
  const raw: any[] = [];
  const done: { called: number; err?: any } = { called: 0 };
  return {
    events,
    raw,
    done,
    callback: (phase: string, obj: any, event?: any) => {
      events.push(`${phase} ${obj?.metadata?.name ?? obj?.code}`);
      raw.push(event);
    },
    onDone: (err: any) => {
      done.called++;
      done.err = err;
    },
  };
}

describe.each(WATCHES)('$name Watch', ({ make }) => {
  let f: Fixture;
  beforeEach(async () => {
    f = await startFixture();
  });
  afterEach(async () => {
    await f.close();
  });

  it('events arrive as (type, object, event); done(null) once when the server ends the stream', async () => {
    const w = make(f.kc);
    const r = recordWatch();
    await w.watch('/api/v1/namespaces/demo/pods', { timeoutSeconds: 1 }, r.callback, r.onDone);
    await f.createPod('a');
    await f.relabel('a', { v: '2' });
    await f.deletePod('a');
    await waitUntil(() => r.done.called > 0, 'the stream to end at its timeout');
    // A pod's delete first writes its mark (deletionTimestamp, grace 0), as kube-apiserver does: MODIFIED, then DELETED.
    expect(r.events).toEqual(['ADDED a', 'MODIFIED a', 'MODIFIED a', 'DELETED a']);
    expect(r.raw[0].type).toBe('ADDED');
    expect(r.raw[0].object.metadata.name).toBe('a');
    expect(r.raw[2].object.metadata.deletionGracePeriodSeconds).toBe(0);
    expect(r.done).toEqual({ called: 1, err: null });
  });

  it('query parameters are sent (a label selector), undefined ones are left out', async () => {
    const w = make(f.kc);
    const r = recordWatch();
    const c = await w.watch(
      '/api/v1/namespaces/demo/pods',
      { labelSelector: 'app=web', fieldSelector: undefined },
      r.callback,
      r.onDone,
    );
    await f.createPod('db', { labels: { app: 'db' } });
    await f.createPod('web', { labels: { app: 'web' } });
    await waitUntil(() => r.events.includes('ADDED web'), 'the web pod');
    expect(r.events).toEqual(['ADDED web']);
    c.abort();
  });

  it('abort() ends the request: done once with an AbortError, the server sees the watch close', async () => {
    const w = make(f.kc);
    const r = recordWatch();
    const c = await w.watch('/api/v1/namespaces/demo/pods', {}, r.callback, r.onDone);
    await waitUntil(() => f.server.stats.openWatchers === 1, 'the watch open');
    c.abort();
    await waitUntil(() => r.done.called > 0, 'done');
    expect(r.done.called).toBe(1);
    expect(r.done.err?.name).toBe('AbortError');
    await waitUntil(() => f.server.stats.openWatchers === 0, 'the watch closed on the server');
  });

  it('a refused watch: done(err) with statusCode, and the promise still resolves to a controller', async () => {
    const w = make(f.kc);
    const r = recordWatch();
    const c = await w.watch('/api/v1/namespaces/demo/nothings', {}, r.callback, r.onDone);
    expect(c).toBeInstanceOf(AbortController);
    await waitUntil(() => r.done.called > 0, 'done');
    expect(r.done.err.statusCode).toBe(404);
    expect(r.events).toEqual([]);
  });

  it('a resourceVersion past the compaction is an ERROR event with the 410 Status, then done(null)', async () => {
    const first = await f.createPod('old');
    await f.createPod('newer');
    await f.server.compact();
    const w = make(f.kc);
    const r = recordWatch();
    await w.watch(
      '/api/v1/namespaces/demo/pods',
      { resourceVersion: first.metadata.resourceVersion },
      r.callback,
      r.onDone,
    );
    await waitUntil(() => r.done.called > 0, 'done');
    expect(r.events).toEqual(['ERROR 410']);
    expect(r.raw[0].object.reason).toBe('Expired');
    expect(r.done.err).toBeNull();
  });
});
