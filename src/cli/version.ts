import { readFileSync } from 'node:fs';

/**
 * The package's version, read from package.json at run time.
 *
 * Read rather than imported so the build keeps `rootDir: src` (a JSON import
 * would pull package.json into dist/'s tree). The path is relative to this
 * module and is the same from src/cli/ (tsx) and dist/cli/ (the installed bin):
 * both sit two levels below the package root, which npm always ships with
 * package.json.
 */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version?: unknown;
  };
  if (typeof pkg.version !== 'string') throw new Error('package.json has no version');
  return pkg.version;
}
