/**
 * The watch stream's read path (src/client/watch/listwatch.ts ResponseWatchStream,
 * src/client/watch/watch-io.ts readEvents) against a real node:http server that
 * writes chunked JSON lines the way an API server does: many events per
 * socket read, lines and UTF-8 characters cut anywhere, a reader that falls
 * behind, a bad line, a cut connection; and the idle timeout of a read,
 * driven by a manual clock.
 */
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TransportError } from '../../../src/client/http/transport.js';
import {
  type ListWatchSource,
  ResponseWatchStream,
  type WatchStream,
} from '../../../src/client/watch/listwatch.js';
import { newWatcherMetrics } from '../../../src/client/watch/metrics.js';
import { readEvents, type WatchIoContext } from '../../../src/client/watch/watch-io.js';
import { ManualClock } from '../../../src/protocol/clock.js';
import type { WatchEvent } from '../../../src/protocol/events.js';
import { JsonLinesError } from '../../../src/protocol/jsonlines.js';
import { waitUntil } from '../../helpers/wait.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A server whose one route runs `handler`; resolves with an open answer to a GET on it. */
async function answer(handler: (res: ServerResponse) => void): Promise<IncomingMessage> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    handler(res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/watch' }, resolve);
    req.on('error', reject);
    req.end();
  });
}

const event = (i: number): WatchEvent => ({
  type: 'MODIFIED',
  object: { metadata: { name: `pod-${i}-é😀`, namespace: 'ns', resourceVersion: String(1000 + i) } },
});

/** Every event until the stream ends (or throws), taken as readEvents does: next(), then poll()s. */
async function drain(stream: WatchStream, out: WatchEvent[] = []): Promise<WatchEvent[]> {
  for (let e = await stream.next(); e !== undefined; e = await stream.next()) {
    out.push(e);
    for (let more = stream.poll?.(); more !== undefined; more = stream.poll?.()) out.push(more);
  }
  return out;
}

describe('ResponseWatchStream', () => {
  it('decodes every event in order, with lines and characters cut across writes', async () => {
    const events = Array.from({ length: 3000 }, (_, i) => event(i));
    const bytes = Buffer.from(`${events.map((e) => JSON.stringify(e)).join('\n')}\n`);
    const res = await answer((r) => {
      // Odd-sized writes cut lines, and UTF-8 sequences, anywhere.
      for (let at = 0; at < bytes.length; at += 997) r.write(bytes.subarray(at, at + 997));
      r.end();
    });
    let counted = 0;
    const stream = new ResponseWatchStream(res, (n) => {
      counted += n;
    });
    expect(await drain(stream)).toEqual(events);
    expect(counted).toBe(bytes.length);
  });

  it('stops reading the socket while the reader is behind, and resumes when it catches up', async () => {
    const line = `${JSON.stringify(event(1))}\n`;
    const total = 20_000;
    const res = await answer((r) => {
      let sent = 0;
      const write = () => {
        while (sent < total) {
          sent++;
          if (!r.write(line)) return void r.once('drain', write);
        }
        r.end();
      };
      write();
    });
    let received = 0;
    const stream = new ResponseWatchStream(res, (n) => {
      received += n;
    });
    // Nothing is read yet: the answer is paused once 256 KB wait, far short of the ~3 MB sent.
    await waitUntil(() => res.isPaused(), 'the response to pause');
    const whilePaused = received;
    await new Promise((r) => setImmediate(r));
    expect(received).toBe(whilePaused);
    expect(whilePaused).toBeLessThan(line.length * total);
    expect((await drain(stream)).length).toBe(total);
  });

  it('hands out the events before a malformed line, then fails with a JsonLinesError', async () => {
    const res = await answer((r) => {
      r.write(`${JSON.stringify(event(1))}\n${JSON.stringify(event(2))}\n{"type":"MODIFIED",oops}\n`);
      r.end(`${JSON.stringify(event(3))}\n`);
    });
    const stream = new ResponseWatchStream(res, () => {});
    const got: WatchEvent[] = [];
    const err = await drainInto(stream, got);
    expect(got).toEqual([event(1), event(2)]);
    expect(err).toBeInstanceOf(JsonLinesError);
  });

  it('a connection cut mid-answer is a TransportError (a probable EOF), after the events before it', async () => {
    const res = await answer((r) => {
      r.write(`${JSON.stringify(event(1))}\n{"type":"MODI`);
      setTimeout(() => r.socket?.destroy(), 20);
    });
    const stream = new ResponseWatchStream(res, () => {});
    const got: WatchEvent[] = [];
    const err = (await drainInto(stream, got)) as TransportError;
    expect(got).toEqual([event(1)]);
    expect(err).toBeInstanceOf(TransportError);
    expect(['ECONNRESET', 'UNEXPECTED_EOF', 'ERR_STREAM_PREMATURE_CLOSE']).toContain(err.code);
  });

  it('a clean end flushes a last line without a newline', async () => {
    const res = await answer((r) => r.end(`${JSON.stringify(event(1))}\n${JSON.stringify(event(2))}`));
    expect(await drain(new ResponseWatchStream(res, () => {}))).toEqual([event(1), event(2)]);
  });
});

