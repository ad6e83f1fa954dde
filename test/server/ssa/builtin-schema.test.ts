/**
 * The built-in merge schema (src/server/ssa/builtin-schema.ts): every served built-in kind, the
 * CustomResourceDefinition kind included, resolves through every field, and the nodes of
 * well-known fields are what Kubernetes 1.30's OpenAPI makes structured-merge-diff use.
 */
import { describe, expect, it } from 'vitest';
import { CUSTOM_RESOURCE_DEFINITIONS } from '../../../src/server/crd/serve/crd-kind.js';
import { REGISTRY } from '../../../src/server/kinds/served/registry.js';
import { API_TYPES } from '../../../src/server/openapi/openapi-types.generated.js';
import {
  builtinMergeNode,
  listRelationship,
  mergeNodeOfKind,
} from '../../../src/server/ssa/builtin-schema.js';
import type { ListNode, MapNode, MergeNode } from '../../../src/server/ssa/merge-schema.js';
import { SCALAR, UNTYPED } from '../../../src/server/ssa/merge-schema.js';
import { nodeAt } from './node-at.js';

const at = nodeAt;

function list(root: MergeNode, path: string): ListNode {
  const node = at(root, path);
  if (node.kind !== 'list') throw new Error(`${path} is a ${node.kind}`);
  return node;
}

function map(root: MergeNode, path: string): MapNode {
  const node = at(root, path);
  if (node.kind !== 'map') throw new Error(`${path} is a ${node.kind}`);
  return node;
}

/** Resolves every field of every type a node reaches (once per node), counting the nodes. */
function walkAll(root: MergeNode, typeOf: (n: MergeNode) => string | undefined): number {
  const seen = new Set<MergeNode>();
  const visit = (n: MergeNode): void => {
    if (seen.has(n)) return;
    seen.add(n);
    if (n.kind === 'list') visit(n.items);
    if (n.kind !== 'map') return;
    if (n.values) visit(n.values);
    const name = typeOf(n);
    const t = name ? API_TYPES[name] : undefined;
    for (const f of t && 'fields' in t ? Object.keys(t.fields) : []) {
      const child = n.field(f);
      expect(child, `${name}.${f}`).toBeDefined();
      visit(child!);
    }
  };
  visit(root);
  return seen.size;
}

const builtinKinds = [...REGISTRY, CUSTOM_RESOURCE_DEFINITIONS];

