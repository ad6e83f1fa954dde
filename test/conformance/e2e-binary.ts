/**
 * Where `reference/e2e.sh` put Kubernetes' e2e.test: beside the reference
 * binaries, used only when its build stamp names the reference release.
 */
import { accessSync, constants, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REFERENCE_RELEASE, referenceCacheDir } from '../../src/process/index.js';

/** The e2e.test binary, or undefined when reference/e2e.sh has not completed. */
export function findE2eTest(): string | undefined {
  const bin = join(referenceCacheDir(), 'bin');
  const path = join(bin, 'e2e.test');
  try {
    if (readFileSync(join(bin, '.e2e.test.built'), 'utf8').trim() !== `e2e-${REFERENCE_RELEASE.kube}`)
      return undefined;
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    return undefined;
  }
}
