/**
 * Real etcd for tests: one etcd cluster per test file (or per describe
 * block), started on free loopback ports with its data on tmpfs, killed
 * afterwards; a fresh key prefix per store, so tests sharing the etcd never
 * see each other's objects. Without an `etcd` binary the etcd tests skip
 * loudly on a developer machine and fail under CI (see requireTool).
 */
import { afterAll, beforeAll } from 'vitest';
import {
  type EtcdCluster,
  type EtcdClusterOptions,
  findEtcdBinary,
  startEtcdCluster,
} from '../../src/process/spawn/etcd-launcher.js';
import type { RunningServer } from '../../src/server/index.js';
import { EtcdStore, type EtcdStoreOptions } from '../../src/server/stores/etcd.js';
import { MemoryStore } from '../../src/server/stores/memory.js';
import type { Store } from '../../src/server/stores/types.js';
import { requireTool } from './tools.js';
import { waitUntil } from './wait.js';

/** Whether etcd tests can run here (warns loudly, or throws under CI=true, when they cannot). */
export const etcdAvailable: boolean = requireTool('etcd', findEtcdBinary() !== undefined);

/** The stores the server protocol suites run against. */
export type StoreKind = 'memory' | 'etcd';

/** Every store kind, for `describe.each`; etcd only where it can run. */
export const STORE_KINDS: StoreKind[] = etcdAvailable ? ['memory', 'etcd'] : ['memory'];

let prefixCounter = 0;

/** A key prefix no other store in this process uses. */
export function uniquePrefix(): string {
  return `/wmtest-${process.pid}-${++prefixCounter}`;
}

/** An etcd cluster for the tests of the enclosing describe block (started in beforeAll, killed in afterAll). */
export interface EtcdFixture {
  /** The running cluster (available inside tests and hooks). */
  readonly cluster: EtcdCluster;
  /** A new store over the cluster, with a prefix of its own unless one is given; the caller closes it. */
  newStore(opts?: Partial<EtcdStoreOptions>): EtcdStore;
}

/** Registers an etcd cluster for the enclosing describe block. */
export function useEtcd(opts: EtcdClusterOptions = {}): EtcdFixture {
  let cluster: EtcdCluster | undefined;
  beforeAll(async () => {
    cluster = await startEtcdCluster({ fastElections: true, ...opts });
  }, 30_000);
  afterAll(async () => {
    await cluster?.close();
    cluster = undefined;
  });
  const running = (): EtcdCluster => {
    if (!cluster) throw new Error('etcd fixture used outside its describe block');
    return cluster;
  };
  return {
    get cluster() {
      return running();
    },
    newStore: (storeOpts = {}) =>
      new EtcdStore({ endpoints: running().endpoints, prefix: uniquePrefix(), ...storeOpts }),
  };
}

/** New stores of one kind for the enclosing describe block: etcd-backed ones share one etcd. */
export function useStores(kind: StoreKind): { newStore(): Store } {
  if (kind === 'memory') return { newStore: () => new MemoryStore() };
  const etcd = useEtcd();
  return { newStore: () => etcd.newStore() };
}

/**
 * Waits until `server`'s watch cache has applied every revision its store has
 * written. The memory store delivers changes synchronously, so this returns at
 * once; over etcd the cache follows a moment after a write answers.
 */
export async function settled(server: RunningServer, timeoutMs = 5_000): Promise<number> {
  const target = await server.store.currentRevision();
  await waitUntil(
    () => server.latestRevision() >= target,
    () => `the watch cache (at ${server.latestRevision()}) to reach revision ${target}`,
    timeoutMs,
    2,
  );
  return server.latestRevision();
}
