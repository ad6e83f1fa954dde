import { ConsecutiveBreaker, circuitBreaker, handleWhen, noop } from 'cockatiel';
import { Etcd3, type IKeyValue, type IResponseOp } from 'etcd3';
import { unreachable } from './etcd-errors.js';
import { normalizePrefix, prefixEnd } from './etcd-keys.js';
import { type Outcome, type ReadAt, settleCreate, settleDelete, settleUpdate } from './etcd-outcome.js';
import { type RetryOptions, settledWrite, whileUnavailable } from './etcd-retry.js';
import { EtcdPrefixWatch } from './etcd-watch.js';
import {
  type Store,
  StoreError,
  type StoreEvent,
  type StoreKV,
  type StoreListOptions,
  type StoreListResult,
  type StoreWatch,
} from './types.js';

/** The key prefix when none is given: a keyspace of its own, never kube-apiserver's `/registry`. */
export const DEFAULT_ETCD_PREFIX = '/watchmark';

/** Options of {@link EtcdStore}. */
export interface EtcdStoreOptions {
  /** Client URLs of the members (`http://127.0.0.1:2379`); https needs `tls.caPem`. */
  endpoints: string[];
  /** Every key lives below this (default {@link DEFAULT_ETCD_PREFIX}). */
  prefix?: string;
  /** PEM CA, client certificate and key for https members (`--etcd-cafile/--etcd-certfile/--etcd-keyfile`). */
  tls?: { caPem?: string; certPem?: string; keyPem?: string };
  /** Deadline of one etcd call (default 10 s). */
  requestTimeoutMs?: number;
  /**
   * How long calls are retried while etcd is unavailable (a member died, an
   * election runs; default 15 s). It must outlast one attempt caught by a
   * leader's death: etcd answers such a proposal only after its own request
   * timeout, 5 s + 2 × the election timeout (7 s at etcd's defaults; etcd's
   * ServerConfig.ReqTimeout), and the next attempt then waits for the new leader.
   */
  unavailableRetryMs?: number;
  /** Receives one-line log messages. */
  log?: (message: string) => void;
}

/** Keys per range call when a list asks for everything: keeps each gRPC answer small. */
const PAGE = 5_000;

/**
 * The {@link Store} on a real etcd cluster (v3 API, through the `etcd3`
 * package's gRPC clients). resourceVersions are etcd revisions: an object's
 * is its key's mod_revision, a list's the revision it was read at. Writes are
 * transactions conditioned on the key's mod_revision, so a concurrent writer
 * through another API server gets `conflict`, never a lost update. Every
 * change reaches the watch cache through ONE etcd watch over the prefix.
 */
export class EtcdStore implements Store {
  readonly name = 'etcd';
  /** The key prefix, without a trailing slash. */
  readonly prefix: string;
  private readonly client: Etcd3;
  private readonly opts: EtcdStoreOptions;
  private readonly watches = new Set<StoreWatch>();
  /** The highest compaction this store knows of (its own, or one etcd reported). */
  private knownCompacted = 0;
  private readonly retry: RetryOptions;

