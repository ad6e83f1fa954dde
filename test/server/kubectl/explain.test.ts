/**
 * `kubectl explain` shows the upstream field descriptions (issue #10): every real kubectl on the
 * machine (1.27 to 1.33, all of which explain from OpenAPI v3) against one started server.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';
import { findKubectls, requireTool } from '../../helpers/tools.js';
import { KubectlSession } from './run.js';

const kubectls = await findKubectls();
const haveKubectl = requireTool('kubectl', kubectls.length > 0);

/** kubectl wraps descriptions at 80 columns and indents them: compare the words. */
const words = (text: string) => text.replace(/\s+/g, ' ');

describe.skipIf(!haveKubectl)('kubectl explain', () => {
  let dir: string;
  let server: RunningServer;
  const sessions = new Map<string, KubectlSession>();

  const tempDir = tempDirForFile('watchmark-explain-');
  beforeAll(async () => {
    dir = tempDir();
    server = await startServer({
      disableAdmissionPlugins: ['ServiceAccount'],
      kubeconfigOut: join(dir, 'kubeconfig'),
    });
    for (const binary of kubectls) {
      const home = join(dir, binary.name);
      await mkdir(join(home, 'home'), { recursive: true });
      sessions.set(binary.name, new KubectlSession(binary, home, server.kubeconfigPath!, 'default'));
    }
  });
  afterAll(async () => {
    await Promise.all([...sessions.values()].map((s) => s.close()));
    await server?.close();
  });

  it.each(kubectls.map((k) => k.name))('%s shows the upstream descriptions', async (name) => {
    const kubectl = sessions.get(name)!;
    const [replicas, strategy, image, pod] = await Promise.all([
      kubectl.run(['explain', 'deployment.spec.replicas']),
      kubectl.run(['explain', 'deployment.spec.strategy']),
      kubectl.run(['explain', 'pods.spec.containers.image']),
      kubectl.run(['explain', 'pods']),
    ]);
    for (const r of [replicas, strategy, image, pod]) expect(r.code, `${r.command}\n${r.stderr}`).toBe(0);

    expect(replicas.stdout).toMatch(/^FIELD: +replicas <integer>$/m);
    expect(words(replicas.stdout)).toContain(
      'DESCRIPTION: Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.',
    );
    // A field whose type is another schema ($ref, wrapped in allOf to carry its description).
    expect(strategy.stdout).toMatch(/^FIELD: +strategy <DeploymentStrategy>$/m);
    expect(words(strategy.stdout)).toContain(
      'The deployment strategy to use to replace existing pods with new ones.',
    );
    expect(words(strategy.stdout)).toMatch(
      /rollingUpdate <RollingUpdateDeployment> Rolling update config params\./,
    );
    expect(words(image.stdout)).toContain('Container image name.');
    expect(words(pod.stdout)).toContain(
      'Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts.',
    );
    expect(pod.stdout).not.toContain('<no description>');
  });
});