describe.each([
  ['next()', false],
  ['onReadable()', true],
])('readEvents idle timeout (one timer per watcher), a stream waited on with %s', (_, readable) => {
  /** A stream whose events the test pushes; with `readable`, it offers `onReadable` too. */
  function scripted(): WatchStream & { push(e: WatchEvent): void } {
    const queue: WatchEvent[] = [];
    let wake: (() => void) | undefined;
    const stream: WatchStream & { push(e: WatchEvent): void } = {
      push(e) {
        queue.push(e);
        const w = wake;
        wake = undefined;
        w?.();
      },
      poll: () => queue.shift(),
      async next() {
        while (queue.length === 0) await new Promise<void>((r) => (wake = r));
        return queue.shift();
      },
      close() {},
    };
    if (readable)
      stream.onReadable = (w) => {
        if (queue.length > 0) w();
        else wake = w;
      };
    return stream;
  }

  function io(clock: ManualClock, stopped = new AbortController().signal): WatchIoContext {
    const source: ListWatchSource = {
      bytesRead: 0,
      list: () => Promise.reject(new Error('unused')),
      watch: () => Promise.reject(new Error('unused')),
    };
    return {
      source,
      clock,
      metrics: newWatcherMetrics(),
      stopped,
      requestTimeoutMs: 60_000,
      lazyDecode: false,
    };
  }

  it('counts the idle time from the start of each read, not from the first one', async () => {
    const clock = new ManualClock();
    const ctx = io(clock);
    const stream = scripted();
    // Read 1 starts at t=0 (a timer for t=100), and gets an event at t=50.
    const first = readEvents(ctx, stream, 100);
    clock.advance(50);
    stream.push(event(1));
    expect((await first).kind).toBe('events');
    // Read 2 starts at t=60: idle at t=160, not at t=100 when the first timer fires.
    clock.advance(10);
    let second: string | undefined;
    void readEvents(ctx, stream, 100).then((r) => {
      second = r.kind;
    });
    clock.advance(45);
    await flush();
    expect(second).toBeUndefined();
    clock.advance(50);
    await flush();
    expect(second).toBeUndefined();
    clock.advance(10);
    await waitUntil(() => second !== undefined, 'the second event');
    expect(second).toBe('idle');
  });

  it('a read waiting when the watcher stops ends as stopped', async () => {
    const clock = new ManualClock();
    const stop = new AbortController();
    const pending = readEvents(io(clock, stop.signal), scripted(), 1_000);
    stop.abort();
    expect((await pending).kind).toBe('stopped');
  });
});

describe('readEvents on a real answer (one promise per wait, through onReadable)', () => {
  const ctx = (): WatchIoContext => ({
    source: {
      bytesRead: 0,
      list: () => Promise.reject(new Error('unused')),
      watch: () => Promise.reject(new Error('unused')),
    },
    clock: new ManualClock(),
    metrics: newWatcherMetrics(),
    stopped: new AbortController().signal,
    requestTimeoutMs: 60_000,
    lazyDecode: false,
  });

  /** An open answer whose writes the test makes, and its stream with `next()` calls counted. */
  async function open() {
    let res!: ServerResponse;
    const msg = await answer((r) => {
      res = r;
      r.flushHeaders();
    });
    const stream = new ResponseWatchStream(msg, () => {});
    const counted = { nexts: 0 };
    const next = stream.next.bind(stream);
    stream.next = () => {
      counted.nexts++;
      return next();
    };
    return { res, stream, counted };
  }

  it('a whole line wakes the read, and no next() is needed', async () => {
    const { res, stream, counted } = await open();
    const io = ctx();
    const reading = readEvents(io, stream, 1_000);
    res.write(`${JSON.stringify(event(1))}\n${JSON.stringify(event(2))}\n`);
    expect(await reading).toEqual({ kind: 'events', events: [event(1), event(2)] });
    expect(counted.nexts).toBe(0);
    res.end();
    expect(await readEvents(io, stream, 1_000)).toEqual({ kind: 'closed' });
  });

  it('a piece of a line wakes it with nothing to take: it waits on for the rest', async () => {
    const { res, stream, counted } = await open();
    const io = ctx();
    const line = `${JSON.stringify(event(3))}\n`;
    const reading = readEvents(io, stream, 1_000);
    res.write(line.slice(0, 12));
    // The piece arrived, decoded to nothing, and the read went on waiting in next().
    await waitUntil(() => counted.nexts === 1, 'one call of next()');
    res.write(line.slice(12));
    expect(await reading).toEqual({ kind: 'events', events: [event(3)] });
    res.destroy();
    const cut = await readEvents(io, stream, 1_000);
    expect(cut.kind).toBe('cut');
  });
});

/** Drains into `out`; the error the stream ended with, if any. */
async function drainInto(stream: WatchStream, out: WatchEvent[]): Promise<unknown> {
  try {
    await drain(stream, out);
  } catch (err) {
    return err;
  }
  return undefined;
}

const flush = () => new Promise((r) => setImmediate(r));
