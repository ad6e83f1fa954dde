/**
 * watchmark's own actions on a running server, under `/debug/watchmark/`: its counters, a
 * compaction, cutting every watch, the faults (faults/) and the named snapshots
 * (snapshots/shelf.ts), over HTTP for tests in any language. director.ts sends these paths here,
 * whatever the method.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StatusError } from '../protocol/status.js';
import type { Cacher } from './cache/cacher.js';
import type { FailRule } from './faults/fail-rules.js';
import type { Faults } from './faults/server-faults.js';
import { parseJsonBody, readBody, sendJson } from './http/http-io.js';
import type { SnapshotShelf } from './snapshots/shelf.js';
import type { ServerStats } from './stats/stats.js';
import type { Store } from './stores/types.js';

/** What the debug actions need from the server. */
export interface DebugContext {
  stats: ServerStats;
  store: Store;
  cacher: Cacher;
  compact(): Promise<number>;
  dropWatches(): number;
  faults: Faults;
  snapshots: SnapshotShelf;
}

function reply(ctx: DebugContext, res: ServerResponse, code: number, body: unknown): void {
  ctx.stats.responseBytesWritten += sendJson(res, code, body);
}

/**
 * `/debug/watchmark/<action>`: `stats` (GET), `compact` and `drop-watches` (POST), the
 * faults under `faults/` (see {@link serveFaults}) and named snapshots under `snapshots/`
 * (snapshots/shelf.ts).
 */
export async function serveDebug(
  ctx: DebugContext,
  req: IncomingMessage,
  action: string,
  res: ServerResponse,
): Promise<void> {
  const method = req.method ?? 'GET';
  if (action === 'faults' || action.startsWith('faults/'))
    return serveFaults(ctx, req, action.slice('faults'.length), res);
  if (action === 'snapshots' || action.startsWith('snapshots/')) {
    const answer = await ctx.snapshots.serve(method, action.slice('snapshots'.length), () =>
      jsonObjectBody(req),
    );
    return reply(ctx, res, answer.code, answer.body);
  }
  if (action === 'stats') {
    if (method !== 'GET') throw StatusError.of('MethodNotAllowed', 'stats answers GET');
    return reply(ctx, res, 200, {
      ...ctx.stats,
      latestRevision: ctx.cacher.latestRevision,
      store: ctx.store.name,
    });
  }
  if (action === 'compact' || action === 'drop-watches') {
    if (method !== 'POST') throw StatusError.of('MethodNotAllowed', `${action} answers POST`);
    if (action === 'compact') return reply(ctx, res, 200, { compactedRevision: await ctx.compact() });
    // Answer first, then cut the streams (the caller may itself be watching).
    const count = ctx.cacher.all().reduce((n, c) => n + c.watchers.size, 0);
    reply(ctx, res, 200, { droppedWatches: count });
    setImmediate(() => ctx.dropWatches());
    return;
  }
  throw StatusError.of(
    'NotFound',
    `unknown debug action ${JSON.stringify(action)}: use stats, compact, drop-watches, faults/... or snapshots/...`,
    {},
  );
}

/** A JSON object body of a debug POST (an empty body is `{}`). */
async function jsonObjectBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req, 64 * 1024);
  if (raw.length === 0) return {};
  const body = parseJsonBody(raw);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw StatusError.of('BadRequest', 'the body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/**
 * The faults over HTTP, for tests in any language: `GET faults` shows the state; POST
 * `faults/fail-next` (a FailRule as JSON), `stall-watches`, `resume-watches`,
 * `pause` (`{"durationMs": N}`, required: nothing answers a paused server, so it resumes by
 * itself), `resume` and `clear`. Each answers with the state after it.
 */
async function serveFaults(
  ctx: DebugContext,
  req: IncomingMessage,
  action: string,
  res: ServerResponse,
): Promise<void> {
  const method = req.method ?? 'GET';
  const { faults } = ctx;
  if (action === '') {
    if (method !== 'GET') throw StatusError.of('MethodNotAllowed', 'faults answers GET');
    return reply(ctx, res, 200, faults.state());
  }
  const name = action.slice(1);
  const known = ['fail-next', 'stall-watches', 'resume-watches', 'pause', 'resume', 'clear'];
  if (!action.startsWith('/') || !known.includes(name)) {
    throw StatusError.of('NotFound', `unknown fault ${JSON.stringify(name)}: use ${known.join(', ')}`, {});
  }
  if (method !== 'POST') throw StatusError.of('MethodNotAllowed', `faults/${name} answers POST`);
  const body = await jsonObjectBody(req);
  try {
    switch (name) {
      case 'fail-next':
        faults.failNext(body as unknown as FailRule);
        break;
      case 'stall-watches':
        faults.stallWatches();
        break;
      case 'resume-watches':
        faults.resumeWatches();
        break;
      case 'pause': {
        const ms = body.durationMs;
        if (typeof ms !== 'number' || !(ms > 0)) {
          throw new Error(
            'pause needs {"durationMs": N} (N > 0): a paused server answers nothing, not even resume',
          );
        }
        // This request is past the door already: it is answered, the next ones wait.
        faults.pauseFor(ms);
        break;
      }
      case 'resume':
        faults.resume();
        break;
      case 'clear':
        faults.clear();
        break;
    }
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw StatusError.of('BadRequest', (err as Error).message);
  }
  return reply(ctx, res, 200, faults.state());
}
