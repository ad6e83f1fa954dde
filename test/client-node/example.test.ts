/**
 * examples/client-node-informer.ts, client-node's documented informer
 * program in the same form, runs as a child process against a real server
 * (TLS, token, KUBECONFIG) twice: as it is (watchmark/client-node) and with
 * its makeInformer import line put back to `@kubernetes/client-node`. Both
 * print the same lines for the same changes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { makeTempDir } from '../helpers/lifecycle.js';
import { call, pod, startTestServer } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/client-node-informer.ts', import.meta.url));
const OURS = "import { makeInformer } from '../src/client-node/index.js';";
const THEIRS = "import { makeInformer } from '@kubernetes/client-node';";

describe('examples/client-node-informer.ts', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** Runs a copy of the program (beside the example, so its imports resolve) and collects its stdout. */
  async function run(
    source: string,
    kubeconfig: string,
  ): Promise<{ out: () => string; child: ChildProcess }> {
    const file = join(
      fileURLToPath(new URL('.', import.meta.url)),
      `.example-${process.pid}-${cleanups.length}.ts`,
    );
    // The example imports '../src/...': a copy one level below the repository root resolves the same.
    await writeFile(file, source.replace("'../src/", "'../../src/"));
    cleanups.push(() => rm(file, { force: true }));
    const child = spawn(process.execPath, ['--import', 'tsx', file], {
      env: { ...process.env, KUBECONFIG: kubeconfig },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    cleanups.push(async () => {
      child.kill();
      await exited;
    });
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    return { out: () => out, child };
  }

  async function scenario(source: string): Promise<string[]> {
    const dir = await makeTempDir('client-node-example-');
    cleanups.push(() => dir.remove());
    const kubeconfig = join(dir.path, 'kubeconfig');
    const server: RunningServer = await startTestServer({
      insecureHttp: false,
      insecureNoAuth: false,
      kubeconfigOut: kubeconfig,
    });
    cleanups.push(() => server.close());
    const ok = async (p: Promise<{ status: number; text: string }>) => {
      const r = await p;
      if (r.status >= 300) throw new Error(`${r.status} ${r.text}`);
    };
    await ok(call(server, 'POST', '/api/v1/namespaces/default/pods', { body: pod('before') }));
    const program = await run(source, kubeconfig);
    const lines = () => program.out().split('\n').filter(Boolean);
    await waitUntil(
      () => lines().includes('pod added: before'),
      () => `the first list; stdout ${program.out()}`,
      30_000,
    );
    await ok(call(server, 'POST', '/api/v1/namespaces/default/pods', { body: pod('web') }));
    await ok(
      call(server, 'PATCH', '/api/v1/namespaces/default/pods/web', {
        body: { metadata: { labels: { tier: 'front' } } },
        headers: { 'content-type': 'application/merge-patch+json' },
      }),
    );
    await ok(call(server, 'DELETE', '/api/v1/namespaces/default/pods/web?gracePeriodSeconds=0'));
    await waitUntil(
      () => lines().includes('pod deleted: web'),
      () => `the deletion; stdout ${program.out()}`,
    );
    return lines();
  }

  it('prints the same lines with watchmark/client-node as with client-node, the import line the only change', async () => {
    const source = await readFile(EXAMPLE, 'utf8');
    expect(source).toContain(OURS);
    const ours = await scenario(source);
    const theirs = await scenario(source.replace(OURS, THEIRS));
    // Two updates of web: the label, then the delete's mark (deletionTimestamp), which kube-apiserver
    // writes before removing a pod.
    const expected = [
      'pod added: before',
      'pod added: web',
      'pod updated: web',
      'pod updated: web',
      'pod deleted: web',
    ];
    expect(ours).toEqual(expected);
    expect(theirs).toEqual(expected);
  }, 90_000);
});
