/**
 * The simulated controllers with a checkpoint directory: a restarted
 * controller manager (against the same server) resumes its five shared
 * informers from their checkpoints instead of listing.
 */
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startServer } from '../../src/server/index.js';
import { startSimulation } from '../../src/sim/index.js';
import { tempDirForFile } from '../helpers/lifecycle.js';
import { FAST } from './harness.js';

const tempDir = tempDirForFile('watchmark-sim-checkpoint-');

it("a restarted simulation resumes the controllers' informers from the checkpoint directory: five lists fewer", async () => {
  const dir = tempDir();
  const kubeconfig = join(dir, 'kubeconfig');
  const server = await startServer({
    disableAdmissionPlugins: ['ServiceAccount'],
    bookmarkInterval: 1000,
    compactionInterval: 0,
    kubeconfigOut: kubeconfig,
  });
  const checkpointDir = join(dir, 'checkpoints');
  const lists = () => Object.values(server.stats.lists).reduce((a, b) => a + b, 0);
  try {
    await mkdir(checkpointDir);
    const start = async () => {
      const before = lists();
      const sim = await startSimulation({ kubeconfig, timing: FAST, nodes: 2, checkpointDir });
      const listed = lists() - before;
      await sim.stop();
      return listed;
    };
    const first = await start();
    expect((await readdir(checkpointDir)).map((f) => f.split('.')[0]).sort()).toEqual([
      'deployments',
      'nodes',
      'pods',
      'replicasets',
      'replicationcontrollers',
    ]);
    const second = await start();
    expect(second).toBe(first - 5);
  } finally {
    await server.close();
  }
});
