import { describe, expect, it } from 'vitest';
import { TransportError } from '../../../src/client/http/transport.js';
import { Watcher } from '../../../src/client/watch/watcher.js';
import { ManualClock } from '../../../src/protocol/clock.js';
import { StatusError } from '../../../src/protocol/status.js';
import {
  ev,
  listOf,
  obj,
  refusal,
  ScriptedSource,
  ScriptedStream,
  settle,
} from '../../helpers/scripted-source.js';
import { runWatcher } from '../../helpers/watcher-harness.js';

const setup = runWatcher;

const { expired, tooLarge } = refusal;

describe('Watcher: initial list and watch', () => {
  it('lists from "0" in pages of 500, then watches from the list RV with bookmarks and a timeout in [300, 600) s', async () => {
    const t = setup({ random: () => 0.5 });
    t.source.onList(listOf('10', [obj('a', '3')], 'tok'), listOf('10', [obj('b', '4')]));
    const stream = new ScriptedStream();
    t.source.onWatch(stream);
    await settle();
    expect(t.source.calls).toEqual([
      { op: 'list', params: { resourceVersion: '0', limit: 500 } },
      { op: 'list', params: { limit: 500, continue: 'tok' } },
      { op: 'watch', params: { resourceVersion: '10', allowWatchBookmarks: true, timeoutSeconds: 450 } },
    ]);
    expect(t.types()).toEqual(['init:initial', 'initApply:a', 'initApply:b', 'initDone:10']);
    expect(t.watcher.metrics.pages).toBe(2);
    await t.stop();
  });

  it('every event and bookmark advances the resourceVersion; a clean close resumes from it without a list', async () => {
    const t = setup();
    t.source.onList(listOf('10', []));
    const first = new ScriptedStream();
    const second = new ScriptedStream();
    t.source.onWatch(first, second);
    await settle();
    first.push(
      ev.added(obj('a', '11')),
      ev.modified(obj('a', '12')),
      ev.bookmark('20'),
      ev.deleted(obj('a', '21')),
    );
    await settle();
    expect(t.watcher.resourceVersion).toBe('21');
    t.clock.advance(5_000);
    first.push(ev.bookmark('30'), 'end');
    await settle();
    expect(t.source.calls.map((c) => c.op)).toEqual(['list', 'watch', 'watch']);
    expect(t.source.calls[2].params).toMatchObject({ resourceVersion: '30' });
    expect(t.types().slice(2)).toEqual(['apply:a', 'apply:a', 'bookmark:20', 'delete:a', 'bookmark:30']);
    expect(t.watcher.metrics.resumes).toBe(1);
    expect(t.watcher.metrics.lists.initial).toBe(1);
    await t.stop();
  });

  it('bookmarks: false does not ask for them', async () => {
    const t = setup({ bookmarks: false });
    t.source.onList(listOf('1', [])).onWatch(new ScriptedStream());
    await settle();
    expect(t.source.calls[1].params).toMatchObject({ allowWatchBookmarks: false });
    await t.stop();
  });

  it("a list nobody answers ends with ETIMEDOUT at the watcher's own request deadline", async () => {
    const errors: unknown[] = [];
    const t = setup({ requestTimeoutMs: 1_000, onError: (err) => errors.push(err) });
    await settle();
    t.clock.advance(999);
    await settle();
    expect(errors).toEqual([]);
    t.clock.advance(1);
    await settle();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TransportError);
    expect((errors[0] as TransportError).code).toBe('ETIMEDOUT');
    await t.stop();
  });

  it('pageSize 0 lists without pagination', async () => {
    const t = setup({ pageSize: 0 });
    t.source.onList(listOf('1', [])).onWatch(new ScriptedStream());
    await settle();
    expect(t.source.calls[0].params).toEqual({ resourceVersion: '0', limit: undefined });
    await t.stop();
  });
});

