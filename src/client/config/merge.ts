/**
 * Which kubeconfig files to read and how to merge them, by client-go's
 * ClientConfigLoadingRules: `--kubeconfig` alone if given (and it must exist);
 * else every file in KUBECONFIG, missing ones skipped; else ~/.kube/config.
 * Merging is "first writer wins" per name: the first file that defines a
 * cluster, user or context name supplies the whole entry (entries are never
 * merged field by field), and the first non-empty current-context wins.
 */

import { readFile } from 'node:fs/promises';
import { delimiter, join, resolve } from 'node:path';
import { ConfigError, errnoCode, unreadable } from './errors.js';
import {
  type KubeconfigCluster,
  type KubeconfigContext,
  type KubeconfigFile,
  type KubeconfigUser,
  parseKubeconfig,
} from './kubeconfig.js';

/** The files to read, in precedence order. */
export interface KubeconfigSearch {
  /** Absolute paths, first has precedence. */
  paths: string[];
  /** True for `--kubeconfig`: a missing file is an error rather than skipped. */
  explicit: boolean;
}

/** The merged view of every file that was read. */
export interface MergedKubeconfig {
  /** The files actually read, in precedence order. */
  loaded: string[];
  /** The files looked for (for messages when none was found). */
  searched: string[];
  /** Cluster entries by name, first file wins. */
  clusters: Map<string, KubeconfigCluster>;
  /** User entries by name, first file wins. */
  users: Map<string, KubeconfigUser>;
  /** Context entries by name, first file wins. */
  contexts: Map<string, KubeconfigContext>;
  /** The first non-empty current-context. */
  currentContext?: string;
}

/** Lists the kubeconfig files kubectl would consult for these flags and environment. */
export function kubeconfigPaths(explicitFile: string | undefined, env: NodeJS.ProcessEnv): KubeconfigSearch {
  if (explicitFile !== undefined && explicitFile !== '') {
    return { paths: [resolve(explicitFile)], explicit: true };
  }
  const list = env.KUBECONFIG ?? '';
  if (list !== '') {
    // Empty items (a stray `::`) are ignored and repeats read once, as client-go deduplicates.
    const paths = [
      ...new Set(
        list
          .split(delimiter)
          .filter((p) => p !== '')
          .map((p) => resolve(p)),
      ),
    ];
    return { paths, explicit: false };
  }
  // client-go's homedir on Unix is $HOME, nothing else; without it there is no default file.
  const home = env.HOME ?? '';
  return { paths: home === '' ? [] : [join(home, '.kube', 'config')], explicit: false };
}

/** Reads and merges the files of `search`; skipped (missing) files are simply absent from `loaded`. */
export async function loadKubeconfigs(search: KubeconfigSearch): Promise<MergedKubeconfig> {
  const merged: MergedKubeconfig = {
    loaded: [],
    searched: search.paths,
    clusters: new Map(),
    users: new Map(),
    contexts: new Map(),
  };
  for (const path of search.paths) {
    const file = await readKubeconfig(path, search.explicit);
    if (file === undefined) continue;
    merged.loaded.push(path);
    mergeFirstWins(merged.clusters, file.clusters);
    mergeFirstWins(merged.users, file.users);
    mergeFirstWins(merged.contexts, file.contexts);
    merged.currentContext ??= file.currentContext;
  }
  return merged;
}

/** Describes where entries came from, for messages: `(/a/config:/b/config)`. */
export function describeSources(merged: MergedKubeconfig): string {
  const paths = merged.loaded.length > 0 ? merged.loaded : merged.searched;
  return `(${paths.length > 0 ? paths.join(delimiter) : 'no files'})`;
}

async function readKubeconfig(path: string, mustExist: boolean): Promise<KubeconfigFile | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') {
      if (mustExist) throw new ConfigError(`kubeconfig ${path} does not exist`, { cause: err });
      // A KUBECONFIG list routinely names files that only some machines have.
      return undefined;
    }
    throw unreadable('kubeconfig', path, err);
  }
  return parseKubeconfig(text, path);
}

function mergeFirstWins<T>(into: Map<string, T>, from: Map<string, T>): void {
  for (const [name, entry] of from) {
    if (!into.has(name)) into.set(name, entry);
  }
}
