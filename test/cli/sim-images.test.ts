/**
 * `watchmark serve --simulate --sim-images FILE` end to end, and the failure
 * story `watchmark rollout` tells when an image is mistyped (issue #10, item 5).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, runCli } from '../helpers/cli.js';
import { tempDirForFile } from '../helpers/lifecycle.js';
import { deploymentManifest } from './rollout-cluster.js';

const manifest = (name: string, image: string) =>
  deploymentManifest('shop', name, image, { replicas: 2, progressDeadlineSeconds: 3 });

describe('watchmark serve --simulate --sim-images', () => {
  let dir: string;
  let serve: CliRun | undefined;
  let kubeconfig: string;

  const tempDir = tempDirForFile('watchmark-sim-images-');
  beforeAll(async () => {
    dir = tempDir();
    kubeconfig = join(dir, 'kubeconfig');
    await writeFile(join(dir, 'images.yaml'), '# the shop team images\n- ghcr.io/acme/shop:*\n');
    serve = runCli([
      'serve',
      '--simulate',
      '--sim-images',
      join(dir, 'images.yaml'),
      '--kubeconfig-out',
      kubeconfig,
    ]);
    await serve.waitForLine(/^simulated cluster ready/, 30_000);
  });
  afterAll(async () => {
    if (serve && serve.child.exitCode === null) {
      serve.child.kill('SIGTERM');
      await serve.exit;
    }
  });

  it('pulls an image the file added: the rollout succeeds', async () => {
    const file = join(dir, 'ok.yaml');
    await writeFile(file, manifest('web', 'ghcr.io/acme/shop:v2.1'));
    const run = runCli(['rollout', '-f', file, '--kubeconfig', kubeconfig, '--timeout', '60s']);
    expect(await run.exit, `${run.stdout()}${run.stderr()}`).toBe(0);
    expect(run.stdout()).toContain('Successfully pulled image "ghcr.io/acme/shop:v2.1"');
    expect(run.stdout()).toContain('deployment "web" successfully rolled out');
  });

  it('shows the failure story of a mistyped tag, then fails at the progress deadline', async () => {
    const file = join(dir, 'typo.yaml');
    await writeFile(file, manifest('typo', 'nginx:does-not-exist'));
    const run = runCli(['rollout', '-f', file, '--kubeconfig', kubeconfig, '--timeout', '60s']);
    expect(await run.exit).not.toBe(0);
    const out = run.stdout();
    expect(out).toMatch(
      /Warning Failed +pod\/typo-\w+-\w+ +Failed to pull image "nginx:does-not-exist": rpc error: code = NotFound desc = .*docker\.io\/library\/nginx:does-not-exist: not found/,
    );
    expect(out).toMatch(/Warning Failed +pod\/typo-\w+-\w+ +Error: ErrImagePull/);
    expect(out).toMatch(/Normal +BackOff +pod\/typo-\w+-\w+ +Back-off pulling image "nginx:does-not-exist"/);
    expect(out).toMatch(/Warning Failed +pod\/typo-\w+-\w+ +Error: ImagePullBackOff/);
    expect(run.stderr()).toContain('deployment "typo" exceeded its progress deadline');
  });

  it('refuses a bad images file with a one-line error naming the entry', async () => {
    await writeFile(join(dir, 'bad.yaml'), '- nginx:1.27\n- Acme/App\n');
    const bad = runCli(['serve', '--simulate', '--sim-images', join(dir, 'bad.yaml')]);
    const without = runCli(['serve', '--sim-images', join(dir, 'bad.yaml')]);
    expect(await bad.exit).not.toBe(0);
    expect(bad.stderr()).toMatch(
      /--sim-images .*bad\.yaml: entry 2: "Acme\/App": invalid reference format: repository name \(Acme\/App\) must be lowercase\n$/,
    );
    expect(bad.stderr().trim().split('\n')).toHaveLength(1);
    expect(bad.stdout()).toBe('');
    expect(await without.exit).not.toBe(0);
    expect(without.stderr()).toContain('--sim-images needs --simulate');
  });
});