describe('builtinMergeNode', () => {
  it('builds every served built-in kind through every field, recursive types included', () => {
    const names = new Map<MergeNode, string>();
    for (const name of Object.keys(API_TYPES)) names.set(builtinMergeNode(name), name);
    let nodes = 0;
    for (const kind of builtinKinds) nodes += walkAll(mergeNodeOfKind(kind), (n) => names.get(n));
    expect(nodes).toBeGreaterThan(500);
  });

  it('is memoised, and a recursive type refers to itself', () => {
    const props = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps';
    expect(builtinMergeNode(props)).toBe(builtinMergeNode(props));
    expect(at(builtinMergeNode(props), 'properties{}')).toBe(builtinMergeNode(props));
  });

  it('throws for an unknown type name and a custom kind', () => {
    expect(() => builtinMergeNode('io.k8s.api.core.v1.Nope')).toThrow(/no built-in type/);
    const custom = { ...REGISTRY[0]!, custom: {} as never };
    expect(() => mergeNodeOfKind(custom)).toThrow(/custom kind/);
  });

  it('gives ObjectMeta its 1.30 merge rules', () => {
    const pod = mergeNodeOfKind(REGISTRY.find((k) => k.kind === 'Pod')!);
    expect(map(pod, 'metadata')).toMatchObject({ relationship: 'separable' });
    expect(map(pod, 'metadata.labels')).toMatchObject({ relationship: 'separable', values: SCALAR });
    expect(map(pod, 'metadata.annotations')).toMatchObject({ relationship: 'separable', values: SCALAR });
    expect(list(pod, 'metadata.finalizers')).toMatchObject({
      relationship: 'associative',
      keys: [],
      items: SCALAR,
    });
    expect(list(pod, 'metadata.ownerReferences')).toMatchObject({
      relationship: 'associative',
      keys: ['uid'],
    });
    expect(map(pod, 'metadata.ownerReferences[]').relationship).toBe('atomic');
    expect(list(pod, 'metadata.managedFields').relationship).toBe('atomic');
    expect(map(pod, 'metadata.managedFields[].fieldsV1')).toMatchObject({
      relationship: 'separable',
      values: UNTYPED,
    });
    expect(at(pod, 'metadata.creationTimestamp')).toBe(SCALAR);
    expect(at(pod, 'metadata.generation')).toBe(SCALAR);
    expect(map(pod, 'metadata').field('nope')).toBeUndefined();
    expect(map(pod, 'metadata').values).toBeUndefined();
  });

  it('keys the pod lists as the spec does', () => {
    const pod = mergeNodeOfKind(REGISTRY.find((k) => k.kind === 'Pod')!);
    expect(list(pod, 'spec.containers')).toMatchObject({ relationship: 'associative', keys: ['name'] });
    expect(list(pod, 'spec.containers[].ports')).toMatchObject({ keys: ['containerPort', 'protocol'] });
    expect(list(pod, 'spec.containers[].env')).toMatchObject({ relationship: 'associative', keys: ['name'] });
    expect(list(pod, 'spec.containers[].args')).toMatchObject({ relationship: 'atomic', items: SCALAR });
    expect(list(pod, 'spec.volumes')).toMatchObject({ relationship: 'associative', keys: ['name'] });
    expect(list(pod, 'spec.tolerations').relationship).toBe('atomic');
    expect(list(pod, 'spec.topologySpreadConstraints').keys).toEqual(['topologyKey', 'whenUnsatisfiable']);
    // +mapType=atomic on a field, and +structType=atomic on a type.
    expect(map(pod, 'spec.nodeSelector')).toMatchObject({ relationship: 'atomic', values: SCALAR });
    expect(map(pod, 'spec.imagePullSecrets[]').relationship).toBe('atomic');
    expect(map(pod, 'spec.containers[].env[].valueFrom.secretKeyRef').relationship).toBe('atomic');
    expect(map(pod, 'spec.containers[].env[].valueFrom').relationship).toBe('separable');
    // Quantity is an untyped scalar (openapi.go hardcodes it); IntOrString has no type: deduced.
    expect(map(pod, 'spec.containers[].resources.limits')).toMatchObject({ values: SCALAR });
    expect(at(pod, 'spec.containers[].livenessProbe.httpGet.port')).toBe(UNTYPED);
    expect(list(pod, 'status.conditions')).toMatchObject({ relationship: 'associative', keys: ['type'] });
  });

  it('makes LabelSelector atomic as a whole, its matchLabels a granular map inside it', () => {
    const deployment = mergeNodeOfKind(REGISTRY.find((k) => k.kind === 'Deployment')!);
    expect(map(deployment, 'spec.selector').relationship).toBe('atomic');
    expect(map(deployment, 'spec.selector.matchLabels')).toMatchObject({
      relationship: 'separable',
      values: SCALAR,
    });
    expect(list(deployment, 'status.conditions').keys).toEqual(['type']);
    expect(list(deployment, 'spec.template.spec.containers').keys).toEqual(['name']);
  });

  it('covers Service, Node, ConfigMap and the CustomResourceDefinition kind', () => {
    const kind = (k: string) => mergeNodeOfKind(REGISTRY.find((x) => x.kind === k)!);
    expect(list(kind('Service'), 'spec.ports').keys).toEqual(['port', 'protocol']);
    expect(at(kind('Service'), 'spec.ports[].targetPort')).toBe(UNTYPED);
    expect(map(kind('Service'), 'spec.selector').relationship).toBe('atomic');
    expect(list(kind('Service'), 'spec.clusterIPs').relationship).toBe('atomic');
    expect(list(kind('Node'), 'status.addresses').keys).toEqual(['type']);
    expect(map(kind('ConfigMap'), 'data')).toMatchObject({ relationship: 'separable', values: SCALAR });
    expect(map(kind('ConfigMap'), 'binaryData').values).toBe(SCALAR);

    const crd = mergeNodeOfKind(CUSTOM_RESOURCE_DEFINITIONS);
    expect(list(crd, 'spec.versions').relationship).toBe('atomic');
    expect(list(crd, 'status.conditions').keys).toEqual(['type']);
    const schema = 'spec.versions[].schema.openAPIV3Schema';
    expect(list(crd, `${schema}.x-kubernetes-validations`).keys).toEqual(['rule']);
    expect(at(crd, `${schema}.default`)).toBe(UNTYPED);
    expect(at(crd, `${schema}.items`)).toBe(UNTYPED);
    expect(at(crd, `${schema}.additionalProperties`)).toBe(UNTYPED);
    expect(list(crd, `${schema}.enum`)).toMatchObject({ relationship: 'atomic', items: UNTYPED });
    expect(at(crd, `${schema}.properties{}.properties{}.x-kubernetes-map-type`)).toBe(SCALAR);
  });
});

