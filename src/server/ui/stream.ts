import type { ServerResponse } from 'node:http';
import type { Clock, TimerHandle } from '../../protocol/clock.js';
import type { ServerStats } from '../stats/stats.js';
import type { Aggregate, LaneView, WatchTimeline } from './timeline.js';

/** The longest a stream stays silent (ms). */
const KEEPALIVE_MS = 15_000;

/** Notes a page that connects late still gets. */
const RECENT_NOTES = 8;

/** The history window as the page draws it: the oldest resourceVersion a watch may still start from. */
export interface HistoryView {
  latest: number;
  /** The oldest of all resources that have lanes (or of all, when none). */
  oldest: number;
  /** Per resource (`pods`, `deployments.apps`). */
  oldestByResource: Record<string, number>;
}

/** A server-wide happening drawn across every lane (a fault injection, most often). */
export interface Note {
  kind: 'compact' | 'drop';
  /** When (ms since the epoch, server clock). */
  time: number;
  rv: number;
  text: string;
}

/** One server-sent event's data: everything the page needs to redraw. */
export interface Frame {
  /** True for the first frame a page gets: lanes carry all their marks, and nothing else exists. */
  snapshot: boolean;
  history: HistoryView;
  counters: Counters;
  lanes: LaneView[];
  removed: number[];
  more: Aggregate;
  notes: Note[];
}

/** The page's counters. */
export interface Counters {
  openWatchers: number;
  watchesStarted: number;
  bookmarksSent: number;
  expiredSent: number;
  /** LISTs served (any mode). */
  lists: number;
  /** LISTs that followed a 410 on the same client. */
  relists: number;
  eventsSent: number;
  watchBytesWritten: number;
  responseBytesWritten: number;
}

/** Options of {@link UiStream}. */
export interface UiStreamOptions {
  clock: Clock;
  stats: ServerStats;
  timeline: WatchTimeline;
  history: () => HistoryView;
  /** How often changes are coalesced into one frame (ms). */
  intervalMs: number;
  /** A page that leaves this many bytes unread is cut; its EventSource reconnects and gets a snapshot. */
  maxBufferedBytes: number;
}

/**
 * The server-sent-events stream the page reads: one frame per interval at
 * most, however many watch lines were written in between, so the page's cost
 * follows the frame rate, not the event rate. Frames are only computed while
 * at least one page is connected.
 */
export class UiStream {
  private readonly clients = new Set<ServerResponse>();
  private readonly opts: UiStreamOptions;
  private notes: Note[] = [];
  /** The last few notes, for a page that connects later (the demo's story has happened by then). */
  private recentNotes: Note[] = [];
  private timer: TimerHandle | undefined;
  private lastSent = '';
  private lastWriteAt = 0;
  private closed = false;

  constructor(opts: UiStreamOptions) {
    this.opts = opts;
  }

  /** Pages connected now. */
  get connected(): number {
    return this.clients.size;
  }

  /** Adds a note for the next frame. */
  note(note: Omit<Note, 'time'>): void {
    const timed = { ...note, time: this.opts.clock.now() };
    this.recentNotes = [...this.recentNotes.slice(-(RECENT_NOTES - 1)), timed];
    if (this.clients.size > 0) this.notes.push(timed);
  }

  /** Starts streaming to `res` (the request was authenticated): a snapshot now, deltas after. */
  open(res: ServerResponse): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    this.clients.add(res);
    res.on('close', () => this.clients.delete(res));
    const { lanes, more } = this.opts.timeline.snapshot();
    this.send(res, { ...this.frame(true, lanes, [], more), notes: this.recentNotes });
    this.schedule();
  }

  /** Ends every page's stream and stops the timer. */
  close(): void {
    this.closed = true;
    this.timer?.cancel();
    for (const res of this.clients) res.end();
    this.clients.clear();
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = this.opts.clock.setTimeout(() => {
      this.timer = undefined;
      if (this.clients.size === 0) return;
      this.tick();
      this.schedule();
    }, this.opts.intervalMs);
  }

  private tick(): void {
    const { lanes, removed, more } = this.opts.timeline.delta();
    const frame = this.frame(false, lanes, removed, more);
    this.notes = [];
    // An idle server sends nothing new: skip identical frames (the page keeps the last one).
    const text = JSON.stringify(frame);
    const now = this.opts.clock.now();
    if (text === this.lastSent) {
      // A comment now and then keeps idle proxies from closing a quiet stream.
      if (now - this.lastWriteAt >= KEEPALIVE_MS) {
        this.lastWriteAt = now;
        for (const res of this.clients) res.write(':\n\n');
      }
      return;
    }
    this.lastSent = text;
    this.lastWriteAt = now;
    for (const res of this.clients) this.write(res, text);
  }

  private frame(snapshot: boolean, lanes: LaneView[], removed: number[], more: Aggregate): Frame {
    const s = this.opts.stats;
    const lists = Object.values(s.lists).reduce((a, b) => a + b, 0);
    const eventsSent = Object.values(s.eventsSent).reduce((a, b) => a + b, 0);
    return {
      snapshot,
      history: this.opts.history(),
      counters: {
        openWatchers: s.openWatchers,
        watchesStarted: s.watchesStarted,
        bookmarksSent: s.bookmarksSent,
        expiredSent: s.expiredSent,
        lists,
        relists: this.opts.timeline.relists,
        eventsSent,
        watchBytesWritten: s.watchBytesWritten,
        responseBytesWritten: s.responseBytesWritten,
      },
      lanes,
      removed,
      more,
      notes: this.notes,
    };
  }

  private send(res: ServerResponse, frame: Frame): void {
    this.write(res, JSON.stringify(frame));
  }

  private write(res: ServerResponse, data: string): void {
    if (res.writableLength > this.opts.maxBufferedBytes) {
      res.destroy();
      this.clients.delete(res);
      return;
    }
    res.write(`event: frame\ndata: ${data}\n\n`);
  }
}