describe('Watcher: 410 and relists', () => {
  it('a 410 ERROR event relists not-older-than the last RV', async () => {
    const t = setup();
    const s1 = new ScriptedStream();
    t.source
      .onList(listOf('10', [obj('a', '5')]), listOf('40', [obj('b', '33')]))
      .onWatch(s1, new ScriptedStream());
    await settle();
    s1.push(ev.bookmark('25'), ev.error(410, 'Expired'));
    await settle();
    expect(t.source.calls.map((c) => c.op)).toEqual(['list', 'watch', 'list', 'watch']);
    expect(t.source.calls[2].params).toEqual({
      resourceVersion: '25',
      resourceVersionMatch: 'NotOlderThan',
      limit: 500,
    });
    expect(t.source.calls[3].params).toMatchObject({ resourceVersion: '40' });
    expect(t.watcher.metrics.lists).toMatchObject({ initial: 1, expired: 1 });
    expect(t.types().slice(-4)).toEqual(['bookmark:25', 'init:expired', 'initApply:b', 'initDone:40']);
    await t.stop();
  });

  it('410 on the watch request itself relists too', async () => {
    const t = setup();
    t.source.onList(listOf('10', []), listOf('50', [])).onWatch(expired(), new ScriptedStream());
    await settle();
    expect(t.source.calls[2]).toEqual({
      op: 'list',
      params: { resourceVersion: '10', resourceVersionMatch: 'NotOlderThan', limit: 500 },
    });
    await t.stop();
  });

  it('if the not-older-than relist answers 410 or "too large", the next relist is a consistent read ("")', async () => {
    for (const failure of [expired, tooLarge]) {
      const t = setup();
      const s1 = new ScriptedStream();
      t.source.onList(listOf('10', []), failure(), listOf('60', [])).onWatch(s1, new ScriptedStream());
      await settle();
      s1.push(ev.error(410, 'Gone'));
      await settle();
      expect(t.source.calls.filter((c) => c.op === 'list').map((c) => c.params)).toEqual([
        { resourceVersion: '0', limit: 500 },
        { resourceVersion: '10', resourceVersionMatch: 'NotOlderThan', limit: 500 },
        { resourceVersion: '', limit: 500 },
      ]);
      await t.stop();
    }
  });

  it('an expired continue token costs one full list without pagination', async () => {
    const t = setup();
    t.source.onList(
      listOf('10', [obj('a', '1')], 'tok'),
      expired(),
      listOf('12', [obj('a', '1'), obj('b', '2')]),
    );
    t.source.onWatch(new ScriptedStream());
    await settle();
    expect(t.source.calls.filter((c) => c.op === 'list').map((c) => c.params)).toEqual([
      { resourceVersion: '0', limit: 500 },
      { limit: 500, continue: 'tok' },
      { resourceVersion: '0', limit: undefined },
    ]);
    expect(t.types()).toEqual(['init:initial', 'initApply:a', 'initApply:b', 'initDone:12']);
    await t.stop();
  });
});

