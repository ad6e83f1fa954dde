/**
 * The custom merge schema (src/server/ssa/custom-schema.ts): a hand-written schema with every
 * extension kube-openapi's converter reads, and the real CRDs of support/fixtures/crds, each
 * served version converted and spot-checked against its manifest.
 */
import { describe, expect, it } from 'vitest';
import { type CrdSchemaProps, compileStructural } from '../../../src/server/crd/schema/structural.js';
import type { ResourceKind } from '../../../src/server/kinds/types.js';
import { builtinMergeNode } from '../../../src/server/ssa/builtin-schema.js';
import { customMergeNode, customMergeNodeOfKind } from '../../../src/server/ssa/custom-schema.js';
import type { ListNode, MapNode, MergeNode } from '../../../src/server/ssa/merge-schema.js';
import { SCALAR, UNTYPED } from '../../../src/server/ssa/merge-schema.js';
import { loadRealCrd, REAL_CRDS } from '../../../support/fixtures/crds/index.js';
import { nodeAt } from './node-at.js';

const OBJECT_META = builtinMergeNode('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');

const at = nodeAt;
const list = (root: MergeNode, path: string) => at(root, path) as ListNode;
const map = (root: MergeNode, path: string) => at(root, path) as MapNode;

const str: CrdSchemaProps = { type: 'string' };
const obj = (properties: Record<string, CrdSchemaProps>, more: CrdSchemaProps = {}): CrdSchemaProps => ({
  type: 'object',
  properties,
  ...more,
});

/** Every extension the converter reads, once each. */
const HAND_WRITTEN: CrdSchemaProps = obj({
  metadata: obj({ name: { type: 'string', maxLength: 10 } }),
  spec: obj({
    ports: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['port', 'protocol'],
      items: obj({ port: { type: 'integer' }, protocol: str, name: str }),
    },
    tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: str },
    args: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: str },
    plain: { type: 'array', items: obj({ a: str }) },
    untypedItems: { type: 'array' },
    selector: obj({ app: str }, { 'x-kubernetes-map-type': 'atomic' }),
    granular: obj({ app: str }, { 'x-kubernetes-map-type': 'granular' }),
    labels: { type: 'object', additionalProperties: str },
    atomicLabels: { type: 'object', additionalProperties: str, 'x-kubernetes-map-type': 'atomic' },
    anyValues: { type: 'object', additionalProperties: true },
    free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    anything: { 'x-kubernetes-preserve-unknown-fields': true },
    partlyKnown: obj(
      { known: str, nested: obj({ deep: str }) },
      { 'x-kubernetes-preserve-unknown-fields': true },
    ),
    port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
    bareObject: { type: 'object' },
    template: obj(
      { spec: obj({ replicas: { type: 'integer' } }) },
      { 'x-kubernetes-embedded-resource': true },
    ),
    embeddedAny: {
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true,
    },
    number: { type: 'number' },
    flag: { type: 'boolean' },
  }),
});

