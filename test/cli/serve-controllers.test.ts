/**
 * `watchmark serve --controllers LIST`: a list it cannot run ends in one
 * line and a non-zero exit before anything listens; `namespace,gc` runs
 * the garbage collector against the server it serves, as a client.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/client/client.js';
import { configMap, refTo, waitFor } from '../controllers/harness.js';
import { runCli } from '../helpers/cli.js';
import { tempDirForFile } from '../helpers/lifecycle.js';

describe('watchmark serve --controllers', () => {
  const tempDir = tempDirForFile('watchmark-serve-controllers-');
  const clients: KubeClient[] = [];
  afterAll(async () => {
    for (const k of clients) await k.close();
  });

  for (const [list, message] of [
    ['gc,foo', /^error: --controllers: unknown controller "foo": known are namespace/],
    [
      '*,-namespace',
      /^error: --controllers: the namespace controller runs inside the API server and cannot be turned off/,
    ],
    [',', /^error: --controllers: empty controller list/],
  ] as const) {
    it(`refuses ${list} in one line`, async () => {
      const run = runCli(['serve', '--insecure-http', '--insecure-no-auth', '--controllers', list]);
      expect(await run.exit).not.toBe(0);
      const lines = run.stderr().trim().split('\n');
      expect(lines, run.stderr()).toHaveLength(1);
      expect(lines[0]).toMatch(message);
      expect(run.stdout()).not.toContain('ready');
    });
  }

  for (const [list, message] of [
    ['ServiceAccount,Bogus', /^error: --disable-admission-plugins plugin "Bogus" is unknown$/],
    [
      'MutatingAdmissionWebhook',
      /^error: --disable-admission-plugins plugin "MutatingAdmissionWebhook" cannot be disabled in watchmark/,
    ],
  ] as const) {
    it(`refuses --disable-admission-plugins ${list} in one line`, async () => {
      const run = runCli([
        'serve',
        '--insecure-http',
        '--insecure-no-auth',
        '--disable-admission-plugins',
        list,
      ]);
      expect(await run.exit).not.toBe(0);
      const lines = run.stderr().trim().split('\n');
      expect(lines, run.stderr()).toHaveLength(1);
      expect(lines[0]).toMatch(message);
      expect(run.stdout()).not.toContain('ready');
    });
  }

  it('documents namespace as the default', async () => {
    const run = runCli(['serve', '--help']);
    await run.exit;
    expect(run.stdout().replace(/\s+/g, ' ')).toMatch(/--controllers <list> .*\(default: "namespace"\)/);
  });

  it('namespace,gc collects the dependents of a deleted ConfigMap, and stops cleanly on SIGTERM', async () => {
    const kubeconfig = join(tempDir(), 'kubeconfig');
    const run = runCli([
      'serve',
      '--insecure-http',
      '--insecure-no-auth',
      '--kubeconfig-out',
      kubeconfig,
      '--controllers',
      'namespace,gc',
    ]);
    try {
      const line = await run.waitForLine(/^controllers running:/);
      expect(line).toMatch(
        /^controllers running: namespace, garbagecollector \(garbage collector watching \d+ resources\)$/,
      );
      const kube = await KubeClient.load({ kubeconfig, qps: 0 });
      clients.push(kube);
      const cms = kube.resource('configmaps', 'default');
      const owner = await cms.create(configMap('serve-owner'));
      await cms.create(configMap('serve-dependent', [refTo(owner)]));
      await cms.delete('serve-owner');
      await waitFor(
        kube,
        'configmaps',
        'default',
        (m) => !m.has('serve-dependent'),
        'the dependent to be collected',
      );
    } finally {
      run.child.kill('SIGTERM');
    }
    expect(await run.exit).toBe(0);
    expect(run.stderr()).toBe('');
  });
});