describe('Watcher: errors and backoff', () => {
  it('connection errors back off 800 ms doubling (jitter in [d, 2d)), keeping the resourceVersion, no relist', async () => {
    const t = setup({ random: () => 0.5 });
    const refused = () => new TransportError('connect ECONNREFUSED', 'ECONNREFUSED');
    t.source.onList(listOf('10', [])).onWatch(refused(), refused(), refused(), new ScriptedStream());
    await settle();
    expect(t.source.calls.length).toBe(2);
    // 800 * 1.5 = 1200 ms
    t.clock.advance(1199);
    await settle();
    expect(t.source.calls.length).toBe(2);
    t.clock.advance(1);
    await settle();
    expect(t.source.calls.length).toBe(3);
    t.clock.advance(2400); // 1600 * 1.5
    await settle();
    expect(t.source.calls.length).toBe(4);
    t.clock.advance(4800); // 3200 * 1.5
    await settle();
    expect(t.source.calls.map((c) => c.op)).toEqual(['list', 'watch', 'watch', 'watch', 'watch']);
    expect(t.source.calls.slice(1).every((c) => c.params.resourceVersion === '10')).toBe(true);
    expect(t.watcher.metrics.errors).toBe(3);
    await t.stop();
  });

  it('backoff caps at 30 s and starts over after 2 minutes of health', async () => {
    const t = setup();
    const refused = () => new TransportError('connect ECONNREFUSED', 'ECONNREFUSED');
    t.source.onList(listOf('10', []));
    for (let i = 0; i < 8; i++) t.source.onWatch(refused());
    await settle();
    const delays = [800, 1600, 3200, 6400, 12800, 25600, 30000];
    for (const d of delays) {
      const before = t.source.calls.length;
      t.clock.advance(d - 1);
      await settle();
      expect(t.source.calls.length).toBe(before);
      t.clock.advance(1);
      await settle();
      expect(t.source.calls.length).toBe(before + 1);
    }
    // Healthy for over 2 minutes, then one failure: 800 ms again.
    const healthy = new ScriptedStream();
    t.clock.advance(30_000);
    t.source.onWatch(healthy);
    await settle();
    t.clock.advance(130_000);
    healthy.push(ev.bookmark('11'), new Error('reset'));
    t.source.onWatch(new ScriptedStream());
    await settle();
    const before = t.source.calls.length;
    t.clock.advance(800);
    await settle();
    expect(t.source.calls.length).toBe(before + 1);
    await t.stop();
  });

  it('429 honours Retry-After', async () => {
    const t = setup();
    const throttled = StatusError.of('TooManyRequests', 'slow down', { retryAfterSeconds: 5 }, 429);
    t.source.onList(listOf('10', [])).onWatch(throttled, new ScriptedStream());
    await settle();
    t.clock.advance(4_999);
    await settle();
    expect(t.source.calls.length).toBe(2);
    t.clock.advance(1);
    await settle();
    expect(t.source.calls.length).toBe(3);
    expect(t.source.calls[2].params.resourceVersion).toBe('10');
    await t.stop();
  });

  it('a watch that ends within 1 s with no events counts as an error and backs off', async () => {
    const t = setup();
    const quick = new ScriptedStream().push('end');
    t.source.onList(listOf('10', [])).onWatch(quick, new ScriptedStream());
    await settle();
    expect(t.source.calls.length).toBe(2);
    expect(t.watcher.metrics.errors).toBe(1);
    t.clock.advance(800);
    await settle();
    expect(t.source.calls.length).toBe(3);
    await t.stop();
  });

  it('a stream cut after an event is a probable EOF: re-watched at once from the last RV, no backoff, no list', async () => {
    const t = setup();
    const s1 = new ScriptedStream();
    t.source.onList(listOf('10', [])).onWatch(s1, new ScriptedStream());
    await settle();
    s1.push(ev.added(obj('a', '15')), new TransportError('read ECONNRESET', 'ECONNRESET'));
    await settle();
    expect(t.source.calls.length).toBe(3);
    expect(t.source.calls[2]).toMatchObject({ op: 'watch', params: { resourceVersion: '15' } });
    expect(t.watcher.metrics.watchEnds).toMatchObject({ reset: 1, error: 0 });
    expect(t.watcher.metrics.errors).toBe(0);
    expect(t.watcher.metrics.lists.initial).toBe(1);
    await t.stop();
  });

  it('a silent stream cut after 1 s is a probable EOF too; one cut within 1 s with no events backs off', async () => {
    const t = setup();
    const s1 = new ScriptedStream();
    const s2 = new ScriptedStream();
    t.source.onList(listOf('10', [])).onWatch(s1, s2, new ScriptedStream());
    await settle();
    t.clock.advance(1_000);
    s1.push(new Error('socket hang up'));
    await settle();
    expect(t.source.calls.length).toBe(3);
    expect(t.source.calls[2]).toMatchObject({ op: 'watch', params: { resourceVersion: '10' } });
    s2.push(new TransportError('watch stream cut mid-flight', 'UNEXPECTED_EOF'));
    await settle();
    expect(t.source.calls.length).toBe(3);
    expect(t.watcher.metrics.watchEnds).toMatchObject({ reset: 1, error: 1 });
    t.clock.advance(800);
    await settle();
    expect(t.source.calls[3]).toMatchObject({ op: 'watch', params: { resourceVersion: '10' } });
    await t.stop();
  });

  it('a stream that breaks with a decoding error backs off even after events', async () => {
    const t = setup();
    const s1 = new ScriptedStream();
    t.source.onList(listOf('10', [])).onWatch(s1, new ScriptedStream());
    await settle();
    s1.push(ev.added(obj('a', '15')), new SyntaxError('Unexpected token < in JSON'));
    await settle();
    expect(t.source.calls.length).toBe(2);
    t.clock.advance(800);
    await settle();
    expect(t.source.calls[2]).toMatchObject({ op: 'watch', params: { resourceVersion: '15' } });
    expect(t.watcher.metrics.watchEnds.error).toBe(1);
    await t.stop();
  });

  it('never stops on its own: a hundred failures later it still retries', async () => {
    const t = setup({ backoff: { initialMs: 1, maxMs: 1 } });
    t.source.onList(listOf('10', []));
    for (let i = 0; i < 100; i++) t.source.onWatch(StatusError.of('InternalError', 'boom'));
    t.source.onWatch(new ScriptedStream().push(ev.added(obj('z', '11'))));
    for (let i = 0; i < 100; i++) {
      await settle(2);
      t.clock.advance(2);
    }
    await settle();
    expect(t.types()).toContain('apply:z');
    expect(t.watcher.metrics.errors).toBe(100);
    await t.stop();
  });
});