describe('customMergeNode: every extension', () => {
  const root = customMergeNode(compileStructural(HAND_WRITTEN));

  it('makes the root kube-native: apiVersion, kind and ObjectMeta whatever the schema says of metadata', () => {
    expect(at(root, 'apiVersion')).toBe(SCALAR);
    expect(at(root, 'kind')).toBe(SCALAR);
    expect(at(root, 'metadata')).toBe(OBJECT_META);
    expect((root as MapNode).relationship).toBe('separable');
    expect((root as MapNode).values).toBeUndefined();
    expect((root as MapNode).field('nope')).toBeUndefined();
  });

  it('reads x-kubernetes-list-type and x-kubernetes-list-map-keys, atomic by default', () => {
    expect(list(root, 'spec.ports')).toMatchObject({
      relationship: 'associative',
      keys: ['port', 'protocol'],
    });
    expect(at(root, 'spec.ports[].port')).toBe(SCALAR);
    expect(list(root, 'spec.tags')).toMatchObject({ relationship: 'associative', keys: [], items: SCALAR });
    expect(list(root, 'spec.args')).toMatchObject({ relationship: 'atomic', keys: [] });
    expect(list(root, 'spec.plain')).toMatchObject({ relationship: 'atomic', keys: [] });
    expect(map(root, 'spec.plain[]').field('a')).toBe(SCALAR);
    // No items: `__untyped_atomic_`, a leaf.
    expect(list(root, 'spec.untypedItems').items).toBe(SCALAR);
  });

  it('reads x-kubernetes-map-type (granular by default) and additionalProperties', () => {
    expect(map(root, 'spec.selector').relationship).toBe('atomic');
    expect(map(root, 'spec.granular').relationship).toBe('separable');
    expect(map(root, 'spec.labels')).toMatchObject({ relationship: 'separable', values: SCALAR });
    expect(map(root, 'spec.atomicLabels')).toMatchObject({ relationship: 'atomic', values: SCALAR });
    expect(at(root, 'spec.anyValues')).toBe(UNTYPED);
    expect(map(root, 'spec.selector').values).toBeUndefined();
  });

  it('makes preserve-unknown-fields places deduced, for the node and all below it', () => {
    expect(at(root, 'spec.free')).toBe(UNTYPED);
    expect(at(root, 'spec.anything')).toBe(UNTYPED);
    expect(at(root, 'spec.partlyKnown.known')).toBe(SCALAR);
    expect(map(root, 'spec.partlyKnown').values).toBe(UNTYPED);
    // smd's converter never switches preservation off below (pruning does).
    expect(map(root, 'spec.partlyKnown.nested').values).toBe(UNTYPED);
    expect(map(root, 'spec.partlyKnown.nested').field('deep')).toBe(SCALAR);
    // An object naming nothing keeps any key as deduced: the deduced type itself.
    expect(at(root, 'spec.bareObject')).toBe(UNTYPED);
  });

  it('makes int-or-string untyped and the primitives scalars', () => {
    expect(at(root, 'spec.port')).toBe(UNTYPED);
    expect(at(root, 'spec.number')).toBe(SCALAR);
    expect(at(root, 'spec.flag')).toBe(SCALAR);
  });

  it('gives embedded resources apiVersion, kind and ObjectMeta', () => {
    expect(at(root, 'spec.template.metadata')).toBe(OBJECT_META);
    expect(at(root, 'spec.template.apiVersion')).toBe(SCALAR);
    expect(at(root, 'spec.template.spec.replicas')).toBe(SCALAR);
    expect(map(root, 'spec.template').values).toBeUndefined();
    expect(at(root, 'spec.embeddedAny.kind')).toBe(SCALAR);
    expect(at(root, 'spec.embeddedAny.metadata')).toBe(OBJECT_META);
    expect(map(root, 'spec.embeddedAny').values).toBe(UNTYPED);
  });
});

/** A served custom kind of a real CRD version, as the serving code builds it (only what matters here). */
function kindOf(version: CrdVersion): ResourceKind {
  return {
    kind: 'X',
    custom: { openAPIV3Schema: version.schema?.openAPIV3Schema },
  } as unknown as ResourceKind;
}

function countNodes(root: MergeNode, schema: CrdSchemaProps): number {
  // Walks the schema beside the node so every declared field is resolved.
  let count = 0;
  const visit = (n: MergeNode, s: CrdSchemaProps | undefined): void => {
    count++;
    if (!s) return;
    if (n.kind === 'list' && s.items && !Array.isArray(s.items)) visit(n.items, s.items);
    if (n.kind !== 'map') return;
    for (const [name, p] of Object.entries(s.properties ?? {})) {
      const child = n.field(name);
      expect(child, name).toBeDefined();
      visit(child!, name === 'metadata' ? undefined : p);
    }
    if (n.values && typeof s.additionalProperties === 'object') visit(n.values, s.additionalProperties);
  };
  visit(root, schema);
  return count;
}

interface CrdVersion {
  name: string;
  schema?: { openAPIV3Schema?: CrdSchemaProps };
}

