/**
 * The installed state of a test cluster's CRDs and seed objects, kept per
 * process: a suite starts many clusters with the same setup, and the
 * install (parsing the manifests, validating the definitions and waiting
 * for them to be Established) costs far more than the start itself. The
 * first cluster installs through the API and leaves a snapshot of its
 * store; later ones start over a copy of it, so they hold the same objects
 * with the same uids and resourceVersions as the first did.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { KubeObject } from '../protocol/events.js';
import type { ServerSnapshot } from '../server/index.js';

/** Most setups kept: a suite has a handful; each holds only its own objects. */
const MAX_SETUPS = 16;
const setups = new Map<string, ServerSnapshot>();

/** The snapshot an earlier cluster left for this key, if any (marked as recently used). */
export function cachedSetup(key: string): ServerSnapshot | undefined {
  const found = setups.get(key);
  if (found) {
    setups.delete(key);
    setups.set(key, found);
  }
  return found;
}

/** Keeps `snapshot` for later clusters with the same setup; the least recently used goes past the bound. */
export function rememberSetup(key: string, snapshot: ServerSnapshot): void {
  setups.set(key, snapshot);
  while (setups.size > MAX_SETUPS) setups.delete(setups.keys().next().value as string);
}

/** Forgets every kept setup (for tests of the cache itself, and to free memory). */
export function forgetSetups(): void {
  setups.clear();
}

/**
 * What makes two setups the same: each file or folder by path, size and modification time
 * (a file edited between two clusters is read again), each object by its JSON.
 */
export async function setupKey(
  crds: ReadonlyArray<string | KubeObject>,
  objects: ReadonlyArray<string | KubeObject>,
  systemNamespaces: boolean,
  /** The admission plugins off: the ServiceAccount plugin changes the pods a setup stores. */
  disabledPlugins: readonly string[] = [],
): Promise<string> {
  const parts = await Promise.all([...crds.map(sourceKey), '|', ...objects.map(sourceKey)]);
  return JSON.stringify([systemNamespaces, [...disabledPlugins].sort(), parts]);
}

async function sourceKey(source: string | KubeObject): Promise<string> {
  if (typeof source !== 'string') return `o:${JSON.stringify(source)}`;
  const path = resolve(source);
  return `f:${path}:${await treeSignature(path)}`;
}

/** Size and mtime of a file, or of every file below a folder; `missing` when there is nothing there. */
async function treeSignature(path: string): Promise<string> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return 'missing';
  if (!info.isDirectory()) return `${info.size}:${info.mtimeMs}`;
  const names = (await readdir(path)).sort();
  const inner = await Promise.all(names.map(async (n) => `${n}=${await treeSignature(join(path, n))}`));
  return `[${inner.join(',')}]`;
}
