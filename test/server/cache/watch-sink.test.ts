/**
 * Watch write coalescing, seen on the wire: the lines a watcher gets in one
 * turn of the server's event loop go out as one HTTP chunk, in order, and a
 * stream that ends right after lines (an ERROR event) still carries them all.
 * Read through a raw socket, because an HTTP client hides chunk boundaries.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { call, ensureNamespace, pod, startTestServer } from '../../helpers/server.js';
import { waitUntil } from '../../helpers/wait.js';

const PODS = '/api/v1/namespaces/demo/pods';

/** The decoded chunks of a chunked response as they arrive, and whether the last (empty) chunk came. */
class RawWatch {
  readonly chunks: string[] = [];
  ended = false;
  private buf = Buffer.alloc(0);
  private headersDone = false;
  private readonly socket: Socket;

  constructor(url: string, path: string) {
    const { hostname, port } = new URL(url);
    this.socket = connect(Number(port), hostname);
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`);
    this.socket.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.parse();
    });
  }

  private parse(): void {
    if (!this.headersDone) {
      const end = this.buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      this.buf = this.buf.subarray(end + 4);
      this.headersDone = true;
    }
    for (;;) {
      const eol = this.buf.indexOf('\r\n');
      if (eol < 0) return;
      const size = Number.parseInt(this.buf.subarray(0, eol).toString(), 16);
      if (this.buf.length < eol + 2 + size + 2) return;
      if (size === 0) this.ended = true;
      else this.chunks.push(this.buf.subarray(eol + 2, eol + 2 + size).toString());
      this.buf = this.buf.subarray(eol + 2 + size + 2);
    }
  }

  /** Every line received, in order. */
  lines(): Array<{ type: string; object: { metadata?: { name?: string } } }> {
    return this.chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  }

  close(): void {
    this.socket.destroy();
  }
}

describe('watch write coalescing', () => {
  let server: RunningServer | undefined;
  const raws: RawWatch[] = [];
  afterEach(async () => {
    for (const r of raws.splice(0)) r.close();
    await server?.close();
    server = undefined;
  });

  async function start(): Promise<RunningServer> {
    server = await startTestServer({ compactionInterval: 0 });
    await ensureNamespace(server, 'demo');
    return server;
  }

  it('sends the initial state, written in one turn, as one chunk in order', async () => {
    const s = await start();
    const names = Array.from({ length: 20 }, (_, i) => `p${String(i).padStart(2, '0')}`);
    for (const name of names) expect((await call(s, 'POST', PODS, { body: pod(name) })).status).toBe(201);
    const raw = new RawWatch(s.url, `${PODS}?watch=1&resourceVersion=0`);
    raws.push(raw);
    await waitUntil(() => raw.lines().length >= names.length, 'the initial ADDED events');
    expect(raw.lines().map((l) => [l.type, l.object.metadata?.name])).toEqual(names.map((n) => ['ADDED', n]));
    expect(raw.chunks).toHaveLength(1);
    // A later change is a chunk of its own: nothing waits for company.
    expect((await call(s, 'POST', PODS, { body: pod('late') })).status).toBe(201);
    await waitUntil(() => raw.lines().length === names.length + 1, 'the ADDED of the late pod');
    expect(raw.chunks).toHaveLength(2);
  });

  it('delivers the lines gathered before a stream ends (a 410 ERROR) before the end', async () => {
    const s = await start();
    expect((await call(s, 'POST', PODS, { body: pod('a') })).status).toBe(201);
    await s.compact();
    // Resuming from before the compaction: the ERROR line and the end are written in one turn.
    const raw = new RawWatch(s.url, `${PODS}?watch=1&resourceVersion=1`);
    raws.push(raw);
    await waitUntil(() => raw.ended, 'the end of the stream');
    const lines = raw.lines();
    expect(lines.map((l) => l.type)).toEqual(['ERROR']);
    expect((lines[0].object as { code?: number }).code).toBe(410);
  });
});
