import type { WatchEventType } from '../../protocol/events.js';
import type { Status } from '../../protocol/status.js';
import type { WatcherCloseReason, WatcherObserver } from '../cache/watcher.js';

/**
 * What the live UI draws on a lane, at a resourceVersion: `event` (a change
 * sent), `bookmark`, `expired` (410), `list` (a LIST by this client),
 * `relist` (a LIST after a 410), `watch` (a fresh watch, after a list),
 * `resume` (a watch from the last resourceVersion it had), `closed`.
 */
export type MarkKind = 'event' | 'bookmark' | 'expired' | 'list' | 'relist' | 'watch' | 'resume' | 'closed';

/** One mark; `seq` orders every mark of the server, so a page can merge a snapshot and deltas. */
export interface Mark {
  seq: number;
  kind: MarkKind;
  rv: number;
}

/** Who is asking and for what: the identity that ties a client's watches and lists together. */
export interface ClientRequest {
  /** `pods`, `deployments.apps`. */
  resource: string;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  userAgent: string;
  /** The client's IP address (not its port: a reconnect comes from a new port). */
  address: string;
}

/** One lane as sent to the page. */
export interface LaneView extends ClientRequest {
  id: number;
  bookmarks: boolean;
  /** The resourceVersion this client could resume from now. */
  rv: number;
  /** Watch streams open now (0 between a drop and the reconnect). */
  open: number;
  counts: LaneCounts;
  /** The last few transitions, in words: "410 at 32 -> LIST at 150 -> watch from 150". */
  story: string[];
  /** Marks not yet sent (all of them in a snapshot). */
  marks: Mark[];
}

/** A lane's totals. */
export interface LaneCounts {
  watches: number;
  events: number;
  bookmarks: number;
  expired: number;
  lists: number;
  relists: number;
  resumes: number;
}

/** Lanes beyond the detail limit, summed. */
export interface Aggregate extends LaneCounts {
  lanes: number;
  open: number;
}

interface Lane extends LaneView {
  group: string;
  /** Got a 410; its next LIST is a relist. */
  awaitingRelist: boolean;
  /** Listed after a 410: its next watch starts fresh rather than resuming. */
  listedSinceWatch: boolean;
  lastBookmarkRv: number;
  /** The newest `seq` already sent to pages. */
  sentSeq: number;
  all: Mark[];
  lastActive: number;
}

/** Marks a lane keeps (older ones scroll off the page anyway). */
const MARKS_PER_LANE = 60;
/** Transitions a lane's story keeps. */
const STORY_LENGTH = 4;

/** Options of {@link WatchTimeline}. */
export interface TimelineOptions {
  /** Lanes sent in detail; the rest are summed in {@link Aggregate} (keeps the page responsive with 1,000 watchers). */
  laneLimit: number;
  /** A lane with no open watch is forgotten after this long (ms). */
  idleLaneMs: number;
  now: () => number;
}

/**
 * The server's watches as the live UI shows them: one lane per client
 * identity (user agent, address, resource, namespace, selectors, bookmarks
 * on or off), so a client's reconnects stay on one lane and the page can
 * tell "410 -> relist -> watch" from "resume from the bookmark". Fed from
 * the watch path through {@link WatcherObserver}s and from served lists;
 * recording is O(1) per line written.
 */
export class WatchTimeline {
  private readonly lanes = new Map<number, Lane>();
  private readonly byKey = new Map<string, Lane>();
  /** Lanes by identity without the bookmarks flag: a LIST does not say whether its client wants bookmarks. */
  private readonly byGroup = new Map<string, Set<Lane>>();
  private readonly dirty = new Set<Lane>();
  private readonly opts: TimelineOptions;
  private nextId = 1;
  private seq = 0;
  /** Lanes sent in detail by the last delta. */
  private detailed = new Set<number>();
  /** Relists seen (a LIST after a 410 on the same client). */
  relists = 0;

  constructor(opts: TimelineOptions) {
    this.opts = opts;
  }

