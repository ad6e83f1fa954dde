import { StatusError } from '../../protocol/status.js';
import type { ServerStats } from '../stats/stats.js';
import type { Cacher } from '../watchcache/cacher.js';

/**
 * Parses a resourceVersion query value as the server orders them: decimal
 * integers. `undefined` and "" mean unset; anything else not a non-negative
 * integer is a 400.
 */
export function parseResourceVersion(
  value: string | undefined,
  param = 'resourceVersion',
): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,15}$/.test(value)) {
    throw StatusError.of(
      'BadRequest',
      `invalid ${param}: ${JSON.stringify(value)} is not a valid resource version`,
    );
  }
  return Number(value);
}

/** The 504 kube-apiserver answers for a resourceVersion newer than it has, after waiting. */
export function tooLargeResourceVersion(requested: number, current: number): StatusError {
  return StatusError.of(
    'Timeout',
    `Timeout: Too large resource version: ${requested}, current: ${current}`,
    {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    },
    504,
  );
}

/**
 * Waits, up to `waitMs`, for the watch cache to reach `revision`; a revision
 * it does not reach in time is a 504 {@link tooLargeResourceVersion} (counted).
 */
export async function awaitRevision(
  cacher: Pick<Cacher, 'latestRevision' | 'waitForRevision'>,
  stats: Pick<ServerStats, 'tooLargeSent'>,
  revision: number,
  waitMs: number,
): Promise<void> {
  if (revision <= cacher.latestRevision) return;
  if (await cacher.waitForRevision(revision, waitMs)) return;
  stats.tooLargeSent++;
  throw tooLargeResourceVersion(revision, cacher.latestRevision);
}

/** The 410 for a resourceVersion the history or the store no longer reaches. */
export function tooOldResourceVersion(requested: number, oldest: number): StatusError {
  return StatusError.of('Expired', `too old resource version: ${requested} (${oldest})`, undefined, 410);
}

/** A continue token: the list's revision and the key (relative to the list prefix) to resume at. */
export interface ContinueToken {
  rv: number;
  start: string;
}

/** Encodes a continue token the way kube-apiserver shapes it (base64 JSON). */
export function encodeContinue(token: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: token.rv, start: token.start })).toString(
    'base64url',
  );
}

/** Decodes a continue token; a malformed one is a 400. */
export function decodeContinue(value: string): ContinueToken {
  const bad = (why: string) => StatusError.of('BadRequest', `continue key is not valid: ${why}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw bad('not base64-encoded JSON');
  }
  const t = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (t?.v !== 'meta.k8s.io/v1')
    throw bad('incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (typeof t.rv !== 'number' || !Number.isInteger(t.rv) || t.rv <= 0) throw bad('bad resourceVersion');
  if (typeof t.start !== 'string' || t.start.includes('..') || t.start.startsWith('/'))
    throw bad('bad start key');
  return { rv: t.rv, start: t.start };
}
