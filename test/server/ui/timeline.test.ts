/**
 * The live view's lane bookkeeping on its own: which lane a watch or list
 * lands on, how "410 -> relist -> watch" is told from "resume", and lanes
 * beyond the limit summed with a count. Driven the way the watch path drives
 * it (observer calls in the order serveWatch makes them).
 */
import { describe, expect, it } from 'vitest';
import { failureStatus } from '../../../src/protocol/status.js';
import { type ClientRequest, WatchTimeline } from '../../../src/server/ui/timeline.js';

const client = (userAgent: string, over: Partial<ClientRequest> = {}): ClientRequest => ({
  resource: 'pods',
  namespace: 'demo',
  labelSelector: 'app=db',
  userAgent,
  address: '127.0.0.1',
  ...over,
});

function timeline(laneLimit = 40) {
  let now = 1_000;
  const t = new WatchTimeline({ laneLimit, idleLaneMs: 60_000, now: () => now });
  return { t, advance: (ms: number) => (now += ms) };
}

describe('WatchTimeline', () => {
  it('tells a relist after 410 from a resume from the last bookmark, on one lane per client', () => {
    const { t } = timeline();
    // First watch of each (after its list, which no lane saw yet).
    const a = t.watch(client('a'), true, 10);
    a.started(10);
    const b = t.watch(client('a'), false, 10);
    b.started(10);
    a.written('BOOKMARK', 50, 100);
    a.closed('dropped');
    b.closed('dropped');
    // The client with bookmarks resumes from 50; the other asks for 10, which is gone.
    const a2 = t.watch(client('a'), true, 50);
    a2.started(50);
    const b2 = t.watch(client('a'), false, 10);
    b2.failed(failureStatus('Expired', 'too old resource version: 10 (60)', undefined, 410));
    b2.closed('error');
    t.listed(client('a'), 70);
    const b3 = t.watch(client('a'), false, 70);
    b3.started(70);

    const { lanes } = t.delta();
    expect(lanes).toHaveLength(2);
    const [withBm, without] = lanes;
    expect(withBm).toMatchObject({ bookmarks: true, rv: 50, open: 1 });
    expect(withBm.counts).toMatchObject({ watches: 2, resumes: 1, expired: 0, relists: 0, bookmarks: 1 });
    expect(withBm.story).toEqual(['watch from 10', 'dropped', 'resume from 50 (bookmark)']);
    expect(without).toMatchObject({ bookmarks: false, rv: 70, open: 1 });
    expect(without.counts).toMatchObject({ watches: 3, resumes: 0, expired: 1, relists: 1, lists: 1 });
    expect(without.story).toEqual(['dropped', '410 Expired at 10', 'LIST at 70 (relist)', 'watch from 70']);
    expect(without.marks.map((m) => m.kind)).toEqual(['watch', 'closed', 'expired', 'relist', 'watch']);
    expect(t.relists).toBe(1);
  });

  it('sends only new marks in a delta, and everything in a snapshot', () => {
    const { t } = timeline();
    const w = t.watch(client('a'), true, 1);
    w.started(1);
    w.written('ADDED', 2, 10);
    expect(t.delta().lanes[0].marks.map((m) => m.rv)).toEqual([1, 2]);
    w.written('MODIFIED', 3, 10);
    expect(t.delta().lanes[0].marks.map((m) => m.rv)).toEqual([3]);
    expect(t.delta().lanes).toEqual([]);
    expect(t.snapshot().lanes[0].marks.map((m) => m.rv)).toEqual([1, 2, 3]);
  });

  it('sums the lanes beyond the limit with a count, and forgets idle closed lanes', () => {
    const { t, advance } = timeline(3);
    const observers = Array.from({ length: 10 }, (_, i) => {
      const o = t.watch(client(`kubelet-${i}`, { fieldSelector: `spec.nodeName=node-${i}` }), true, 5);
      o.started(5);
      o.written('ADDED', 6, 10);
      return o;
    });
    const first = t.delta();
    expect(first.lanes.map((l) => l.userAgent)).toEqual(['kubelet-0', 'kubelet-1', 'kubelet-2']);
    expect(first.more).toMatchObject({ lanes: 7, open: 7, events: 7, watches: 7 });
    // The first lane closes and goes idle: the next lane moves into the detail.
    observers[0].closed('client');
    advance(61_000);
    const next = t.delta();
    expect(next.removed).toEqual([1]);
    expect(next.lanes.map((l) => l.userAgent)).toContain('kubelet-3');
    expect(next.more.lanes).toBe(6);
    expect(t.size).toBe(9);
  });
});
