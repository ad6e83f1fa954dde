/**
 * Locating the external binaries that integration tests drive (the real
 * kubectl builds), and one policy for when they are missing: a developer
 * machine skips with a loud warning, CI fails, so a broken CI image can never
 * turn the compatibility tests into silent no-ops.
 */

import { constants } from 'node:fs';
import { access, readdir, realpath, stat } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { findReferenceBinaries } from '../../src/process/index.js';

/** One runnable kubectl: `name` as tests refer to it (`kubectl`, `kubectl.1.33`), `path` to spawn. */
export interface KubectlBinary {
  name: string;
  path: string;
}

const VERSIONED_KUBECTL = /^kubectl\.1\.(\d+)$/;

/**
 * The `kubectl` found on PATH (named `kubectl`) followed by every `kubectl.1.<minor>`
 * in the directory that binary resolves to after following links, and the reference
 * build's v1.37.2 as `kubectl.1.37`, oldest minor first. Empty when PATH has no kubectl.
 */
export async function findKubectls(): Promise<KubectlBinary[]> {
  const onPath = await findOnPath('kubectl');
  if (onPath === undefined) return [];
  const found: KubectlBinary[] = [{ name: 'kubectl', path: onPath }];
  const dir = dirname(await realpath(onPath));
  const versioned: { minor: number; binary: KubectlBinary }[] = [];
  for (const entry of await readdir(dir)) {
    const match = VERSIONED_KUBECTL.exec(entry);
    const path = join(dir, entry);
    if (match && (await isExecutableFile(path))) {
      versioned.push({ minor: Number(match[1]), binary: { name: entry, path } });
    }
  }
  // kubectl v1.37.2 from the reference build (reference/build.sh), when it is built.
  const reference = findReferenceBinaries();
  if (reference && !versioned.some((v) => v.minor === 37)) {
    versioned.push({ minor: 37, binary: { name: 'kubectl.1.37', path: reference.kubectl } });
  }
  versioned.sort((a, b) => a.minor - b.minor);
  return [...found, ...versioned.map((v) => v.binary)];
}

/**
 * Gate for a test that needs the tool `name`. Returns true when `found`. Otherwise
 * throws when `process.env.CI === 'true'` (the tool is part of the CI image, so its
 * absence is a failure), and elsewhere warns loudly and returns false so the
 * caller can skip.
 */
export function requireTool(name: string, found: boolean): boolean {
  if (found) return true;
  if (process.env.CI === 'true') {
    throw new Error(`${name} is required under CI (CI=true) but was not found`);
  }
  console.warn(
    `\n*** ${name} not found: SKIPPING the tests that need it. Install it to run them (CI fails instead). ***\n`,
  );
  return false;
}

/** The first executable `command` in PATH, like `command -v`. */
async function findOnPath(command: string): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, command);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    // Missing, dangling link or not executable: simply not a candidate.
    return false;
  }
}

/**
 * The Chromium the browser tests drive: `$WATCHMARK_CHROMIUM`, else the first of
 * `chromium` (Debian's package, which `.ci/run` installs), `chromium-browser`,
 * `google-chrome` on PATH. Undefined when there is none; nothing is ever downloaded.
 */
export async function findChromium(): Promise<string | undefined> {
  const given = process.env.WATCHMARK_CHROMIUM;
  if (given) return (await isExecutableFile(given)) ? given : undefined;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const found = await findOnPath(name);
    if (found) return found;
  }
  return undefined;
}
