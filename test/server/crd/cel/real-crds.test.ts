/**
 * The CEL rules of real CRDs (support/fixtures/crds/, sources and licences in its README) on their
 * projects' example objects: every rule compiles when the CRD is written (real-crds.test.ts), and
 * every example, pruned and defaulted as a write is, passes them, as on kube-apiserver.
 */
import { describe, expect, it } from 'vitest';
import { compileCrdSchemaWithCel } from '../../../../src/server/crd/cel/index.js';
import type { CrdSchemaProps } from '../../../../src/server/crd/schema/structural.js';
import { loadExampleObjects, loadRealCrd, REAL_CRDS } from '../../../../support/fixtures/crds/index.js';

interface Version {
  name: string;
  schema?: { openAPIV3Schema?: CrdSchemaProps };
}

const withRules = REAL_CRDS.filter((c) =>
  JSON.stringify(loadRealCrd(c.file)).includes('x-kubernetes-validations'),
);

describe.each(withRules.map((c) => [c.kind, c] as const))('%s', (_kind, real) => {
  const crd = loadRealCrd(real.file) as { spec: { versions: Version[] } };
  it.each(real.examples)('%s passes its rules', (file) => {
    for (const obj of loadExampleObjects(file)) {
      const version = String(obj.apiVersion).split('/').pop();
      const v = crd.spec.versions.find((x) => x.name === version);
      const schema = compileCrdSchemaWithCel(v?.schema?.openAPIV3Schema);
      const copy = structuredClone(obj);
      schema.prune(copy);
      schema.default(copy);
      expect(schema.validate(copy).map((e) => `${e.field}: ${e.message}`)).toEqual([]);
    }
  });
});

/** The schema of a real CRD's version, compiled with its rules. */
function schemaOf(file: string, version: string) {
  const crd = loadRealCrd(file) as { spec: { versions: Version[] } };
  return compileCrdSchemaWithCel(crd.spec.versions.find((v) => v.name === version)?.schema?.openAPIV3Schema);
}
const texts = (errs: { field: string; message: string }[]): string[] =>
  errs.map((e) => `${e.field}: ${e.message}`);

describe('broken objects are refused by real rules with kube-apiserver words', () => {
  it('KEDA: minReplicaCount above maxReplicaCount', () => {
    const [obj] = loadExampleObjects('scaledobjects-example.yaml');
    const copy = structuredClone(obj!) as { spec: Record<string, unknown> };
    copy.spec.minReplicaCount = 200;
    const schema = schemaOf('keda.sh_scaledobjects.yaml', 'v1alpha1');
    schema.default(copy);
    expect(texts(schema.validate(copy))).toEqual([
      'spec: Invalid value: minReplicaCount must be less than or equal to maxReplicaCount',
    ]);
  });

  it('Crossplane: the names of a CompositeResourceDefinition are immutable and lowercase', () => {
    const [obj] = loadExampleObjects('compositeresourcedefinitions-example.yaml');
    const schema = schemaOf('apiextensions.crossplane.io_compositeresourcedefinitions.yaml', 'v2');
    const old = structuredClone(obj!);
    schema.default(old);
    const changed = structuredClone(old) as { spec: { names: Record<string, unknown> } };
    changed.spec.names.plural = 'ClusterTests';
    expect(texts(schema.validate(changed, { oldObject: old }))).toEqual([
      'spec.names: Invalid value: Value is immutable',
      'spec.names: Invalid value: Plural name must be lowercase',
    ]);
    // Unchanged, the same object is fine, and an old object's failure is ratcheted.
    expect(texts(schema.validate(old, { oldObject: old }))).toEqual([]);
    expect(texts(schema.validate(changed, { oldObject: changed }))).toEqual([]);
  });
});
