import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/client/client.js';
import { type CliRun, runCli } from '../helpers/cli.js';
import { tempDirForFile } from '../helpers/lifecycle.js';
import { startSilentServer } from '../helpers/silent-server.js';

let dir: string;
const tempDir = tempDirForFile('watchmark-cli-');
beforeAll(async () => {
  dir = tempDir();
});

describe('watchmark serve', () => {
  let serve: CliRun;
  let kubeconfig: string;

  it('prints one ready line with its URL and writes a 0600 kubeconfig', async () => {
    kubeconfig = join(dir, 'kc');
    serve = runCli(['serve', '--port', '0', '--kubeconfig-out', kubeconfig, '--bookmark-interval', '200ms']);
    const line = await serve.waitForLine(/ready at/);
    expect(line).toMatch(/^watchmark API server ready at https:\/\/127\.0\.0\.1:\d+ \(kubeconfig: .*kc\)$/);
    expect((await stat(kubeconfig)).mode & 0o777).toBe(0o600);
  });

  it('watchmark watch follows a resource with bookmarks and prints its counters', async () => {
    const kube = await KubeClient.load({ kubeconfig, qps: 0 });
    await kube.resource('namespaces').create({ metadata: { name: 'demo' } });
    const cms = kube.resource('configmaps', 'demo');
    await cms.create({ metadata: { name: 'first' } });
    const watch = runCli(['watch', 'cm', '-n', 'demo', '--kubeconfig', kubeconfig, '--for', '2s', '--stats']);
    await watch.waitForLine(/^SYNCED/);
    await cms.create({ metadata: { name: 'second' } });
    await kube.resource('namespaces').create({ metadata: { name: 'other' } });
    expect(await watch.exit).toBe(0);
    const lines = watch.stdout().trim().split('\n');
    expect(lines[0]).toMatch(/^LIST\s+\(initial\)$/);
    expect(lines[1]).toMatch(/^ADDED\s+\d+\s+demo\/first$/);
    expect(lines[2]).toMatch(/^SYNCED\s+\d+\s+\(1 objects\)$/);
    expect(lines).toContainEqual(expect.stringMatching(/^APPLIED\s+\d+\s+demo\/second$/));
    expect(lines).toContainEqual(expect.stringMatching(/^BOOKMARK\s+\d+$/));
    const stats = JSON.parse(lines[lines.length - 1]).stats;
    expect(stats.lists.initial).toBe(1);
    expect(stats.bookmarks).toBeGreaterThan(0);
    await kube.close();
  });

  it('watchmark watch -o json prints one JSON object per line', async () => {
    const watch = runCli(['watch', 'namespaces', '--kubeconfig', kubeconfig, '-o', 'json', '--for', '1s']);
    expect(await watch.exit).toBe(0);
    const events = watch
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events[0]).toEqual({ type: 'init', cause: 'initial' });
    expect(events.filter((e) => e.type === 'initApply').map((e) => e.object.metadata.name)).toContain('demo');
  });

  it('ends cleanly on SIGTERM with exit code 0', async () => {
    serve.child.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
  });
});

describe('bad input gets a one-line error and a non-zero exit', () => {
  it.each([
    [['serve', '--bookmark-interval', '5x'], /invalid duration "5x"/],
    [['serve', '--insecure-http'], /--insecure-http needs --insecure-no-auth/],
    [['serve', '--port', 'abc'], /invalid port/],
    [['watch', 'pods', '--kubeconfig', '/nonexistent/kubeconfig'], /nonexistent/],
    [['apply', '-f', '-', '--request-timeout', '5x'], /invalid request timeout "5x"/],
  ])('watchmark %j', async (args, message) => {
    const run = runCli(args as string[]);
    const code = await run.exit;
    expect(code).not.toBe(0);
    expect(run.stderr()).toMatch(message);
    expect(run.stderr()).not.toMatch(/\n\s+at /);
  });

  it('an unknown resource type', async () => {
    const kc = join(dir, 'kc-unknown');
    const serve = runCli(['serve', '--kubeconfig-out', kc]);
    await serve.waitForLine(/ready at/);
    const run = runCli(['watch', 'widgets', '--kubeconfig', kc]);
    expect(await run.exit).toBe(1);
    expect(run.stderr().trim()).toBe(`error: the server doesn't have a resource type "widgets"`);
    serve.child.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
  });

  it('a kubeconfig that is not YAML', async () => {
    const kc = join(dir, 'garbage');
    await writeFile(kc, '{{{ not yaml');
    const run = runCli(['watch', 'pods', '--kubeconfig', kc]);
    expect(await run.exit).toBe(1);
    expect(run.stderr().split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('a server that never answers: --request-timeout ends the command with one line, not a hang', async () => {
    const silent = await startSilentServer();
    const kc = join(dir, 'kc-silent');
    await silent.writeKubeconfig(kc);
    const manifest = join(dir, 'cm.yaml');
    await writeFile(manifest, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: default}\n');
    try {
      const run = runCli(['apply', '-f', manifest, '--kubeconfig', kc, '--request-timeout', '300ms']);
      expect(await run.exit).toBe(1);
      const lines = run.stderr().split('\n').filter(Boolean);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/no answer within 300 ms/);
    } finally {
      await silent.close();
    }
  });
});
