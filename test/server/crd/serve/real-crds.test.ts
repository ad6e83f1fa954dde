/**
 * The real CRDs of support/fixtures/crds served over HTTP: each installs and becomes
 * Established, each project's example objects are created as they are (201, nothing pruned,
 * no warning), and the broken variants of support/fixtures/crds/refusals.ts are refused
 * with a 422 that carries kube-apiserver's words for each error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../../src/server/index.js';
import { loadExampleObjects, loadRealCrd, REAL_CRDS } from '../../../../support/fixtures/crds/index.js';
import { REFUSALS } from '../../../../support/fixtures/crds/refusals.js';
import { conditionTrue } from '../../../helpers/crds.js';
import { call, ensureNamespace, startTestServer } from '../../../helpers/server.js';
import { waitUntil } from '../../../helpers/wait.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const NAMESPACE = 'real';
const BLOCKING = new Set([
  'FieldValueNotSupported',
  'FieldValueRequired',
  'FieldValueTooLong',
  'FieldValueTooMany',
  'FieldValueTypeInvalid',
]);
const CEL_SKIPPED =
  '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
  await ensureNamespace(server, NAMESPACE);
  for (const entry of REAL_CRDS) {
    const created = await call(server, 'POST', CRDS, { body: loadRealCrd(entry.file) });
    if (created.status !== 201) throw new Error(`${entry.file}: ${created.status} ${created.text}`);
  }
  await waitUntil(async () => {
    const list = await call(server, 'GET', CRDS);
    return (
      list.body.items.filter((crd: any) => conditionTrue(crd, 'Established')).length === REAL_CRDS.length
    );
  }, 'every real CRD to be Established');
}, 60_000);
afterAll(async () => {
  await server?.close();
});

/** The collection URL of an object of `entry`'s kind (the storage version's, or the object's own). */
function collection(crd: any, obj: any): string {
  const version = String(obj.apiVersion).split('/')[1];
  const namespaced = crd.spec.scope === 'Namespaced';
  return `/apis/${crd.spec.group}/${version}${namespaced ? `/namespaces/${NAMESPACE}` : ''}/${crd.spec.names.plural}`;
}

describe.each(REAL_CRDS)('$kind ($group)', (entry) => {
  it('is established with the names it asked for', async () => {
    const crd = loadRealCrd(entry.file) as any;
    const got = await call(server, 'GET', `${CRDS}/${crd.metadata.name}`);
    expect(got.body.status.acceptedNames.kind).toBe(entry.kind);
    expect(got.body.status.acceptedNames.plural).toBe(entry.plural);
    const conditions = Object.fromEntries(got.body.status.conditions.map((c: any) => [c.type, c.status]));
    expect(conditions).toMatchObject({ NamesAccepted: 'True', Established: 'True' });
  });

  it("creates the project's example objects as they are", async () => {
    const crd = loadRealCrd(entry.file) as any;
    for (const [i, example] of entry.examples.flatMap((f) => loadExampleObjects(f)).entries()) {
      const obj = structuredClone(example) as any;
      obj.metadata = {
        ...obj.metadata,
        name: `${obj.metadata?.name ?? 'example'}-${i}`,
        namespace: undefined,
      };
      const created = await call(server, 'POST', `${collection(crd, obj)}?fieldValidation=Strict`, {
        body: obj,
      });
      expect(created.status, created.text).toBe(201);
      expect(created.headers.warning, created.text).toBeUndefined();
      expect(created.body.spec ?? {}).toMatchObject(obj.spec ?? {});
    }
  });
});

describe("broken objects are refused with kube-apiserver's errors", () => {
  it.each(REFUSALS.map((r, i) => ({ ...r, i })))('$name', async (refusal) => {
    const crd = loadRealCrd(refusal.file) as any;
    const obj = structuredClone(loadExampleObjects(refusal.example)[0]) as any;
    refusal.change(obj);
    obj.metadata = { ...obj.metadata, name: `refused-${refusal.i}`, namespace: undefined };
    const res = await call(server, 'POST', collection(crd, obj), { body: obj });
    expect(res.status, res.text).toBe(422);
    expect(res.body.reason).toBe('Invalid');
    const kind = crd.spec.names.kind;
    expect(res.body.message.startsWith(`${kind}.${crd.spec.group} "refused-${refusal.i}" is invalid: `)).toBe(
      true,
    );
    const causes = res.body.details.causes.map((c: any) => `${c.field}: ${c.message}`).sort();
    // With CEL rules in the version, an error that makes the input unreliable skips them, and
    // says so (pkg/registry/customresource/strategy.go `hasBlockingErr`).
    const version = crd.spec.versions.find((v: any) => obj.apiVersion.endsWith(`/${v.name}`));
    const hasRules = JSON.stringify(version.schema).includes('x-kubernetes-validations');
    const blocking = res.body.details.causes.some((c: any) => BLOCKING.has(c.reason));
    expect(causes).toEqual([...refusal.errors, ...(hasRules && blocking ? [CEL_SKIPPED] : [])].sort());
  });
});
