/**
 * Many open watch streams in one process, as cheap as they can be made: the
 * clients share the machine's two cores with the server, so each line is
 * only split on its newline and read for two things (its `type`, and the
 * writer's send-time stamp) instead of being JSON-parsed. Over `https:` the
 * streams are TLS (the agent is then an `https.Agent`), and this process pays
 * for decrypting every line too.
 */
import type { Agent, ClientRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { requestFor } from '../../support/http.js';

/** Annotation the writer stamps on every write: `<phase tag>:<performance.now() ms at send>`. */
export const STAMP_ANNOTATION = 'bench.watchmark.io/sent';

const STAMP_NEEDLE = Buffer.from(`"${STAMP_ANNOTATION}":"`);
const TYPE_PREFIX = Buffer.from('{"type":"');
const QUOTE = 0x22;
const NEWLINE = 0x0a;

/** Which watcher population a stream belongs to. */
export type WatchRole = 'node' | 'namespace';

/** What the streams received for one phase (events stamped with its tag). */
export class PhaseTally {
  readonly tag: string;
  nodeEvents = 0;
  namespaceEvents = 0;
  /** Write-to-receive latencies (ms), when the phase records them. */
  readonly nodeLatencies: number[] | undefined;
  readonly namespaceLatencies: number[] | undefined;

  constructor(tag: string, recordLatency: boolean) {
    this.tag = tag;
    this.nodeLatencies = recordLatency ? [] : undefined;
    this.namespaceLatencies = recordLatency ? [] : undefined;
  }

  get events(): number {
    return this.nodeEvents + this.namespaceEvents;
  }
}

/** Counters over the fleet's whole life. */
export interface FleetCounters {
  /** Events by watch event type. */
  byType: Record<string, number>;
  /** Stamped events whose tag was not the current phase's (late arrivals). */
  stray: number;
  /** MODIFIED/ADDED/DELETED lines without a stamp. */
  unstamped: number;
  /** Streams that ended or broke while the fleet was open. */
  streamsLost: number;
  /** Bytes received on all streams. */
  bytes: number;
}

/** One watch stream: a request whose answer is split into lines as it arrives. */
class WatchStream {
  readonly role: WatchRole;
  req: ClientRequest | undefined;
  private pending: Buffer | undefined;
  private readonly fleet: WatchFleet;

  constructor(fleet: WatchFleet, role: WatchRole) {
    this.fleet = fleet;
    this.role = role;
  }

  onData(chunk: Buffer): void {
    const now = performance.now();
    this.fleet.counters.bytes += chunk.length;
    let start = 0;
    let nl = chunk.indexOf(NEWLINE);
    if (this.pending) {
      if (nl === -1) {
        this.pending = Buffer.concat([this.pending, chunk]);
        return;
      }
      this.fleet.onLine(this, Buffer.concat([this.pending, chunk.subarray(0, nl)]), now);
      this.pending = undefined;
      start = nl + 1;
      nl = chunk.indexOf(NEWLINE, start);
    }
    while (nl !== -1) {
      if (nl > start) this.fleet.onLine(this, chunk.subarray(start, nl), now);
      start = nl + 1;
      nl = chunk.indexOf(NEWLINE, start);
    }
    // Copy: the tail must survive the chunk's buffer being reused.
    if (start < chunk.length) this.pending = Buffer.from(chunk.subarray(start));
  }
}

/** The open watch streams of one benchmark scenario; `close()` ends them all. */
export class WatchFleet {
  readonly counters: FleetCounters = { byType: {}, stray: 0, unstamped: 0, streamsLost: 0, bytes: 0 };
  /** Open streams by role. */
  readonly open: Record<WatchRole, number> = { node: 0, namespace: 0 };
  private readonly streams = new Set<WatchStream>();
  private readonly baseUrl: string;
  private readonly agent: Agent;
  private current: PhaseTally | undefined;
  private closing = false;

  /** `agent` must suit `baseUrl`'s scheme: an `https.Agent` for `https:`. */
  constructor(baseUrl: string, agent: Agent) {
    this.baseUrl = baseUrl;
    this.agent = agent;
  }

  /** Events from now on that carry `tally.tag` are counted (and timed) in it. */
  track(tally: PhaseTally | undefined): void {
    this.current = tally;
  }

  /** Opens one watch; resolves once the server answered 200 and the stream is live. */
  openWatch(path: string, role: WatchRole, timeoutMs = 30_000): Promise<void> {
    const stream = new WatchStream(this, role);
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        reject(err);
      };
      const timer = setTimeout(
        () => fail(new Error(`watch ${path}: no answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const url = new URL(path, this.baseUrl);
      const req = requestFor(url)(
        url,
        { method: 'GET', agent: this.agent, headers: { accept: 'application/json' } },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            fail(new Error(`watch ${path}: HTTP ${res.statusCode}`));
            return;
          }
          settled = true;
          clearTimeout(timer);
          stream.req = req;
          this.streams.add(stream);
          this.open[role]++;
          res.on('data', (chunk: Buffer) => stream.onData(chunk));
          // A cut stream also closes: counted there (streamsLost), not lost here.
          res.on('error', () => {});
          res.once('close', () => this.onStreamGone(stream));
          resolve();
        },
      );
      req.on('error', (err) => {
        if (!settled) fail(err);
        // After the answer started, a socket error surfaces as the response's close.
      });
      req.end();
    });
  }

  /** Destroys every stream (the server sees the clients leave). */
  close(): void {
    this.closing = true;
    for (const s of this.streams) s.req?.destroy();
    this.streams.clear();
  }

  /** Reads one line: counts its type; for stamped objects, counts and times it in the current phase. */
  onLine(stream: WatchStream, line: Buffer, now: number): void {
    let type = 'UNKNOWN';
    if (line.subarray(0, TYPE_PREFIX.length).equals(TYPE_PREFIX)) {
      const end = line.indexOf(QUOTE, TYPE_PREFIX.length);
      if (end !== -1) type = line.toString('latin1', TYPE_PREFIX.length, end);
    }
    const { counters } = this;
    counters.byType[type] = (counters.byType[type] ?? 0) + 1;
    if (type === 'BOOKMARK' || type === 'ERROR' || type === 'UNKNOWN') return;
    const at = line.indexOf(STAMP_NEEDLE);
    if (at === -1) {
      counters.unstamped++;
      return;
    }
    const valueStart = at + STAMP_NEEDLE.length;
    const valueEnd = line.indexOf(QUOTE, valueStart);
    const stamp = line.toString('latin1', valueStart, valueEnd);
    const colon = stamp.indexOf(':');
    const tally = this.current;
    if (!tally || stamp.slice(0, colon) !== tally.tag) {
      counters.stray++;
      return;
    }
    const latency = now - Number(stamp.slice(colon + 1));
    if (stream.role === 'node') {
      tally.nodeEvents++;
      tally.nodeLatencies?.push(latency);
    } else {
      tally.namespaceEvents++;
      tally.namespaceLatencies?.push(latency);
    }
  }

  private onStreamGone(stream: WatchStream): void {
    if (!this.streams.delete(stream)) return;
    this.open[stream.role]--;
    if (!this.closing) this.counters.streamsLost++;
  }
}
