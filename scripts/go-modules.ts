/**
 * The Go modules the generators read upstream facts from (k8s.io/api, k8s.io/apimachinery,
 * k8s.io/apiextensions-apiserver, k8s.io/kubernetes): `go mod download` fetches a module from the Go
 * module proxy into the module cache (or finds it there) and names its folder. Go itself comes
 * from the machine; nothing else is needed, so a generator runs the same on a fresh machine.
 */
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';

/** What `go mod download -json` says of one module version. */
export interface GoModule {
  /** The module path, `k8s.io/kubernetes`. */
  readonly path: string;
  /** The version, `v1.37.2`. */
  readonly version: string;
  /** Its folder in the module cache (read-only; a machine path, never written into output). */
  readonly dir: string;
  /** The go.sum hash of its content (`h1:...`): names exactly what was read, on any machine. */
  readonly sum: string;
}

/**
 * Downloads (when missing) and locates `path@version`. Run outside any module (in the temporary
 * folder, `-mod=mod`), so that no go.mod or vendor folder of the working directory interferes.
 */
export function goModule(path: string, version: string): GoModule {
  const out = execFileSync('go', ['mod', 'download', '-json', `${path}@${version}`], {
    encoding: 'utf8',
    cwd: tmpdir(),
    env: { ...process.env, GOFLAGS: '-mod=mod' },
    maxBuffer: 1 << 20,
  });
  const info = JSON.parse(out) as { Dir?: string; Sum?: string; Error?: string };
  if (typeof info.Dir !== 'string' || typeof info.Sum !== 'string') {
    throw new Error(`go mod download ${path}@${version}: ${info.Error ?? 'no Dir'}`);
  }
  return { path, version, dir: info.Dir, sum: info.Sum };
}