describe('key defaults (smd typed/helpers.go getAssociativeKeyDefault)', () => {
  const kind = (k: string) => mergeNodeOfKind(REGISTRY.find((x) => x.kind === k)!);

  it('keys a port without protocol by TCP, the default the 1.30 spec gives the key field', () => {
    // api/v1.json (kubectl-validate builtins/1.30): io.k8s.api.core.v1.ContainerPort properties
    // `containerPort` {default: 0} and `protocol` {default: "TCP"}; ServicePort `port` {default: 0}
    // and `protocol` {default: "TCP"} (core/v1 types.go `+default="TCP"`).
    const ports = { containerPort: 0, protocol: 'TCP' };
    expect(list(kind('Pod'), 'spec.containers[].ports').keyDefaults).toEqual(ports);
    expect(list(kind('Pod'), 'spec.initContainers[].ports').keyDefaults).toEqual(ports);
    expect(list(kind('Pod'), 'spec.ephemeralContainers[].ports').keyDefaults).toEqual(ports);
    expect(list(kind('Deployment'), 'spec.template.spec.containers[].ports').keyDefaults).toEqual(ports);
    expect(list(kind('Service'), 'spec.ports').keyDefaults).toEqual({ port: 0, protocol: 'TCP' });
  });

  it('keeps the zero-value defaults the spec publishes for required string keys', () => {
    // api/v1.json: EnvVar.name, Container.name and PodCondition.type are {default: ""}; meta/v1's
    // OwnerReference.uid too (openapi-gen writes the zero value of a required non-pointer field).
    expect(list(kind('Pod'), 'spec.containers').keyDefaults).toEqual({ name: '' });
    expect(list(kind('Pod'), 'spec.containers[].env').keyDefaults).toEqual({ name: '' });
    expect(list(kind('Pod'), 'status.conditions').keyDefaults).toEqual({ type: '' });
    expect(list(kind('Pod'), 'metadata.ownerReferences').keyDefaults).toEqual({ uid: '' });
    expect(list(kind('Pod'), 'spec.topologySpreadConstraints').keyDefaults).toEqual({
      topologyKey: '',
      whenUnsatisfiable: '',
    });
  });

  it('sets none on sets and atomic lists', () => {
    expect(list(kind('Pod'), 'metadata.finalizers').keyDefaults).toBeUndefined();
    expect(list(kind('Pod'), 'spec.tolerations').keyDefaults).toBeUndefined();
    expect(list(kind('Pod'), 'spec.containers[].args').keyDefaults).toBeUndefined();
  });
});

describe('listRelationship (smd.go getListElementRelationship)', () => {
  it('reads the list type first, then the patch strategy, atomic otherwise', () => {
    expect(listRelationship(undefined)).toEqual({ relationship: 'atomic', keys: [] });
    expect(listRelationship({ listType: 'set', patchStrategy: 'merge' })).toEqual({
      relationship: 'associative',
      keys: [],
    });
    expect(listRelationship({ listType: 'map', listMapKeys: ['a', 'b'] })).toEqual({
      relationship: 'associative',
      keys: ['a', 'b'],
    });
    expect(
      listRelationship({ listType: 'atomic', patchStrategy: 'merge', patchMergeKey: 'name' }).relationship,
    ).toBe('atomic');
    expect(listRelationship({ patchStrategy: 'merge', patchMergeKey: 'name' })).toEqual({
      relationship: 'associative',
      keys: ['name'],
    });
    expect(listRelationship({ patchStrategy: 'merge' })).toEqual({ relationship: 'associative', keys: [] });
    expect(listRelationship({ patchStrategy: 'retainKeys' }).relationship).toBe('atomic');
  });
});