  /** An observer for a watch starting now, on the lane of `client` with `bookmarks`. */
  watch(client: ClientRequest, bookmarks: boolean, requestedRv: number | undefined): WatcherObserver {
    const lane = this.laneFor(client, bookmarks);
    lane.open++;
    lane.counts.watches++;
    this.touch(lane);
    const startedFrom = requestedRv ?? 0;
    return {
      written: (type: WatchEventType, revision: number) => {
        if (type === 'ERROR') return;
        if (type === 'BOOKMARK') {
          lane.counts.bookmarks++;
          lane.lastBookmarkRv = revision;
          this.mark(lane, 'bookmark', revision);
        } else {
          lane.counts.events++;
          if (revision > 0) this.mark(lane, 'event', revision);
        }
        if (revision > lane.rv) lane.rv = revision;
      },
      failed: (status: Status) => {
        if (status.code === 410) {
          lane.counts.expired++;
          lane.awaitingRelist = true;
          this.mark(lane, 'expired', startedFrom);
          this.tell(lane, `410 Expired at ${startedFrom}`);
        } else {
          this.tell(lane, `ERROR ${status.code}`);
        }
      },
      started: (revision: number) => {
        // A watch right after a list (or the first one) starts fresh; any other resumes.
        const fresh = lane.counts.watches === 1 || lane.listedSinceWatch || requestedRv === undefined;
        lane.listedSinceWatch = false;
        if (revision > lane.rv || fresh) lane.rv = revision;
        if (fresh) {
          this.mark(lane, 'watch', revision);
          this.tell(lane, `watch from ${revision}`);
        } else {
          lane.counts.resumes++;
          this.mark(lane, 'resume', startedFrom);
          const fromBookmark = startedFrom > 0 && startedFrom === lane.lastBookmarkRv;
          this.tell(lane, `resume from ${startedFrom}${fromBookmark ? ' (bookmark)' : ''}`);
        }
      },
      closed: (reason: WatcherCloseReason) => {
        lane.open--;
        if (reason === 'error') {
          this.touch(lane);
          return;
        }
        this.mark(lane, 'closed', lane.rv);
        if (reason !== 'client') this.tell(lane, reason === 'dropped' ? 'dropped' : `closed (${reason})`);
      },
    };
  }

  /** Records a LIST served to `client` at `rv`: a relist when that client's last watch got a 410. */
  listed(client: ClientRequest, rv: number): void {
    const group = this.byGroup.get(groupKey(client));
    if (!group) return;
    let lane: Lane | undefined;
    for (const l of group) if (l.awaitingRelist && (!lane || l.lastActive > lane.lastActive)) lane = l;
    if (lane) {
      lane.awaitingRelist = false;
      lane.counts.relists++;
      this.relists++;
      this.mark(lane, 'relist', rv);
      this.tell(lane, `LIST at ${rv} (relist)`);
    } else {
      for (const l of group) if (!lane || l.lastActive > lane.lastActive) lane = l;
      if (!lane) return;
      this.mark(lane, 'list', rv);
    }
    lane.counts.lists++;
    lane.listedSinceWatch = true;
    if (rv > lane.rv) lane.rv = rv;
  }

  /** Every lane in detail with all its marks, for a page that just connected. */
  snapshot(): { lanes: LaneView[]; more: Aggregate } {
    const lanes: LaneView[] = [];
    let i = 0;
    for (const lane of this.lanes.values()) {
      if (i++ >= this.opts.laneLimit) break;
      lanes.push(view(lane, lane.all));
    }
    return { lanes, more: this.aggregate() };
  }

  /**
   * What changed since the last call: lanes in detail with their new marks,
   * the ids of lanes that left the detail (forgotten or pushed out), and the
   * sum of the rest. Also forgets lanes idle for too long.
   */
  delta(): { lanes: LaneView[]; removed: number[]; more: Aggregate } {
    this.forgetIdle();
    const lanes: LaneView[] = [];
    const detailed = new Set<number>();
    let i = 0;
    for (const lane of this.lanes.values()) {
      if (i++ >= this.opts.laneLimit) break;
      detailed.add(lane.id);
      const isNew = !this.detailed.has(lane.id);
      if (isNew || this.dirty.has(lane)) {
        lanes.push(view(lane, isNew ? lane.all : lane.all.filter((m) => m.seq > lane.sentSeq)));
      }
      lane.sentSeq = this.seq;
    }
    const removed = [...this.detailed].filter((id) => !detailed.has(id));
    this.detailed = detailed;
    this.dirty.clear();
    return { lanes, removed, more: this.aggregate() };
  }

