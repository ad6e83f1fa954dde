/** What the real-CRD suites share: the fixtures' CRDs and compiled schemas, cached, and readers of them. */
import type { CustomResourceColumnDefinition } from '../../../../src/server/crd/definition/printer-columns.js';
import { type CrdSchema, compileCrdSchema } from '../../../../src/server/crd/schema/engine.js';
import type { CrdSchemaProps, Structural } from '../../../../src/server/crd/schema/structural.js';
import { loadRealCrd } from '../../../../support/fixtures/crds/index.js';

export interface CrdVersion {
  name: string;
  served: boolean;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  schema?: { openAPIV3Schema?: CrdSchemaProps };
}
export interface Crd {
  metadata: { name: string };
  spec: { group: string; names: { kind: string; plural: string }; versions: CrdVersion[] };
}

/**
 * The CEL rules each CRD carries, by version, as counted in the manifests (rules in every
 * `x-kubernetes-validations` list). Not evaluated here yet; a CEL evaluator can check it runs
 * them all.
 */
export const CEL_RULE_COUNTS: Array<{ file: string; rules: Record<string, number> }> = [
  { file: 'monitoring.coreos.com_prometheusrules.yaml', rules: { v1: 0 } },
  { file: 'cert-manager.io_certificates.yaml', rules: { v1: 0 } },
  { file: 'argoproj.io_applications.yaml', rules: { v1alpha1: 0 } },
  { file: 'templates.gatekeeper.sh_constrainttemplates.yaml', rules: { v1: 0, v1alpha1: 0, v1beta1: 0 } },
  { file: 'apiextensions.crossplane.io_compositeresourcedefinitions.yaml', rules: { v1: 12, v2: 8 } },
  { file: 'apiextensions.crossplane.io_compositions.yaml', rules: { v1: 4 } },
  { file: 'networking.istio.io_virtualservices.yaml', rules: { v1: 6, v1alpha3: 6, v1beta1: 6 } },
  { file: 'kustomize.toolkit.fluxcd.io_kustomizations.yaml', rules: { v1: 2 } },
  { file: 'keda.sh_scaledobjects.yaml', rules: { v1alpha1: 1 } },
  { file: 'gateway.networking.k8s.io_httproutes.yaml', rules: { v1: 89, v1beta1: 89 } },
];

export const crds = new Map<string, Crd>();
export const crdOf = (file: string): Crd => {
  let crd = crds.get(file);
  if (!crd) {
    crd = loadRealCrd(file) as unknown as Crd;
    crds.set(file, crd);
  }
  return crd;
};
export const schemas = new Map<string, CrdSchema>();
/** The compiled schema of a CRD version (compiled once). */
export const schemaOf = (file: string, version: string): CrdSchema => {
  const key = `${file}@${version}`;
  let schema = schemas.get(key);
  if (!schema) {
    const v = crdOf(file).spec.versions.find((x) => x.name === version);
    if (!v) throw new Error(`${file} has no version ${version}`);
    schema = compileCrdSchema(v.schema?.openAPIV3Schema);
    schemas.set(key, schema);
  }
  return schema;
};
export const versionOf = (obj: Record<string, unknown>): string => String(obj.apiVersion).split('/')[1]!;
export const texts = (schema: CrdSchema, obj: unknown): string[] =>
  schema.validate(obj).map((e) => `${e.field}: ${e.message}`);

/** Every node of a compiled schema, depth first. */
export function* nodes(s: Structural | undefined): Generator<Structural> {
  if (s === undefined) return;
  yield s;
  for (const p of s.properties?.values() ?? []) yield* nodes(p);
  if (typeof s.additionalProperties === 'object') yield* nodes(s.additionalProperties);
  yield* nodes(s.items);
  for (const sub of [...s.allOf, ...s.anyOf, ...s.oneOf]) yield* nodes(sub);
  yield* nodes(s.not);
}
