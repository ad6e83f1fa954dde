/**
 * watchmark's sources as one commit has them, for a run that must not pick up
 * edits made in the working tree while it runs (the suites take minutes, and
 * others may be changing src/ meanwhile): `git archive` of src/ and
 * package.json into a temporary folder, with the repository's node_modules
 * linked in, so `tsx src/cli/main.ts` runs there as it runs here.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A folder holding watchmark's sources at one commit. */
export interface SourceSnapshot {
  dir: string;
  /** The commit, abbreviated. */
  commit: string;
  remove(): Promise<void>;
}

/** Extracts `ref`'s src/ and package.json from the repository at `repo`. */
export async function snapshotSources(repo: string, ref: string): Promise<SourceSnapshot> {
  const commit = execFileSync('git', ['rev-parse', '--short', `${ref}^{commit}`], {
    cwd: repo,
    encoding: 'utf8',
  }).trim();
  const dir = await mkdtemp(join(tmpdir(), `watchmark-${commit}-`));
  // git archive | tar -x, without a shell: the archive goes through a buffer (src/ is a few MB).
  const archive = execFileSync('git', ['archive', '--format=tar', commit, 'src', 'package.json'], {
    cwd: repo,
    maxBuffer: 512 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  await symlink(join(repo, 'node_modules'), join(dir, 'node_modules'));
  return { dir, commit, remove: () => rm(dir, { recursive: true, force: true }) };
}