  /** Lanes known (open or recently active). */
  get size(): number {
    return this.lanes.size;
  }

  private aggregate(): Aggregate {
    const more: Aggregate = {
      lanes: 0,
      open: 0,
      watches: 0,
      events: 0,
      bookmarks: 0,
      expired: 0,
      lists: 0,
      relists: 0,
      resumes: 0,
    };
    let i = 0;
    for (const lane of this.lanes.values()) {
      if (i++ < this.opts.laneLimit) continue;
      more.lanes++;
      more.open += lane.open;
      for (const k of Object.keys(lane.counts) as (keyof LaneCounts)[]) more[k] += lane.counts[k];
    }
    return more;
  }

  private laneFor(client: ClientRequest, bookmarks: boolean): Lane {
    const key = `${groupKey(client)}\u0000${bookmarks}`;
    let lane = this.byKey.get(key);
    if (lane) return lane;
    lane = {
      ...client,
      id: this.nextId++,
      bookmarks,
      rv: 0,
      open: 0,
      counts: { watches: 0, events: 0, bookmarks: 0, expired: 0, lists: 0, relists: 0, resumes: 0 },
      story: [],
      marks: [],
      group: groupKey(client),
      awaitingRelist: false,
      listedSinceWatch: false,
      lastBookmarkRv: 0,
      sentSeq: 0,
      all: [],
      lastActive: this.opts.now(),
    };
    this.lanes.set(lane.id, lane);
    this.byKey.set(key, lane);
    let group = this.byGroup.get(lane.group);
    if (!group) {
      group = new Set();
      this.byGroup.set(lane.group, group);
    }
    group.add(lane);
    return lane;
  }

  private forgetIdle(): void {
    const cutoff = this.opts.now() - this.opts.idleLaneMs;
    for (const lane of this.lanes.values()) {
      if (lane.open > 0 || lane.lastActive >= cutoff) continue;
      this.lanes.delete(lane.id);
      this.byKey.delete(`${lane.group}\u0000${lane.bookmarks}`);
      const group = this.byGroup.get(lane.group);
      group?.delete(lane);
      if (group?.size === 0) this.byGroup.delete(lane.group);
      this.dirty.delete(lane);
    }
  }

  private mark(lane: Lane, kind: MarkKind, rv: number): void {
    lane.all.push({ seq: ++this.seq, kind, rv });
    if (lane.all.length > MARKS_PER_LANE * 2) lane.all = lane.all.slice(-MARKS_PER_LANE);
    this.touch(lane);
  }

  private tell(lane: Lane, text: string): void {
    lane.story.push(text);
    if (lane.story.length > STORY_LENGTH) lane.story.shift();
    this.touch(lane);
  }

  private touch(lane: Lane): void {
    lane.lastActive = this.opts.now();
    this.dirty.add(lane);
  }
}

function groupKey(c: ClientRequest): string {
  return [
    c.userAgent,
    c.address,
    c.resource,
    c.namespace ?? '',
    c.labelSelector ?? '',
    c.fieldSelector ?? '',
  ].join('\u0000');
}

/** The page's view of a lane: its state and `marks` (the rest of the bookkeeping stays here). */
function view(lane: Lane, marks: Mark[]): LaneView {
  return {
    id: lane.id,
    resource: lane.resource,
    namespace: lane.namespace,
    labelSelector: lane.labelSelector,
    fieldSelector: lane.fieldSelector,
    userAgent: lane.userAgent,
    address: lane.address,
    bookmarks: lane.bookmarks,
    rv: lane.rv,
    open: lane.open,
    counts: { ...lane.counts },
    story: [...lane.story],
    marks: marks.slice(-MARKS_PER_LANE),
  };
}
