/**
 * The watcher's streaming lists (KEP-3157, `initial: 'stream'`) over a
 * scripted source: the initial state as events ended by the
 * `k8s.io/initial-events-end` bookmark, the fallback to paginated lists, a
 * server behind our resourceVersion, and a stream that ends before its end
 * marker.
 */
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../../src/client/http/transport.js';
import { StatusError } from '../../../src/protocol/status.js';
import { ev, listOf, obj, refusal, ScriptedStream, settle } from '../../helpers/scripted-source.js';
import { runWatcher } from '../../helpers/watcher-harness.js';

const setup = runWatcher;

const tooLarge = refusal.tooLarge;

describe('Watcher: streaming lists', () => {
  it('asks for sendInitialEvents and ends the initial state at the end-marker bookmark', async () => {
    const t = setup({ initial: 'stream' });
    const s = new ScriptedStream();
    t.source.onWatch(s);
    await settle();
    expect(t.source.calls[0].params).toEqual({
      resourceVersion: undefined,
      resourceVersionMatch: 'NotOlderThan',
      sendInitialEvents: true,
      allowWatchBookmarks: true,
      timeoutSeconds: 300,
    });
    s.push(
      ev.added(obj('a', '3')),
      ev.added(obj('b', '4')),
      ev.bookmark('9', true),
      ev.modified(obj('a', '10')),
    );
    await settle();
    expect(t.types()).toEqual(['init:initial', 'initApply:a', 'initApply:b', 'initDone:9', 'apply:a']);
    await t.stop();
  });

  it('falls back to the paginated list when the server refuses streaming lists', async () => {
    const t = setup({ initial: 'stream' });
    t.source.onWatch(
      StatusError.of('Invalid', 'sendInitialEvents is forbidden', undefined, 422),
      new ScriptedStream(),
    );
    t.source.onList(listOf('7', [obj('a', '2')]));
    await settle();
    expect(t.source.calls.map((c) => c.op)).toEqual(['watch', 'list', 'watch']);
    expect(t.types()).toEqual(['init:initial', 'initApply:a', 'initDone:7']);
    await t.stop();
  });
});

describe('Watcher: streaming list against a server behind our resourceVersion', () => {
  it('retries with a consistent read instead of the same too-large resourceVersion forever', async () => {
    const t = setup({ initial: 'stream' });
    const first = new ScriptedStream();
    t.source.onWatch(first);
    await settle();
    first.push(ev.added(obj('a', '3')), ev.bookmark('9', true), ev.bookmark('50'), ev.error(410, 'Expired'));
    await settle();
    t.source.onWatch(tooLarge(), new ScriptedStream());
    await settle();
    t.clock.advance(1_000);
    await settle();
    const watches = t.source.calls.filter((c) => c.op === 'watch').map((c) => c.params.resourceVersion);
    expect(watches).toEqual([undefined, '50', undefined]);
    expect(t.watcher.metrics.lists.tooLarge).toBe(1);
    await t.stop();
  });
});

describe('Watcher: a streaming list that ends before its end marker', () => {
  it('cut after its first objects: starts over at once from where it began (a consistent read), the objects again under a new init', async () => {
    const t = setup({ initial: 'stream' });
    const first = new ScriptedStream();
    const second = new ScriptedStream();
    t.source.onWatch(first, second);
    await settle();
    first.push(
      ev.added(obj('a', '3')),
      ev.added(obj('b', '4')),
      new TransportError('watch stream cut mid-flight', 'UNEXPECTED_EOF'),
    );
    await settle();
    // The initial objects come in no resourceVersion order: none of theirs is one to restart from.
    expect(t.watcher.resourceVersion).toBe('');
    expect(first.closed).toBe(true);
    // Both a consistent streaming list: the first asked for no resourceVersion, and none came since.
    const consistent = {
      resourceVersion: undefined,
      resourceVersionMatch: 'NotOlderThan',
      sendInitialEvents: true,
    };
    expect(t.source.calls.map((c) => c.params)).toMatchObject([consistent, consistent]);
    second.push(ev.added(obj('a', '3')), ev.added(obj('b', '5')), ev.bookmark('9', true));
    await settle();
    expect(t.types()).toEqual([
      'init:initial',
      'initApply:a',
      'initApply:b',
      'init:error',
      'initApply:a',
      'initApply:b',
      'initDone:9',
    ]);
    expect(t.watcher.resourceVersion).toBe('9');
    expect(t.watcher.metrics.lists).toMatchObject({ initial: 1, error: 1 });
    expect(t.watcher.metrics.watchEnds.reset).toBe(1);
    expect(t.watcher.metrics.errors).toBe(0);
    await t.stop();
  });

  it('a relist by streaming list cut before its end starts over not older than the last synced resourceVersion', async () => {
    const t = setup({ initial: 'stream' });
    const first = new ScriptedStream();
    const relist = new ScriptedStream();
    t.source.onWatch(first, relist, new ScriptedStream());
    await settle();
    first.push(ev.added(obj('a', '3')), ev.bookmark('20', true), ev.bookmark('25'), ev.error(410, 'Expired'));
    await settle();
    relist.push(ev.added(obj('a', '3')), new Error('socket hang up'));
    await settle();
    expect(t.source.calls.map((c) => c.op)).toEqual(['watch', 'watch', 'watch']);
    expect(t.source.calls.map((c) => c.params)).toMatchObject([
      { resourceVersion: undefined, sendInitialEvents: true },
      { resourceVersion: '25', resourceVersionMatch: 'NotOlderThan', sendInitialEvents: true },
      { resourceVersion: '25', resourceVersionMatch: 'NotOlderThan', sendInitialEvents: true },
    ]);
    expect(t.types().slice(-4)).toEqual(['bookmark:25', 'init:expired', 'initApply:a', 'init:error']);
    await t.stop();
  });

  it('closed at once with nothing: counted as an error, started over after the backoff', async () => {
    const t = setup({ initial: 'stream' });
    t.source.onWatch(new ScriptedStream().push('end'), new ScriptedStream());
    await settle();
    expect(t.source.calls.length).toBe(1);
    expect(t.watcher.metrics.errors).toBe(1);
    t.clock.advance(800);
    await settle();
    expect(t.source.calls.length).toBe(2);
    expect(t.source.calls[1].params).toMatchObject({ resourceVersion: undefined, sendInitialEvents: true });
    expect(t.types()).toEqual(['init:initial', 'init:error']);
    await t.stop();
  });
});