  constructor(opts: EtcdStoreOptions) {
    if (opts.endpoints.length === 0) throw new Error('etcd store: no endpoints');
    this.opts = opts;
    this.prefix = normalizePrefix(opts.prefix ?? DEFAULT_ETCD_PREFIX);
    this.retry = {
      endpoints: opts.endpoints,
      unavailableMs: opts.unavailableRetryMs ?? 15_000,
      log: (message) => this.log(message),
    };
    const timeout = opts.requestTimeoutMs ?? 10_000;
    const tls = opts.tls;
    this.client = new Etcd3({
      hosts: opts.endpoints,
      credentials: tls?.caPem
        ? {
            rootCertificate: Buffer.from(tls.caPem),
            certChain: tls.certPem ? Buffer.from(tls.certPem) : undefined,
            privateKey: tls.keyPem ? Buffer.from(tls.keyPem) : undefined,
          }
        : undefined,
      // Big lists and watch batches: no 4 MiB receive cap. Streams get no deadline.
      grpcOptions: {
        'grpc.max_receive_message_length': -1,
        'grpc.max_send_message_length': -1,
        // A member that hangs (not one that dies: that resets the connection) is noticed
        // within 40 s; etcd accepts pings no more often than every 5 s.
        'grpc.keepalive_time_ms': 30_000,
        'grpc.keepalive_timeout_ms': 10_000,
      },
      defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + timeout }),
      // etcd3's defaults also count "resource exhausted" (an object over etcd's limit) as a
      // host failure, and three of those shut the client out of a healthy member. Only a
      // member that cannot be reached is skipped (for 2 s). The package's own retry is off:
      // it would resend a transaction whose member died after committing it (see
      // etcd-outcome.ts); `call` and `write` below retry, on another member.
      faultHandling: {
        host: () =>
          circuitBreaker(handleWhen(unreachable), {
            halfOpenAfter: 2_000,
            breaker: new ConsecutiveBreaker(2),
          }),
        global: noop,
      },
    });
  }

  async currentRevision(): Promise<number> {
    const res = await this.call(() => this.client.kv.range({ key: this.etcdKey('/'), count_only: true }));
    return Number(res.header.revision);
  }

  async compactedRevision(): Promise<number> {
    const res = await this.call(() => this.client.kv.range({ key: this.compactKey() }));
    const stored = res.kvs.length > 0 ? Number(res.kvs[0].value.toString('utf8')) || 0 : 0;
    this.knownCompacted = Math.max(this.knownCompacted, stored);
    return this.knownCompacted;
  }

  async get(key: string, revision?: number): Promise<StoreKV | undefined> {
    const res = await this.read(revision, () =>
      this.client.kv.range({ key: this.etcdKey(key), revision: revision || 0 }),
    );
    return res.kvs.length > 0 ? this.toKV(res.kvs[0]) : undefined;
  }

  async list(prefix: string, options: StoreListOptions = {}): Promise<StoreListResult> {
    const start = options.startKey && options.startKey > prefix ? options.startKey : prefix;
    const rangeEnd = prefixEnd(this.etcdKey(prefix));
    const limit = options.limit && options.limit > 0 ? options.limit : 0;
    let revision = options.revision || 0;
    let from = this.etcdKey(start);
    const items: StoreKV[] = [];
    for (;;) {
      const want = limit > 0 ? Math.min(PAGE, limit - items.length) : PAGE;
      const readAt = revision;
      const res = await this.read(options.revision, () =>
        this.client.kv.range({ key: from, range_end: rangeEnd, revision: readAt, limit: want }),
      );
      // Every further page reads at the first one's revision: one consistent snapshot.
      if (revision === 0) revision = Number(res.header.revision);
      for (const kv of res.kvs) items.push(this.toKV(kv));
      const count = Number(res.count);
      const full = limit > 0 && items.length >= limit;
      if (!res.more || full) {
        const remaining = res.more ? count - res.kvs.length : 0;
        return { items, revision, more: res.more, remaining };
      }
      from = Buffer.concat([res.kvs[res.kvs.length - 1].key, Buffer.from([0])]);
    }
  }

  async create(key: string, value: string): Promise<StoreKV> {
    const k = this.etcdKey(key);
    const bytes = Buffer.from(value);
    const written = await this.write(
      key,
      () =>
        this.client.kv.txn({
          compare: [{ key: k, target: 'Mod', result: 'Equal', mod_revision: 0 }],
          success: [{ request_put: { key: k, value: bytes } }],
        }),
      (read) => settleCreate(read, key, bytes),
    );
    if ('settled' in written) return written.settled;
    const res = written.res;
    if (!res.succeeded) throw new StoreError('exists', `key ${key} already exists`);
    const rev = Number(res.header.revision);
    return { key, value, modRevision: rev, createRevision: rev };
  }

  async update(key: string, value: string, expectedModRevision: number): Promise<StoreKV> {
    const k = this.etcdKey(key);
    const bytes = Buffer.from(value);
    const written = await this.write(
      key,
      () =>
        this.client.kv.txn({
          compare: [{ key: k, target: 'Mod', result: 'Equal', mod_revision: expectedModRevision }],
          success: [{ request_put: { key: k, value: bytes, prev_kv: true } }],
          failure: [{ request_range: { key: k } }],
        }),
      (read) => settleUpdate(read, key, bytes, expectedModRevision),
    );
    if ('settled' in written) return written.settled;
    const res = written.res;
    if (!res.succeeded) throw this.writeRefused(key, res.responses, expectedModRevision);
    const prev = res.responses[0].response_put.prev_kv;
    return {
      key,
      value,
      modRevision: Number(res.header.revision),
      createRevision: Number(prev.create_revision),
    };
  }

  async delete(key: string, expectedModRevision?: number): Promise<StoreKV> {
    const k = this.etcdKey(key);
    const compare =
      expectedModRevision === undefined
        ? { key: k, target: 'Mod' as const, result: 'Greater' as const, mod_revision: 0 }
        : { key: k, target: 'Mod' as const, result: 'Equal' as const, mod_revision: expectedModRevision };
    const written = await this.write(
      key,
      () =>
        this.client.kv.txn({
          compare: [compare],
          success: [{ request_delete_range: { key: k, prev_kv: true } }],
          failure: [{ request_range: { key: k } }],
        }),
      // Unconditioned, a lost delete cannot be told from another's: sent again, it answers not-found.
      (read) =>
        expectedModRevision === undefined
          ? Promise.resolve(undefined)
          : settleDelete(read, key, expectedModRevision),
    );
    if ('settled' in written) return written.settled;
    const res = written.res;
    if (!res.succeeded) throw this.writeRefused(key, res.responses, expectedModRevision);
    const prev = res.responses[0].response_delete_range.prev_kvs[0];
    return {
      key,
      value: prev.value.toString('utf8'),
      modRevision: Number(res.header.revision),
      createRevision: Number(prev.create_revision),
    };
  }

  watch(
    afterRevision: number,
    onEvents: (events: StoreEvent[]) => void,
    onError: (err: Error) => void,
  ): StoreWatch {
    const key = Buffer.from(`${this.prefix}/`);
    const prefixLength = this.prefix.length;
    const watch = new EtcdPrefixWatch({
      client: this.client,
      key,
      rangeEnd: prefixEnd(key),
      storeKey: (k) => k.toString('utf8').slice(prefixLength),
      afterRevision,
      onEvents,
      onError: (err) => {
        this.watches.delete(handle);
        if (err instanceof StoreError && err.code === 'compacted') this.noteCompacted(err.revision);
        onError(err);
      },
      log: (message) => this.log(`etcd watch: ${message}`),
    });
    const handle: StoreWatch = {
      close: () => {
        this.watches.delete(handle);
        watch.close();
      },
    };
    this.watches.add(handle);
    return handle;
  }

  async compact(revision: number): Promise<void> {
    const current = await this.currentRevision();
    const target = Math.min(revision, current);
    if (target <= this.knownCompacted) return;
    try {
      await this.call(() => this.client.kv.compact({ revision: target, physical: false }));
    } catch (err) {
      // Someone (another API server, an operator) compacted further already: nothing to do.
      if (!(err instanceof StoreError && err.code === 'compacted')) throw err;
    }
    this.noteCompacted(target);
  }

  /**
   * One step of kube-apiserver's compaction loop (storage/etcd3/compact.go),
   * shared by every API server on this prefix: a transaction bumps the
   * compaction key only if its version is still `lastVersion`, so of several
   * servers ticking in the same interval exactly one wins and compacts to
   * `candidate` (the revision seen one interval ago). Answers the key's
   * version and the current revision, the next tick's inputs.
   */
  async compactIfTurn(
    lastVersion: number,
    candidate: number,
  ): Promise<{ version: number; revision: number }> {
    const k = this.compactKey();
    // Sent again after a lost answer, the bump fails its compare: this tick reads as another
    // server's, and the next one compacts.
    const res = await this.call(() =>
      this.client.kv.txn({
        compare: [{ key: k, target: 'Version', result: 'Equal', version: lastVersion }],
        success: [{ request_put: { key: k, value: Buffer.from(String(candidate)) } }],
        failure: [{ request_range: { key: k } }],
      }),
    );
    const revision = Number(res.header.revision);
    if (!res.succeeded) {
      const kv = res.responses[0]?.response_range.kvs[0];
      return { version: kv ? Number(kv.version) : 0, revision };
    }
    // The very first tick only claims the key (nothing is a full interval old yet).
    if (candidate > 0) await this.compact(candidate);
    return { version: lastVersion + 1, revision };
  }

  async close(): Promise<void> {
    for (const w of [...this.watches]) w.close();
    this.client.close();
  }

  /** The etcd key of a store key. */
  private etcdKey(key: string): Buffer {
    return Buffer.from(this.prefix + key);
  }

  private compactKey(): Buffer {
    // Inside the prefix on purpose: the one prefix watch sees the key's writes,
    // so the caches' revision follows every revision this cluster creates.
    return Buffer.from(`${this.prefix}/compact_rev_key`);
  }

  private toKV(kv: IKeyValue): StoreKV {
    return {
      key: kv.key.toString('utf8').slice(this.prefix.length),
      value: kv.value.toString('utf8'),
      modRevision: Number(kv.mod_revision),
      createRevision: Number(kv.create_revision),
    };
  }

  private writeRefused(key: string, responses: IResponseOp[], expected: number | undefined): StoreError {
    const current = responses[0]?.response_range.kvs[0];
    if (!current) return new StoreError('not-found', `key ${key} not found`);
    return new StoreError('conflict', `key ${key} is at revision ${current.mod_revision}, not ${expected}`);
  }

  private noteCompacted(revision: number | undefined): void {
    if (revision !== undefined) this.knownCompacted = Math.max(this.knownCompacted, revision);
  }

  /** A read at `revision`: `compacted` and `future` carry the revisions the 410 and 504 messages quote. */
  private async read<T>(revision: number | undefined, fn: () => Promise<T>): Promise<T> {
    try {
      return await this.call(fn);
    } catch (err) {
      if (err instanceof StoreError && err.code === 'compacted') {
        const known = await this.compactedRevision().catch(() => this.knownCompacted);
        throw new StoreError('compacted', err.message, Math.max(known, (revision ?? 0) + 1));
      }
      if (err instanceof StoreError && err.code === 'future') {
        const current = await this.currentRevision().catch(() => 0);
        throw new StoreError('future', err.message, current);
      }
      throw err;
    }
  }

  /**
   * A write, retried while etcd is unavailable; once an answer is lost, `settle` tells from
   * the key's history whether it applied, or undefined: send it again (etcd-retry.ts).
   */
  private write<R extends { succeeded: boolean }>(
    key: string,
    attempt: () => Promise<R>,
    settle: (read: ReadAt) => Promise<Outcome>,
  ): Promise<{ res: R } | { settled: StoreKV }> {
    const k = this.etcdKey(key);
    const read: ReadAt = async (revision) => {
      const res = await this.client.kv.range({ key: k, revision });
      return { kv: res.kvs[0], revision: Number(res.header.revision) };
    };
    return settledWrite(this.retry, key, attempt, () => settle(read));
  }

  /** Runs an etcd call, mapping its errors and retrying while etcd is unavailable. */
  private call<T>(fn: () => Promise<T>): Promise<T> {
    return whileUnavailable(this.retry, fn);
  }

  private log(message: string): void {
    this.opts.log?.(message);
  }
}
