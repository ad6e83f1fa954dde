import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runRestartStudy } from '../../src/study/restart.js';
import { tempDirForFile } from '../helpers/lifecycle.js';

const tempDir = tempDirForFile('watchmark-restart-test-');

it('watchmark study --restart: a namespace-wide watcher restarted inside the window resumes from its checkpoint without a list', async () => {
  const dir = tempDir();
  const lines: string[] = [];
  const result = await runRestartStudy(
    // A 10-minute window (10 s real at 60x): a stall of a loaded machine cannot push the restart out of it.
    {
      quick: true,
      watchers: 5,
      // 60 pods: the list the checkpoint saves outweighs the churn's history even when a loaded
      // machine stretches the gap (with 20, two files at once read 28 against 28).
      podsPerNode: 12,
      namespaceWatchers: 1,
      churn: 2,
      historyWindowMs: 600_000,
      outDir: dir,
    },
    [10],
    (l) => lines.push(l),
  );
  const all = result.rows.filter((r) => r.class === 'all');
  const [withCheckpoint, withList] = all;
  expect(withCheckpoint).toMatchObject({ checkpoint: true, lists: 0, listedObjects: 0, resumed: 1 });
  expect(withList).toMatchObject({ checkpoint: false, resumed: 0, lists: 1 });
  expect(withList.listedObjects).toBeGreaterThanOrEqual(40);
  expect(withCheckpoint.restartWork).toBeLessThan(withList.restartWork);
  expect(result.rows.filter((r) => r.class === 'node')).toHaveLength(2);
  const saved = JSON.parse(await readFile(join(dir, 'study-restart.json'), 'utf8'));
  expect(saved.rows).toHaveLength(4);
  expect(lines.join('\n')).toMatch(/^\| 1 all \| 10 s \| checkpoint \| /m);
}, 120_000);
