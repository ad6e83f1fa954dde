/**
 * The typed-object check as kubectl meets it (the `kubectl` on PATH, against an in-process HTTPS
 * server with a generated kubeconfig): a manifest with an unknown field is refused under
 * kubectl's default `--validate=strict` and created with `Warning: unknown field ...` under
 * `--validate=warn`; a wrong-typed manifest is refused with kube-apiserver's decode error; and
 * every object that was accepted reads back through kubectl's Go decoding (`describe`,
 * `get -o yaml`), which a stored wrong type used to break.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { call, ensureNamespace } from '../../helpers/server.js';
import { findKubectls, requireTool } from '../../helpers/tools.js';
import { KubectlSession } from '../kubectl/run.js';

const kubectl = (await findKubectls()).find((k) => k.name === 'kubectl');
const haveKubectl = requireTool('kubectl', kubectl !== undefined);
const NS = 'typed-kubectl';

const UNKNOWN_FIELDS = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        imagePolicy: Always
  bogus: true
`;

const WRONG_TYPE = `apiVersion: v1
kind: ConfigMap
metadata:
  name: nested
data:
  a:
    b: 1
`;

describe.skipIf(!haveKubectl)('kubectl and the typed-object check', () => {
  let dir: string;
  let server: RunningServer;
  let session: KubectlSession;
  const manifest = async (name: string, text: string) => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'watchmark-typed-'));
    server = await startServer({ kubeconfigOut: join(dir, 'kubeconfig') });
    await mkdir(join(dir, 'kubectl', 'home'), { recursive: true });
    session = new KubectlSession(kubectl!, join(dir, 'kubectl'), server.kubeconfigPath!, NS);
    await ensureNamespace(server, NS);
  });
  afterAll(async () => {
    await session?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses unknown fields under the default --validate=strict, naming each', async () => {
    const r = await session.inNamespace(['create', '-f', await manifest('strict.yaml', UNKNOWN_FIELDS)]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.bogus", unknown field "spec.template.spec.containers[0].imagePolicy"',
    );
  });

  it('prints a Warning per unknown field under --validate=warn, and creates the object without them', async () => {
    const r = await session.inNamespace([
      'create',
      '--validate=warn',
      '-f',
      await manifest('warn.yaml', UNKNOWN_FIELDS),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Warning: unknown field "spec.bogus"');
    expect(r.stderr).toContain('Warning: unknown field "spec.template.spec.containers[0].imagePolicy"');
    expect(r.stdout).toContain('deployment.apps/web created');
  });

  it('refuses a wrong-typed manifest with the decode error', async () => {
    const r = await session.inNamespace(['apply', '-f', await manifest('wrong.yaml', WRONG_TYPE)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal object into Go struct field ConfigMap.data of type string',
    );
  });

  it('reads back every accepted object: describe and get -o yaml decode them', async () => {
    // Written over plain HTTP the way a careless client would: unknown fields, nulls, a byte list.
    const written = await call(server, 'POST', `/api/v1/namespaces/${NS}/configmaps`, {
      body: {
        metadata: { name: 'loose', labels: { tier: 'web' }, annotations: { note: null }, bogus: 1 },
        data: { a: 'b' },
        binaryData: { bin: [104, 105] },
        extra: { x: 1 },
      },
    });
    expect(written.status, written.text).toBe(201);
    expect(written.headers.warning).toBeDefined();

    const describeAll = await session.inNamespace(['describe', 'configmaps,deployments']);
    expect(describeAll.code, describeAll.stderr).toBe(0);
    expect(describeAll.stdout).toMatch(/^Name: +loose$/m);
    expect(describeAll.stdout).toMatch(/^Name: +web$/m);

    const yaml = await session.inNamespace(['get', 'configmap', 'loose', '-o', 'yaml']);
    expect(yaml.code, yaml.stderr).toBe(0);
    expect(yaml.stdout).toContain('bin: aGk=');
    expect(yaml.stdout).toContain('note: ""');
    expect(yaml.stdout).not.toContain('bogus');
    expect(yaml.stdout).not.toContain('extra');

    const deployment = await session.inNamespace(['get', 'deployment', 'web', '-o', 'yaml']);
    expect(deployment.code, deployment.stderr).toBe(0);
    expect(deployment.stdout).not.toContain('imagePolicy');
    expect(deployment.stdout).not.toContain('bogus');
  });
});
