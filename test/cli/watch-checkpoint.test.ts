import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KubeClient } from '../../src/client/client.js';
import type { RunningServer } from '../../src/server/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDirForFile } from '../helpers/lifecycle.js';
import { startTestServer } from '../helpers/server.js';

let dir: string;
let server: RunningServer;
let kube: KubeClient;
let kubeconfig: string;
const tempDir = tempDirForFile('watchmark-cli-checkpoint-');
beforeAll(async () => {
  dir = tempDir();
  kubeconfig = join(dir, 'kubeconfig');
  server = await startTestServer({ kubeconfigOut: kubeconfig, historyWindow: 600_000 });
  kube = await KubeClient.load({ kubeconfig, qps: 0 });
  await kube.resource('namespaces').create({ metadata: { name: 'demo' } });
});
afterAll(async () => {
  await kube?.close();
  await server?.close();
});

const listsServed = () => Object.values(server.stats.lists).reduce((a, b) => a + b, 0);
const watch = (file: string) =>
  runCli([
    'watch',
    'cm',
    '-n',
    'demo',
    '--kubeconfig',
    kubeconfig,
    '--for',
    '1s',
    '--stats',
    '--checkpoint',
    file,
  ]);

it('watchmark watch --checkpoint resumes the next run from the file, without a list, and says so in --stats', async () => {
  const cms = kube.resource('configmaps', 'demo');
  await cms.create({ metadata: { name: 'first' } });
  const file = join(dir, 'cm.checkpoint');
  const first = watch(file);
  expect(await first.exit).toBe(0);
  expect(first.stdout()).toMatch(/^LIST\s+\(initial\)$/m);
  const firstStats = JSON.parse(first.stdout().trim().split('\n').pop() ?? '');
  expect(firstStats.checkpoint).toMatchObject({ resumed: false, ignored: 'no checkpoint file', lists: 1 });

  await cms.create({ metadata: { name: 'second' } });
  const before = listsServed();
  const second = watch(file);
  expect(await second.exit).toBe(0);
  const lines = second.stdout().trim().split('\n');
  expect(lines[0]).toMatch(/^RESUME\s+\(checkpoint\)$/);
  expect(lines[1]).toMatch(/^ADDED\s+\d+\s+demo\/first$/);
  expect(lines[2]).toMatch(/^SYNCED\s+\d+\s+\(1 objects\)$/);
  expect(lines).toContainEqual(expect.stringMatching(/^APPLIED\s+\d+\s+demo\/second$/));
  const stats = JSON.parse(lines[lines.length - 1]);
  expect(stats.checkpoint).toMatchObject({ resumed: true, loadedObjects: 1, replayedEvents: 1, lists: 0 });
  expect(stats.stats.lists).toEqual({ initial: 0, expired: 0, tooLarge: 0, error: 0 });
  expect(listsServed() - before).toBe(0);
  expect(second.stderr()).toBe('');
});

it('watchmark watch --checkpoint with a damaged file warns in one line and lists', async () => {
  const file = join(dir, 'bad.checkpoint');
  await writeFile(file, '{"format":"watchmark-checkpoint"');
  const run = watch(file);
  expect(await run.exit).toBe(0);
  expect(run.stderr()).toMatch(
    /^warning: checkpoint ignored \(the file is truncated \(no final line\)\): listing$/m,
  );
  expect(run.stdout()).toMatch(/^LIST\s+\(initial\)$/m);
});
