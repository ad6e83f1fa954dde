import { describe, expect, it } from 'vitest';
import { call } from '../../helpers/server.js';
import { findKubectls, requireTool } from '../../helpers/tools.js';
import { useKubectlServer } from '../kubectl/fixture.js';

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
  const env = useKubectlServer(kubectl!, NS);

  it('refuses unknown fields under the default --validate=strict, naming each', async () => {
    const r = await env.kubectl.inNamespace(['create', '-f', await env.file('strict.yaml', UNKNOWN_FIELDS)]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.bogus", unknown field "spec.template.spec.containers[0].imagePolicy"',
    );
  });

  it('prints a Warning per unknown field under --validate=warn, and creates the object without them', async () => {
    const r = await env.kubectl.inNamespace([
      'create',
      '--validate=warn',
      '-f',
      await env.file('warn.yaml', UNKNOWN_FIELDS),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Warning: unknown field "spec.bogus"');
    expect(r.stderr).toContain('Warning: unknown field "spec.template.spec.containers[0].imagePolicy"');
    expect(r.stdout).toContain('deployment.apps/web created');
  });

  it('refuses a wrong-typed manifest with the decode error', async () => {
    const r = await env.kubectl.inNamespace(['apply', '-f', await env.file('wrong.yaml', WRONG_TYPE)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal object into Go struct field ConfigMap.data of type string',
    );
  });

  it('reads back every accepted object: describe and get -o yaml decode them', async () => {
    // Written over plain HTTP the way a careless client would: unknown fields, nulls, a byte list.
    const written = await call(env.server, 'POST', `/api/v1/namespaces/${NS}/configmaps`, {
      body: {
        metadata: { name: 'loose', labels: { tier: 'web' }, annotations: { note: null }, bogus: 1 },
        data: { a: 'b' },
        binaryData: { bin: [104, 105] },
        extra: { x: 1 },
      },
    });
    expect(written.status, written.text).toBe(201);
    expect(written.headers.warning).toBeDefined();

    const describeAll = await env.kubectl.inNamespace(['describe', 'configmaps,deployments']);
    expect(describeAll.code, describeAll.stderr).toBe(0);
    expect(describeAll.stdout).toMatch(/^Name: +loose$/m);
    expect(describeAll.stdout).toMatch(/^Name: +web$/m);

    const yaml = await env.kubectl.inNamespace(['get', 'configmap', 'loose', '-o', 'yaml']);
    expect(yaml.code, yaml.stderr).toBe(0);
    expect(yaml.stdout).toContain('bin: aGk=');
    expect(yaml.stdout).toContain('note: ""');
    expect(yaml.stdout).not.toContain('bogus');
    expect(yaml.stdout).not.toContain('extra');

    const deployment = await env.kubectl.inNamespace(['get', 'deployment', 'web', '-o', 'yaml']);
    expect(deployment.code, deployment.stderr).toBe(0);
    expect(deployment.stdout).not.toContain('imagePolicy');
    expect(deployment.stdout).not.toContain('bogus');
  });
});
