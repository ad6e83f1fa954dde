/**
 * Real kubectl (every version on the machine, 1.27 to 1.33, all explaining from OpenAPI v3)
 * against a server serving a CustomResourceDefinition: `explain` shows the definition's schema
 * and the CRD type's own texts, `api-resources` lists the custom resource, and
 * `apply --validate=strict` sees the schema's fields.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { installCrd } from '../../helpers/crds.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';
import { findKubectls, requireTool } from '../../helpers/tools.js';
import { widgetCrd } from '../../helpers/widget.js';
import { KubectlSession } from '../kubectl/run.js';

const kubectls = await findKubectls();
const haveKubectl = requireTool('kubectl', kubectls.length > 0);

/** kubectl wraps descriptions and indents them: compare the words. */
const words = (text: string) => text.replace(/\s+/g, ' ');

describe.skipIf(!haveKubectl)('kubectl and a custom resource', () => {
  let dir: string;
  let server: RunningServer;
  const sessions = new Map<string, KubectlSession>();

  const tempDir = tempDirForFile('watchmark-custom-kubectl-');
  beforeAll(async () => {
    dir = tempDir();
    server = await startServer({ kubeconfigOut: join(dir, 'kubeconfig') });
    await installCrd(server, widgetCrd());
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

  it.each(kubectls.map((k) => k.name))('%s explains the definition schema and the CRD type', async (name) => {
    const kubectl = sessions.get(name)!;
    const [spec, size, crd] = await Promise.all([
      kubectl.run(['explain', 'widget.spec']),
      kubectl.run(['explain', 'widgets.spec.size']),
      kubectl.run(['explain', 'crd.spec.versions.schema']),
    ]);
    for (const r of [spec, size, crd]) expect(r.code, `${r.command}\n${r.stderr}`).toBe(0);
    expect(spec.stdout).toMatch(/^GROUP: +example\.com$/m);
    expect(spec.stdout).toMatch(/^KIND: +Widget$/m);
    expect(words(spec.stdout)).toContain('What the widget should be.');
    expect(spec.stdout).toMatch(/^ {2}size\s+<integer> -required-$/m);
    expect(spec.stdout).toMatch(/^ {2}color\s+<string>$/m);
    expect(words(size.stdout)).toContain('DESCRIPTION: How big.');
    expect(crd.stdout).toMatch(/^KIND: +CustomResourceDefinition$/m);
    expect(words(crd.stdout)).toContain('openAPIV3Schema <JSONSchemaProps>');
    expect(words(crd.stdout)).toContain('openAPIV3Schema is the OpenAPI v3 schema to use');
  });

  it.each(kubectls.map((k) => k.name))(
    '%s explains from /openapi/v2 (its protobuf form) too',
    async (name) => {
      const kubectl = sessions.get(name)!;
      const [widget, replicas] = await Promise.all([
        kubectl.run(['explain', '--output=plaintext-openapiv2', 'widgets.spec']),
        kubectl.run(['explain', '--output=plaintext-openapiv2', 'deployment.spec.replicas']),
      ]);
      for (const r of [widget, replicas]) expect(r.code, `${r.command}\n${r.stderr}`).toBe(0);
      expect(words(widget.stdout)).toContain('What the widget should be.');
      expect(widget.stdout).toMatch(/^ {3}size\s+<integer> -required-$/m);
      expect(words(replicas.stdout)).toContain('Number of desired pods.');
    },
  );

  it.each(kubectls.map((k) => k.name))('%s lists the resource in api-resources', async (name) => {
    const kubectl = sessions.get(name)!;
    const r = await kubectl.run(['api-resources', '--api-group=example.com', '-o', 'wide']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^widgets +wg +example\.com\/v1 +true +Widget +delete,deletecollection,get,list,patch,create,update,watch +all$/m,
    );
  });

  it.each(kubectls.map((k) => k.name))(
    '%s applies with --validate=strict against the schema',
    async (name) => {
      const kubectl = sessions.get(name)!;
      const manifest = join(kubectl.dir, `widget-${name}.yaml`);
      const widget = (spec: string) =>
        `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w-${name.replace(/\./g, '-')}\n  namespace: default\nspec:\n${spec}`;
      await writeFile(manifest, widget('  size: 2\n  colour: red\n'));
      const refused = await kubectl.run(['apply', '--validate=strict', '-f', manifest]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('strict decoding error: unknown field "spec.colour"');
      await writeFile(manifest, widget('  size: 2\n  color: blue\n'));
      const applied = await kubectl.run(['apply', '--validate=strict', '-f', manifest]);
      expect(applied.code, applied.stderr).toBe(0);
      await writeFile(manifest, widget('  size: 3\n  color: blue\n'));
      const again = await kubectl.run(['apply', '--validate=strict', '-f', manifest]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain('configured');
    },
  );
});
