/**
 * kill -9 in the middle of a checkpoint write, every time: a child writes
 * large checkpoints back to back and is killed as soon as its temporary file
 * appears. The checkpoint path must always hold a whole, verified checkpoint
 * (the previous one, or a complete new one), and the next load removes the
 * dead writer's temporary file.
 */
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import {
  readCheckpointFile,
  removeStaleTemporaries,
  writeCheckpointFile,
} from '../../../src/client/checkpoint/checkpoint-file.js';
import { TEST_CHECKPOINT_IDENTITY } from '../../helpers/checkpoint-fixture.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';
import { waitUntil } from '../../helpers/wait.js';

const CHILD = join(import.meta.dirname, '../../helpers/checkpoint-writer-child.ts');
let dir: string;
const tempDir = tempDirForFile('watchmark-torn-');
beforeAll(async () => {
  dir = tempDir();
});

it('a writer killed mid-write leaves the previous checkpoint whole, and its temporary file is cleaned up', async () => {
  const path = join(dir, 'pods.checkpoint');
  const identity = TEST_CHECKPOINT_IDENTITY;
  await writeCheckpointFile(path, { savedAt: Date.now(), identity, resourceVersion: '1' }, [
    { metadata: { name: 'only', namespace: 'demo', resourceVersion: '1' } },
  ]);
  for (let round = 0; round < 5; round++) {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, path], { stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const isTmp = (f: string) => f.startsWith('pods.checkpoint.tmp-');
    await waitUntil(async () => (await readdir(dir)).some(isTmp), 'the writer to start a write', 30_000, 2);
    child.kill('SIGKILL');
    await exited;
    const loaded = await readCheckpointFile(path);
    expect(loaded.objects.length).toBe(loaded.header.resourceVersion === '1' ? 1 : 20_000);
    expect(await removeStaleTemporaries(path)).toBeGreaterThanOrEqual(1);
    expect((await readdir(dir)).filter(isTmp)).toEqual([]);
  }
}, 120_000);