describe('Watcher: idle timeout', () => {
  it('a stream silent for its watch timeout + 5 s is abandoned and resumed', async () => {
    const t = setup();
    const silent = new ScriptedStream();
    t.source.onList(listOf('10', [])).onWatch(silent, new ScriptedStream());
    await settle();
    t.clock.advance(300_000 + 4_999);
    await settle();
    expect(t.source.calls.length).toBe(2);
    t.clock.advance(1);
    await settle();
    expect(silent.closed).toBe(true);
    expect(t.source.calls[2]).toMatchObject({ op: 'watch', params: { resourceVersion: '10' } });
    expect(t.watcher.metrics.watchEnds.idle).toBe(1);
    await t.stop();
  });

  it('knowing the server bookmark interval tightens it to 3 intervals', async () => {
    const t = setup({ serverBookmarkIntervalMs: 1_000 });
    const silent = new ScriptedStream();
    t.source.onList(listOf('10', [])).onWatch(silent, new ScriptedStream());
    await settle();
    t.clock.advance(2_999);
    await settle();
    expect(silent.closed).toBe(false);
    t.clock.advance(1);
    await settle();
    expect(silent.closed).toBe(true);
    await t.stop();
  });
});

describe('Watcher: stopping', () => {
  it('stop() ends the iteration and closes the stream; an AbortSignal does the same', async () => {
    const t = setup();
    const s = new ScriptedStream();
    t.source.onList(listOf('10', [])).onWatch(s);
    await settle();
    await t.stop();
    expect(s.closed).toBe(true);

    const ac = new AbortController();
    const u = setup({ signal: ac.signal });
    const s2 = new ScriptedStream();
    u.source.onList(listOf('10', [])).onWatch(s2);
    await settle();
    ac.abort();
    await settle();
    expect(s2.closed).toBe(true);
    await u.stop();
  });

  it('leaving the iteration early stops the watcher and closes its stream', async () => {
    const source = new ScriptedSource();
    const watcher = new Watcher(source, { clock: new ManualClock() });
    const s = new ScriptedStream().push(ev.added(obj('b', '11')));
    source.onList(listOf('10', [obj('a', '5')])).onWatch(s);
    for await (const e of watcher) if (e.type === 'apply') break;
    expect(watcher.stopped).toBe(true);
    expect(s.closed).toBe(true);
  });
});
