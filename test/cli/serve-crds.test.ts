/**
 * `watchmark serve --crds PATH --objects PATH`: definitions installed and
 * established, seed objects created, all before the ready line and before
 * `--kubeconfig-out` exists, so a script that waits for the file can use a
 * custom kind at once (checked with the real kubectl); a bad file is one
 * line and a non-zero exit, and no kubeconfig is written.
 */
import { execFile } from 'node:child_process';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { runCli } from '../helpers/cli.js';
import { tempDirForFile } from '../helpers/lifecycle.js';
import { findKubectls, requireTool } from '../helpers/tools.js';
import { waitUntil } from '../helpers/wait.js';
import { widget, widgetCrd } from '../helpers/widget.js';

const run = promisify(execFile);
const kubectls = await findKubectls();
const haveKubectl = requireTool('kubectl', kubectls.length > 0);
const tempDir = tempDirForFile('watchmark-serve-crds-');

async function write(path: string, text: string): Promise<string> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
  return path;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

const gizmoCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gizmos.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Cluster',
    names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

describe('watchmark serve --crds --objects', () => {
  it.skipIf(!haveKubectl)(
    'installs and seeds before the kubeconfig file appears; kubectl gets the seeded custom object at once',
    async () => {
      const dir = join(tempDir(), 'ok');
      await write(join(dir, 'crds', 'widgets.yaml'), YAML.stringify(widgetCrd()));
      await write(join(dir, 'crds', 'more', 'gizmos.json'), JSON.stringify(gizmoCrd));
      const objects = await write(
        join(dir, 'seed.yaml'),
        [
          widget('seeded', { size: 3 }, { namespace: 'team' }),
          { apiVersion: 'example.com/v1', kind: 'Gizmo', metadata: { name: 'g1' } },
          { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } },
        ]
          .map((o) => YAML.stringify(o))
          .join('---\n'),
      );
      const kubeconfig = join(dir, 'out', 'kubeconfig');
      const serve = runCli([
        'serve',
        '--crds',
        join(dir, 'crds'),
        '--objects',
        objects,
        '--controllers',
        'namespace,gc',
        '--kubeconfig-out',
        kubeconfig,
      ]);
      try {
        // What a script in another language does: wait for the file, then use it.
        await waitUntil(
          async () => (await exists(kubeconfig)) || serve.child.exitCode !== null,
          'the kubeconfig file',
          20_000,
        );
        const { stdout } = await run(
          kubectls[0].path,
          ['--kubeconfig', kubeconfig, 'get', 'widgets', '-n', 'team', '-o', 'json'],
          { encoding: 'utf8' },
        );
        const list = JSON.parse(stdout);
        expect(list.items.map((w: any) => [w.metadata.name, w.spec.size, w.spec.color])).toEqual([
          ['seeded', 3, 'red'],
        ]);
        const gizmos = await run(
          kubectls[0].path,
          ['--kubeconfig', kubeconfig, 'get', 'gizmos', '-o', 'name'],
          {
            encoding: 'utf8',
          },
        );
        expect(gizmos.stdout.trim()).toBe('gizmo.example.com/g1');
        await serve.waitForLine(/^controllers running:/);
        const lines = serve.stdout().trim().split('\n');
        expect(lines[0]).toBe(
          `watchmark API server ready at ${lines[0].split(' ')[5]} (kubeconfig: ${kubeconfig})`,
        );
        expect(lines.slice(2)).toEqual([
          // kubectl's walk order: crds/more/ sorts before crds/widgets.yaml.
          'custom resource definitions established: gizmos.example.com, widgets.example.com',
          'objects created: 3',
          expect.stringMatching(
            /^controllers running: namespace, garbagecollector \(garbage collector watching \d+ resources\)$/,
          ),
        ]);
      } finally {
        serve.child.kill('SIGTERM');
      }
      expect(await serve.exit).toBe(0);
      expect(serve.stderr()).toBe('');
    },
  );

  const cases: Array<{
    name: string;
    setup: (dir: string) => Promise<string[]>;
    line: (dir: string) => RegExp | string;
  }> = [
    {
      name: 'a missing --crds path',
      setup: async (dir) => ['--crds', join(dir, 'nowhere')],
      line: (dir) => `error: --crds ${join(dir, 'nowhere')}: no such file or directory`,
    },
    {
      name: 'a --crds file that is not YAML',
      setup: async (dir) => {
        await write(join(dir, 'crds', 'a.yaml'), YAML.stringify(widgetCrd()));
        await write(join(dir, 'crds', 'b.yaml'), 'kind: CustomResourceDefinition\nmetadata: {name: "x\n');
        return ['--crds', join(dir, 'crds')];
      },
      line: (dir) =>
        new RegExp(
          `^error: --crds ${escapeRegExp(join(dir, 'crds', 'b.yaml'))}: invalid YAML: line 2: .*metadata`,
        ),
    },
    {
      name: 'a --crds file holding another kind',
      setup: async (dir) => {
        const file = await write(
          join(dir, 'cm.yaml'),
          YAML.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } }),
        );
        return ['--crds', file];
      },
      line: (dir) =>
        `error: --crds ${join(dir, 'cm.yaml')}: configmap/settings: is a ConfigMap, not a CustomResourceDefinition (seed objects go with the objects, not the CRDs)`,
    },
    {
      name: 'a definition the server refuses',
      setup: async (dir) => {
        const crd = widgetCrd();
        crd.spec.versions[0].storage = false;
        return ['--crds', await write(join(dir, 'widgets.yaml'), YAML.stringify(crd))];
      },
      line: (dir) =>
        new RegExp(
          `^error: --crds ${escapeRegExp(join(dir, 'widgets.yaml'))}: customresourcedefinition/widgets.example.com: CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: .*spec.versions: Invalid value: .*: must have exactly one version marked as storage version`,
        ),
    },
    {
      name: 'an object of a kind nothing serves',
      setup: async (dir) => [
        '--objects',
        await write(
          join(dir, 'thing.yaml'),
          YAML.stringify({ apiVersion: 'nowhere.example.com/v1', kind: 'Thing', metadata: { name: 't' } }),
        ),
      ],
      line: (dir) =>
        `error: --objects ${join(dir, 'thing.yaml')}: thing/t: no matches for kind "Thing" in version "nowhere.example.com/v1" (ensure CRDs are installed first)`,
    },
  ];
  for (const [i, c] of cases.entries()) {
    it(`${c.name}: one line, exit 1, no ready line and no kubeconfig`, async () => {
      const dir = join(tempDir(), `bad-${i}`);
      await mkdir(dir, { recursive: true });
      const kubeconfig = join(dir, 'kubeconfig');
      const serve = runCli([
        'serve',
        '--insecure-http',
        '--insecure-no-auth',
        '--kubeconfig-out',
        kubeconfig,
        ...(await c.setup(dir)),
      ]);
      expect(await serve.exit).toBe(1);
      const lines = serve.stderr().trim().split('\n');
      expect(lines, serve.stderr()).toHaveLength(1);
      const want = c.line(dir);
      if (typeof want === 'string') expect(lines[0]).toBe(want);
      else expect(lines[0]).toMatch(want);
      expect(serve.stdout()).toBe('');
      expect(await exists(kubeconfig)).toBe(false);
    });
  }

  it('documents the flags as repeatable', async () => {
    const help = runCli(['serve', '--help']);
    await help.exit;
    const text = help.stdout().replace(/\s+/g, ' ');
    expect(text).toMatch(/--crds <path> CustomResourceDefinitions to install before ready: .*repeatable/);
    expect(text).toMatch(/--objects <path> objects to create before ready .*repeatable/);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
