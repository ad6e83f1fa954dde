/**
 * Per-file test lifecycle: temporary directories (for a file or describe
 * block, for one test, or for a fixture that owns one), and cleanups that
 * run after each test, last registered first. Every directory made here is
 * removed on every path, so a failed test leaves nothing in the temp dir.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** A temporary directory and the way to remove it. */
export interface TempDir {
  readonly path: string;
  /** Removes the directory and everything in it; idempotent. */
  remove(): Promise<void>;
}

/** Makes a fresh directory `<tmp>/<prefix>XXXXXX`; its owner removes it. */
export async function makeTempDir(prefix: string): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Runs `use` with a fresh directory, removed afterwards however `use` ends. */
export async function withTempDir<T>(prefix: string, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await makeTempDir(prefix);
  try {
    return await use(dir.path);
  } finally {
    await dir.remove();
  }
}

/**
 * A directory made before the tests of the file (or of the describe block
 * this is called in) and removed after them; the getter reads its path. Call
 * it before the block's other hooks: its beforeAll then runs first and its
 * afterAll last, after whatever the other hooks close.
 */
export function tempDirForFile(prefix: string): () => string {
  let dir: TempDir | undefined;
  beforeAll(async () => {
    dir = await makeTempDir(prefix);
  });
  afterAll(async () => {
    await dir?.remove();
  });
  return () => {
    if (!dir) throw new Error(`the temporary directory ${prefix}* exists only once the tests run`);
    return dir.path;
  };
}

/** Cleanups run after each test, in reverse order of registration. */
export function cleanupAfterEach(): Array<() => Promise<void>> {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return cleanups;
}
