/**
 * The CLI with custom resource types: `watchmark watch widgets` (and the
 * other name forms), `watchmark apply -f` of a CRD and its objects in one
 * file (the objects wait for the CRD to be Established), and the one-line
 * errors for a type the server does not have.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/client/client.js';
import type { KubeObject } from '../../src/protocol/events.js';
import type { RunningServer } from '../../src/server/index.js';
import { runCli } from '../helpers/cli.js';
import { installCrd } from '../helpers/crds.js';
import { tempDirForFile } from '../helpers/lifecycle.js';
import { call, startTestServer } from '../helpers/server.js';
import { widgetCrd } from '../helpers/widget.js';

let dir: string;
let server: RunningServer;
let kube: KubeClient;
let kubeconfig: string;
const tempDir = tempDirForFile('watchmark-crd-cli-');
beforeAll(async () => {
  dir = tempDir();
  kubeconfig = join(dir, 'kubeconfig');
  server = await startTestServer({ kubeconfigOut: kubeconfig });
  kube = await KubeClient.load({ kubeconfig, qps: 0 });
  await kube.resource('namespaces').create({ metadata: { name: 'demo' } });
  await installCrd(server, widgetCrd());
  await kube
    .resource('widgets', 'demo')
    .create({ metadata: { name: 'w1' }, spec: { size: 1 } } as KubeObject);
});
afterAll(async () => {
  await kube?.close();
  await server?.close();
});

describe('watchmark watch with a custom type', () => {
  it.each([['widgets'], ['wg'], ['Widget.v1.example.com']])(
    'watch %s lists, syncs and follows the custom objects',
    async (name) => {
      const watch = runCli(['watch', name, '-n', 'demo', '--kubeconfig', kubeconfig, '--for', '1500ms']);
      await watch.waitForLine(/^SYNCED/);
      const created = `w-${name.length}-${Date.now()}`;
      await kube
        .resource('wg', 'demo')
        .create({ metadata: { name: created }, spec: { size: 2 } } as KubeObject);
      expect(await watch.exit).toBe(0);
      const lines = watch.stdout().trim().split('\n');
      expect(lines[0]).toMatch(/^LIST\s+\(initial\)$/);
      expect(lines).toContainEqual(expect.stringMatching(/^ADDED\s+\d+\s+demo\/w1$/));
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^APPLIED\\s+\\d+\\s+demo/${created}$`)));
      expect(watch.stderr()).toBe('');
    },
  );

  it('an unknown type is one error line and exit 1', async () => {
    const watch = runCli(['watch', 'gizmos.example.com', '--kubeconfig', kubeconfig, '--for', '1s']);
    expect(await watch.exit).toBe(1);
    expect(watch.stderr()).toBe('error: the server doesn\'t have a resource type "gizmos"\n');
    expect(watch.stdout()).toBe('');
  });
});

/** A CRD of group `cli.io` (kind Gear) and two Gears, as one file would hold them. */
function crdAndObjects(): string {
  const crd = widgetCrd({ group: 'cli.io' });
  crd.metadata.name = 'gears.cli.io';
  crd.spec.names = { plural: 'gears', singular: 'gear', kind: 'Gear', shortNames: ['gr'] };
  const gear = (name: string, size: number) => ({
    apiVersion: 'cli.io/v1',
    kind: 'Gear',
    metadata: { name, namespace: 'demo' },
    spec: { size },
  });
  return [crd, gear('g1', 1), gear('g2', 2)].map((o) => JSON.stringify(o)).join('\n---\n');
}

describe('watchmark apply -f with custom objects', () => {
  it('applies a CRD and its objects from one file: the objects wait for the CRD to be Established', async () => {
    const file = join(dir, 'gears.yaml');
    await writeFile(file, crdAndObjects());
    const first = runCli(['apply', '-f', file, '--kubeconfig', kubeconfig]);
    expect(await first.exit, first.stderr()).toBe(0);
    expect(first.stdout()).toBe(
      [
        'customresourcedefinition.apiextensions.k8s.io/gears.cli.io created',
        'gear.cli.io/g1 created',
        'gear.cli.io/g2 created',
        '',
      ].join('\n'),
    );
    expect(first.stderr()).toBe('');
    const g2 = await kube.resource('gears.cli.io', 'demo').get('g2');
    expect(g2).toMatchObject({ spec: { size: 2, color: 'red' } });
    // Applied again: nothing to do, as kubectl says it.
    const again = runCli(['apply', '-f', file, '--kubeconfig', kubeconfig]);
    expect(await again.exit).toBe(0);
    expect(again.stdout()).toContain('gear.cli.io/g1 unchanged\n');
  });

  it('a custom object of a kind the server does not serve is one error line and exit 1', async () => {
    const file = join(dir, 'unknown.yaml');
    await writeFile(
      file,
      JSON.stringify({
        apiVersion: 'nowhere.io/v1',
        kind: 'Ghost',
        metadata: { name: 'boo', namespace: 'demo' },
      }),
    );
    const run = runCli(['apply', '-f', file, '--kubeconfig', kubeconfig]);
    expect(await run.exit).toBe(1);
    expect(run.stderr()).toBe(
      `error: ${file}: no matches for kind "Ghost" in version "nowhere.io/v1" (ensure CRDs are installed first)\n`,
    );
  });
});

describe('a short name two groups use', () => {
  it("watch goes to the first group by priority and prints kubectl's warning", async () => {
    await installCrd(server, widgetCrd({ group: 'zz.example.org' }));
    const order = (await call(server, 'GET', '/apis')).body.groups.map((g: any) => g.name);
    const [first, second] = order.filter((g: string) => g === 'example.com' || g === 'zz.example.org');
    const watch = runCli([
      'watch',
      'wg',
      '-n',
      'demo',
      '--kubeconfig',
      kubeconfig,
      '--for',
      '500ms',
      '-o',
      'json',
    ]);
    expect(await watch.exit).toBe(0);
    expect(watch.stderr()).toBe(
      `Warning: short name "wg" could also match lower priority resource widgets.${second}\n`,
    );
    const listed = watch
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((e) => e.type === 'initApply');
    expect(listed.every((e) => e.object.apiVersion === `${first}/v1`)).toBe(true);
  });
});
