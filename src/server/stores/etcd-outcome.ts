import type { IKeyValue } from 'etcd3';
import { StoreError, type StoreKV } from './types.js';

/**
 * Settling a write whose answer was lost.
 *
 * A transaction sent to etcd can commit and still fail on its way back: the
 * member dies after the commit, the connection resets, the deadline passes
 * while the reply is in flight. etcd's Go client, and so kube-apiserver,
 * never resend such a write ("write-at-most-once": client/v3/retry_interceptor.go,
 * isSafeRetryMutableRPC retries a Put, Delete or Txn only when no connection
 * was ever made) and the API request fails with a 500. This store keeps
 * writes going through a member's death (see EtcdStore.write), so before it
 * sends a write again it asks etcd what became of the first one, from the
 * key's history: every write here is a transaction conditioned on the key's
 * mod_revision (0 for a create), so at most one copy can apply, and it can
 * only be the key's first change after the revision the write was
 * conditioned on. Resending blindly instead would answer a create that did
 * commit with 409 AlreadyExists, and a delete that did with 404.
 */

/** A read of one key as of a revision (0: now); the header's revision is the read's. */
export type ReadAt = (revision: number) => Promise<{ kv: IKeyValue | undefined; revision: number }>;

/** What a lost write turned out to be: applied (with the answer it would have had), or not (send it again). */
export type Outcome = StoreKV | undefined;

/**
 * The first change of the key after `after`, when it was at mod_revision
 * `after` (a change is a put or a delete; once changed, a key never returns
 * to that mod_revision, so bisection over past revisions finds it). Undefined
 * while the key is unchanged.
 */
export async function firstChangeAfter(
  read: ReadAt,
  after: number,
): Promise<{ revision: number; kv: IKeyValue | undefined } | undefined> {
  const changed = (kv: IKeyValue | undefined) => kv === undefined || Number(kv.mod_revision) !== after;
  const now = await read(0);
  if (!changed(now.kv)) return undefined;
  // Unchanged at lo, changed at hi.
  let lo = after;
  let hi = now.revision;
  let atHi = now.kv;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    const { kv } = await read(mid);
    if (changed(kv)) {
      hi = mid;
      atHi = kv;
    } else {
      lo = mid;
    }
  }
  return { revision: hi, kv: atHi };
}

/**
 * A create (compare: absent) whose answer was lost: applied if the key's
 * current incarnation was created with exactly this value. Object values
 * carry a fresh uid, so no other create writes the same bytes. (Created and
 * deleted again by someone else within the retry reads as not applied.)
 */
export async function settleCreate(read: ReadAt, key: string, value: Buffer): Promise<Outcome> {
  const { kv } = await read(0);
  if (!kv) return undefined;
  const created = Number(kv.create_revision);
  const first = Number(kv.mod_revision) === created ? kv : (await read(created)).kv;
  if (!first?.value.equals(value)) return undefined;
  return { key, value: value.toString('utf8'), modRevision: created, createRevision: created };
}

/** An update conditioned on mod_revision `expected` whose answer was lost: applied if the key's first change after it wrote this value. */
export async function settleUpdate(
  read: ReadAt,
  key: string,
  value: Buffer,
  expected: number,
): Promise<Outcome> {
  const change = await firstChangeAfter(read, expected);
  if (!change?.kv?.value.equals(value)) return undefined;
  return {
    key,
    value: value.toString('utf8'),
    modRevision: change.revision,
    createRevision: Number(change.kv.create_revision),
  };
}

/**
 * A delete conditioned on mod_revision `expected` whose answer was lost:
 * applied if the key's first change after it was a delete (another delete
 * of that same version is indistinguishable and has the same effect). The
 * answer carries the deleted value, read as of `expected`.
 */
export async function settleDelete(read: ReadAt, key: string, expected: number): Promise<Outcome> {
  const change = await firstChangeAfter(read, expected);
  if (!change || change.kv) return undefined;
  const { kv: deleted } = await read(expected);
  if (!deleted) return undefined;
  return {
    key,
    value: deleted.value.toString('utf8'),
    modRevision: change.revision,
    createRevision: Number(deleted.create_revision),
  };
}

/** When the history needed to settle a write is gone (compacted), its outcome is unknown: say so. */
export function unknownOutcome(key: string, err: StoreError): StoreError {
  return new StoreError(
    'unavailable',
    `etcd: the write to ${key} may or may not have been applied (its answer was lost, and the history that would tell was compacted: ${err.message})`,
  );
}
