/**
 * `watchmark cluster up`: 3 etcd members and 2 API servers on loopback, a
 * kubeconfig that lists both, one logical API through either, and nothing
 * left running after SIGTERM.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/client/client.js';
import { runCli } from '../helpers/cli.js';
import { etcdAvailable } from '../helpers/etcd.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!etcdAvailable)('watchmark cluster up', () => {
  it('starts etcd and two servers, serves one API through both, and tears everything down on SIGTERM', async () => {
    const run = runCli(['cluster', 'up', '--servers', '2', '--etcd', '3']);
    try {
      const ready = await run.waitForLine(/^cluster ready: kubeconfig /, 40_000);
      const kubeconfig = ready.replace('cluster ready: kubeconfig ', '').trim();
      const out = run.stdout();
      const pids = [...out.matchAll(/\(pid (\d+)/g)].map((m) => Number(m[1]));
      expect(pids).toHaveLength(5);
      expect(out).toMatch(/api-1 https:\/\/127\.0\.0\.1:\d+/);
      expect(await readFile(kubeconfig, 'utf8')).toContain('watchmark.io/servers');
      // A write through the default context (server 0) is read, same resourceVersion, through server 1.
      const first = await KubeClient.load({ kubeconfig });
      const second = await KubeClient.load({ kubeconfig, context: 'watchmark-1' });
      try {
        expect(first.transport.connection.servers).toHaveLength(1);
        const ns = await first
          .resource('namespaces')
          .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ha' } });
        const seen = await second.resource('namespaces').get('ha');
        expect(seen.metadata?.resourceVersion).toBe(ns.metadata?.resourceVersion);
        expect(second.transport.server).not.toBe(first.transport.server);
      } finally {
        await first.close();
        await second.close();
      }
      run.child.kill('SIGTERM');
      expect(await run.exit).toBe(0);
      expect(run.stdout()).toMatch(/stopped\n$/);
      expect(pids.filter(alive)).toEqual([]);
    } finally {
      run.child.kill('SIGKILL');
    }
  }, 60_000);
});
