/**
 * Where the reference binaries are: the cache folder `reference/build.sh`
 * fills from Go modules (kube-apiserver, kube-controller-manager, kubectl
 * and etcd of {@link REFERENCE_RELEASE}), checked complete before use.
 */
import { accessSync, constants, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The releases `reference/build.sh` builds; a cache of other releases is not used. */
export const REFERENCE_RELEASE = { kube: 'v1.37.2', etcd: 'v3.7.3' } as const;

/** Paths of the four reference binaries. */
export interface ReferenceBinaries {
  dir: string;
  kubeApiserver: string;
  kubeControllerManager: string;
  kubectl: string;
  etcd: string;
}

/** The cache folder `reference/build.sh` fills: `$WATCHMARK_REFERENCE_DIR`, else `~/.cache/watchmark/reference`. */
export function referenceCacheDir(): string {
  const given = process.env.WATCHMARK_REFERENCE_DIR;
  if (given) return given;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'watchmark', 'reference');
}

/**
 * The reference binaries when the cache is complete for {@link REFERENCE_RELEASE}
 * (checked synchronously, so tests can decide at collection time), else undefined.
 */
export function findReferenceBinaries(): ReferenceBinaries | undefined {
  const root = referenceCacheDir();
  try {
    const stamp = readFileSync(join(root, 'complete'), 'utf8').trim();
    if (stamp !== `kube-${REFERENCE_RELEASE.kube} etcd-${REFERENCE_RELEASE.etcd}`) return undefined;
  } catch {
    return undefined; // never built, or a build still under way
  }
  const dir = join(root, 'bin');
  const found: ReferenceBinaries = {
    dir,
    kubeApiserver: join(dir, 'kube-apiserver'),
    kubeControllerManager: join(dir, 'kube-controller-manager'),
    kubectl: join(dir, 'kubectl'),
    etcd: join(dir, 'etcd'),
  };
  for (const path of [found.kubeApiserver, found.kubeControllerManager, found.kubectl, found.etcd]) {
    try {
      accessSync(path, constants.X_OK);
    } catch {
      return undefined;
    }
  }
  return found;
}