describe('customMergeNode: key defaults', () => {
  // kube-openapi schemaconv/openapi.go `parseObject` keeps a property's `default` as smd's
  // `StructField.Default`; smd typed/helpers.go `getAssociativeKeyDefault` reads it for a key.
  const node = customMergeNode(
    compileStructural(
      obj({
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port', 'protocol'],
          items: obj({
            port: { type: 'integer' },
            protocol: { type: 'string', default: 'TCP' },
            name: { type: 'string', default: 'http' },
          }),
        },
        nulls: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['k'],
          items: obj({ k: { type: 'string', nullable: true, default: null } }),
        },
        zero: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['n'],
          items: obj({ n: { type: 'integer', default: 0 } }),
        },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', default: 'x' } },
      }),
    ),
  );

  it('takes the defaults of the key fields of the item schema, and only those', () => {
    expect(list(node, 'ports').keyDefaults).toEqual({ protocol: 'TCP' });
    expect(list(node, 'zero').keyDefaults).toEqual({ n: 0 });
  });

  it('treats a null default as none (Go nil) and gives sets none', () => {
    expect(list(node, 'nulls').keyDefaults).toBeUndefined();
    expect(list(node, 'tags').keyDefaults).toBeUndefined();
  });

  it('sets none on the lists of the hand-written schema, whose keys have no default', () => {
    expect(list(customMergeNode(compileStructural(HAND_WRITTEN)), 'spec.ports').keyDefaults).toBeUndefined();
  });
});

describe('customMergeNode: the real CRDs', () => {
  const versions = REAL_CRDS.flatMap((c) => {
    const crd = loadRealCrd(c.file);
    const spec = crd.spec as { versions: CrdVersion[] };
    return spec.versions.map((v) => ({ kind: c.kind, version: v }));
  });

  it.each(versions.map((v) => [`${v.kind} ${v.version.name}`, v] as const))('%s converts', (_name, v) => {
    const kind = kindOf(v.version);
    const node = customMergeNodeOfKind(kind);
    expect(customMergeNodeOfKind(kind)).toBe(node);
    expect(countNodes(node, v.version.schema!.openAPIV3Schema!)).toBeGreaterThan(3);
    expect(at(node, 'metadata')).toBe(OBJECT_META);
  });

  const storage = (kind: string) => {
    const c = REAL_CRDS.find((x) => x.kind === kind)!;
    const crd = loadRealCrd(c.file);
    const v = (crd.spec as { versions: Array<CrdVersion & { storage: boolean }> }).versions.find(
      (x) => x.storage,
    )!;
    return customMergeNode(compileStructural(v.schema!.openAPIV3Schema!));
  };

  it('keys the lists the manifests key (HTTPRoute, PrometheusRule, Composition, Certificate)', () => {
    const route = storage('HTTPRoute');
    expect(list(route, 'spec.rules').relationship).toBe('atomic');
    expect(list(route, 'spec.rules[].matches[].headers')).toMatchObject({
      relationship: 'associative',
      keys: ['name'],
    });
    expect(list(route, 'spec.rules[].filters[].requestHeaderModifier.set').keys).toEqual(['name']);
    expect(list(route, 'spec.rules[].filters[].requestHeaderModifier.remove')).toMatchObject({
      relationship: 'associative',
      keys: [],
    });
    expect(list(route, 'status.parents[].conditions').keys).toEqual(['type']);
    const rules = storage('PrometheusRule');
    expect(list(rules, 'spec.groups').keys).toEqual(['name']);
    expect(at(rules, 'spec.groups[].rules[].expr')).toBe(UNTYPED);
    expect(list(rules, 'status.bindings').keys).toEqual(['group', 'resource', 'name', 'namespace']);
    const composition = storage('Composition');
    expect(list(composition, 'spec.pipeline').keys).toEqual(['step']);
    expect(at(composition, 'spec.pipeline[].input.metadata')).toBe(OBJECT_META);
    expect(map(composition, 'spec.pipeline[].input').values).toBe(UNTYPED);
    expect(list(storage('Certificate'), 'status.conditions').keys).toEqual(['type']);
    expect(list(storage('Certificate'), 'spec.dnsNames').relationship).toBe('atomic');
    expect(
      map(storage('CompositeResourceDefinition'), 'spec.defaultCompositionRevisionSelector').relationship,
    ).toBe('atomic');
  });

  it('makes the preserve-unknown-fields places of the manifests untyped', () => {
    expect(at(storage('Application'), 'spec.source.helm.valuesObject')).toBe(UNTYPED);
    expect(at(storage('ConstraintTemplate'), 'spec.crd.spec.validation.openAPIV3Schema')).toBe(UNTYPED);
    expect(map(storage('VirtualService'), 'status').values).toBe(UNTYPED);
  });

  it('gives a version without a schema the deduced type', () => {
    expect(customMergeNodeOfKind({ kind: 'X', custom: {} } as unknown as ResourceKind)).toBe(UNTYPED);
  });
});
