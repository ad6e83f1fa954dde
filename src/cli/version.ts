import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../protocol/package-files.js';

/**
 * The package's version, read from package.json at run time (npm always ships it at the
 * package's root). Read rather than imported so the build keeps `rootDir: src`: a JSON import
 * would pull package.json into dist/'s tree.
 */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  if (typeof pkg.version !== 'string') throw new Error('package.json has no version');
  return pkg.version;
}
