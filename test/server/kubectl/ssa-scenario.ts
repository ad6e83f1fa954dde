/**
 * Server-side apply through a real kubectl, each answer checked as kube-apiserver gives it: two
 * field managers conflicting on one field (kubectl's exact output and exit code), the transfer
 * by --force-conflicts, removal of fields a manager stops applying unless another owns them,
 * client-side apply followed by --server-side (kubectl 1.26+ migrates the client-side manager's
 * fields itself, client-go csaupgrade), and the managedFields `kubectl get --show-managed-fields`
 * prints. Then the golden Deployment of `kubectl create deployment`, `kubectl scale` and
 * `kubectl set image` (ssa-goldens.ts).
 */
import { basename } from 'node:path';
import { expect } from 'vitest';
import { expectFailure, expectOk, jsonOf } from './expect.js';
import type { KubectlSession } from './run.js';
import { afterCreate, afterScale, afterSetImage } from './ssa-goldens.js';

type WriteFile = (name: string, text: string) => Promise<string>;

function deployment(name: string, replicas: number | undefined, labels: Record<string, string>): string {
  const labelLines = Object.entries(labels)
    .map(([k, v]) => `    ${k}: ${v}`)
    .join('\n');
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  labels:
${labelLines}
spec:
${replicas === undefined ? '' : `  replicas: ${replicas}\n`}  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - name: main
        image: busybox:1.36
`;
}

/** kubectl apply.go's advice after a server-side apply conflict. */
const CONFLICT_ADVICE = `Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the \`--force-conflicts\` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts
`;

/** The managers and their fields of a `--show-managed-fields -o json` object, without times. */
function owners(obj: any): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const e of obj.metadata.managedFields ?? []) {
    out[`${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ''}`] = e.fieldsV1;
  }
  return out;
}

async function getJson(k: KubectlSession, what: string): Promise<any> {
  return jsonOf(await k.inNamespace(['get', what, '--show-managed-fields', '-o', 'json']));
}

/** Walks the two-manager scenario on `deployment.apps/web` and the migration on `csa`. */
export async function runSsaScenario(k: KubectlSession, file: WriteFile): Promise<void> {
  const a = await file('a.yaml', deployment('web', 2, { app: 'web', tier: 'front', team: 'x' }));
  expectOk(
    await k.inNamespace(['apply', '--server-side', '--field-manager=a', '-f', a]),
    'deployment.apps/web serverside-applied\n',
  );
  const b = await file(
    'b.yaml',
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n',
  );
  const conflict = await k.inNamespace(['apply', '--server-side', '--field-manager=b', '-f', b]);
  expectFailure(
    conflict,
    `error: Apply failed with 1 conflict: conflict with "a": .spec.replicas\n${CONFLICT_ADVICE}`,
  );
  expectOk(
    await k.inNamespace(['apply', '--server-side', '--field-manager=b', '--force-conflicts', '-f', b]),
    'deployment.apps/web serverside-applied\n',
  );
  let web = await getJson(k, 'deployment/web');
  expect(web.spec.replicas).toBe(3);
  expect(owners(web)['b/Apply']).toEqual({ 'f:spec': { 'f:replicas': {} } });
  expect((owners(web)['a/Apply'] as any)['f:spec']['f:replicas']).toBeUndefined();
  // b co-owns the team label (same value: no conflict); a then stops applying tier and team.
  const b2 = await file(
    'b2.yaml',
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: {team: x}\nspec:\n  replicas: 3\n',
  );
  expectOk(
    await k.inNamespace(['apply', '--server-side', '--field-manager=b', '-f', b2]),
    'deployment.apps/web serverside-applied\n',
  );
  const a2 = await file('a2.yaml', deployment('web', undefined, { app: 'web' }));
  expectOk(
    await k.inNamespace(['apply', '--server-side', '--field-manager=a', '-f', a2]),
    'deployment.apps/web serverside-applied\n',
  );
  web = await getJson(k, 'deployment/web');
  expect(web.metadata.labels).toEqual({ app: 'web', team: 'x' });
  expect(web.spec.replicas).toBe(3);
  // kubectl prints each entry as the server sent it, keys sorted (an unstructured map).
  for (const e of web.metadata.managedFields) {
    expect(Object.keys(e).sort()).toEqual([
      'apiVersion',
      'fieldsType',
      'fieldsV1',
      'manager',
      'operation',
      'time',
    ]);
    expect(e).toMatchObject({ apiVersion: 'apps/v1', fieldsType: 'FieldsV1', operation: 'Apply' });
    expect(e.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  }
  expect(Object.keys(owners(web)).sort()).toEqual(['a/Apply', 'b/Apply']);

  // Client-side apply, then --server-side with the same file: no conflict.
  const csa = await file('csa.yaml', deployment('csa', 1, { app: 'csa' }));
  expectOk(await k.inNamespace(['apply', '-f', csa]), 'deployment.apps/csa created\n');
  const before = owners(await getJson(k, 'deployment/csa'));
  expect(Object.keys(before)).toEqual(['kubectl-client-side-apply/Update']);
  const csaBumped = await file('csa2.yaml', deployment('csa', 2, { app: 'csa' }));
  expectOk(
    await k.inNamespace(['apply', '--server-side', '-f', csaBumped]),
    'deployment.apps/csa serverside-applied\n',
  );
  const migrated = await getJson(k, 'deployment/csa');
  expect(migrated.spec.replicas).toBe(2);
  const after = owners(migrated);
  expect(after['kubectl/Apply']).toMatchObject({ 'f:spec': { 'f:replicas': {} } });
  expect(JSON.stringify(after['kubectl-client-side-apply/Update'] ?? {})).not.toContain('f:replicas');

  // The goldens: a Deployment created, scaled and patched by kubectl.
  expectOk(
    await k.inNamespace(['create', 'deployment', 'nginx', '--image=nginx']),
    'deployment.apps/nginx created\n',
  );
  expect(stripTimes(await getJson(k, 'deployment/nginx'))).toEqual(afterCreate);
  expectOk(
    await k.inNamespace(['scale', 'deployment/nginx', '--replicas=3']),
    'deployment.apps/nginx scaled\n',
  );
  expect(stripTimes(await getJson(k, 'deployment/nginx'))).toEqual(afterScale(basename(k.binary.path)));
  expectOk(
    await k.inNamespace(['set', 'image', 'deployment/nginx', 'nginx=nginx:1.25']),
    'deployment.apps/nginx image updated\n',
  );
  expect(stripTimes(await getJson(k, 'deployment/nginx'))).toEqual(afterSetImage(basename(k.binary.path)));
}

/** The managedFields with each `time` checked for its shape and then left out. */
function stripTimes(obj: any): unknown[] {
  return obj.metadata.managedFields.map((e: any) => {
    const { time, ...rest } = e;
    if (time !== undefined) expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    return { ...rest, ...(time !== undefined ? { time: 'T' } : {}) };
  });
}
