/**
 * The built-in merge facts table (src/server/ssa/builtin-merge.generated.ts): consistent with the
 * type table (every type and field it names exists in API_TYPES), and the well-known facts of
 * Kubernetes 1.37's published OpenAPI checked one by one.
 *
 * Regenerating: point WATCHMARK_REGEN_SSA at a folder of Kubernetes' OpenAPI v3 documents (a
 * kubernetes checkout's `api/openapi-spec/v3`, or any folder holding them, searched recursively
 * for `*.json`; the committed table's: `$(go env GOMODCACHE)/k8s.io/kubernetes@v1.37.2/api/openapi-spec/v3`
 * after `go mod download k8s.io/kubernetes@v1.37.2`) and run
 *
 *     WATCHMARK_REGEN_SSA=/path/to/api/openapi-spec/v3 npx vitest run test/server/ssa/builtin-merge.test.ts
 *
 * The extraction keeps, for every type in API_TYPES, the extensions structured-merge-diff reads
 * (kube-openapi pkg/schemaconv/openapi.go `ToSchemaFromOpenAPI`, smd.go
 * `getListElementRelationship`, `getMapElementRelationship`) and, on a keyed list, the `default`
 * of each key field of its item type (openapi.go `parseObject` carries a property's `default` into
 * smd's `StructField.Default`, which smd typed/helpers.go `getAssociativeKeyDefault` keys an item
 * that omits the field by), and nothing else.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { wrapDocComment as wrap } from '../../../scripts/doc-comment.js';
import { API_TYPES } from '../../../src/server/openapi/openapi-types.generated.js';
import type { FieldMergeFacts, TypeMergeFacts } from '../../../src/server/ssa/builtin-merge.generated.js';
import { BUILTIN_MERGE } from '../../../src/server/ssa/builtin-merge.generated.js';
import { listRelationship } from '../../../src/server/ssa/builtin-schema.js';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const GENERATED = 'src/server/ssa/builtin-merge.generated.ts';
/** Where the committed table's facts came from (written into its header). */
const SOURCE =
  'the OpenAPI v3 documents Kubernetes v1.37.2 publishes (api/openapi-spec/v3/*.json of the Go module ' +
  'k8s.io/kubernetes@v1.37.2, h1:A2VDEiObzkYqFTKhSsn0ZEb0RlLEXpHWj93gi2HqEwE=, the source of API_TYPES too); ' +
  'Apache-2.0';

const NAME = (n: string) => `io.k8s.api.core.v1.${n}`;
const META = (n: string) => `io.k8s.apimachinery.pkg.apis.meta.v1.${n}`;

function fieldFacts(type: string, field: string): FieldMergeFacts | undefined {
  return BUILTIN_MERGE[type]?.fields?.[field];
}

describe('builtin-merge.generated.ts', () => {
  it('names only types and fields API_TYPES has', () => {
    for (const [name, facts] of Object.entries(BUILTIN_MERGE)) {
      const t = API_TYPES[name];
      expect(t, name).toBeDefined();
      for (const [field, f] of Object.entries(facts.fields ?? {})) {
        expect(t && 'fields' in t && field in t.fields, `${name}.${field}`).toBe(true);
        const ft = t && 'fields' in t ? t.fields[field]! : '';
        // List facts sit on list fields only, map facts on maps or structs.
        if (f.listType || f.listMapKeys || f.patchStrategy || f.keyDefaults)
          expect(ft.startsWith('[]'), `${name}.${field}`).toBe(true);
        if (f.mapType) expect(ft.startsWith('[]'), `${name}.${field}`).toBe(false);
        if (f.listType === 'map') expect(f.listMapKeys?.length, `${name}.${field}`).toBeGreaterThan(0);
        // Key defaults name key fields of the list only.
        const keys = listRelationship(f).keys;
        for (const k of Object.keys(f.keyDefaults ?? {})) expect(keys, `${name}.${field}`).toContain(k);
      }
    }
  });

  it('records the list types of well-known fields as the 1.37 spec publishes them', () => {
    expect(fieldFacts(NAME('PodSpec'), 'containers')).toMatchObject({
      listType: 'map',
      listMapKeys: ['name'],
    });
    expect(fieldFacts(NAME('PodSpec'), 'volumes')).toMatchObject({
      patchStrategy: 'merge,retainKeys',
      patchMergeKey: 'name',
    });
    expect(fieldFacts(NAME('PodSpec'), 'tolerations')).toEqual({ listType: 'atomic' });
    expect(fieldFacts(NAME('Container'), 'ports')).toMatchObject({
      listType: 'map',
      listMapKeys: ['containerPort', 'protocol'],
    });
    expect(fieldFacts(NAME('Container'), 'env')).toMatchObject({
      patchStrategy: 'merge',
      patchMergeKey: 'name',
    });
    expect(fieldFacts(META('ObjectMeta'), 'finalizers')).toMatchObject({
      listType: 'set',
      patchStrategy: 'merge',
    });
    expect(fieldFacts(META('ObjectMeta'), 'ownerReferences')).toMatchObject({
      listType: 'map',
      listMapKeys: ['uid'],
    });
    expect(fieldFacts(META('ObjectMeta'), 'managedFields')).toEqual({ listType: 'atomic' });
    expect(fieldFacts(META('ObjectMeta'), 'labels')).toEqual(undefined);
    expect(fieldFacts(NAME('ServiceSpec'), 'ports')).toMatchObject({
      listType: 'map',
      listMapKeys: ['port', 'protocol'],
    });
    expect(fieldFacts(NAME('PodSpec'), 'nodeSelector')).toEqual({ mapType: 'atomic' });
    expect(fieldFacts(NAME('ServiceSpec'), 'selector')).toEqual({ mapType: 'atomic' });
  });

  it('records the defaults of key fields as the 1.37 spec publishes them, on keyed lists only', () => {
    // api/v1.json: ContainerPort.protocol and ServicePort.protocol {default: "TCP"}, the ports
    // {default: 0}; the only key defaults that are not a required field's zero value.
    expect(fieldFacts(NAME('Container'), 'ports')?.keyDefaults).toEqual({
      containerPort: 0,
      protocol: 'TCP',
    });
    expect(fieldFacts(NAME('EphemeralContainer'), 'ports')?.keyDefaults).toEqual({
      containerPort: 0,
      protocol: 'TCP',
    });
    expect(fieldFacts(NAME('ServiceSpec'), 'ports')?.keyDefaults).toEqual({ port: 0, protocol: 'TCP' });
    expect(fieldFacts(NAME('PodSpec'), 'volumes')?.keyDefaults).toEqual({ name: '' });
    expect(fieldFacts(META('ObjectMeta'), 'ownerReferences')?.keyDefaults).toEqual({ uid: '' });
    expect(fieldFacts(META('ObjectMeta'), 'finalizers')?.keyDefaults).toBeUndefined();
    const nonZero = Object.values(BUILTIN_MERGE)
      .flatMap((t) => Object.values(t.fields ?? {}))
      .flatMap((f) => Object.values(f.keyDefaults ?? {}))
      .filter((d) => d !== '' && d !== 0);
    expect(nonZero).toEqual(['TCP', 'TCP', 'TCP']);
  });

  it('records the atomic structs (+structType=atomic) and no map type on granular ones', () => {
    const atomic = Object.entries(BUILTIN_MERGE)
      .filter(([, f]) => f.mapType === 'atomic')
      .map(([n]) => n);
    expect(atomic).toEqual(
      expect.arrayContaining([
        NAME('LocalObjectReference'),
        NAME('ObjectReference'),
        NAME('NodeSelector'),
        NAME('NodeSelectorTerm'),
        META('LabelSelector'),
        META('OwnerReference'),
      ]),
    );
    expect(BUILTIN_MERGE[NAME('PodSpec')]?.mapType).toBeUndefined();
    // LabelSelector is atomic as a whole, so matchLabels has no facts of its own.
    expect(fieldFacts(META('LabelSelector'), 'matchLabels')).toBeUndefined();
  });

  it('marks the types the spec gives no type (smd converts them as untyped)', () => {
    expect(BUILTIN_MERGE['io.k8s.apimachinery.pkg.util.intstr.IntOrString']?.untyped).toBe(true);
    expect(BUILTIN_MERGE['io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON']?.untyped).toBe(
      true,
    );
    expect(BUILTIN_MERGE[META('Time')]).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------
// Regeneration, only with WATCHMARK_REGEN_SSA set.

interface SpecSchema {
  type?: string;
  default?: unknown;
  $ref?: string;
  allOf?: SpecSchema[];
  properties?: Record<string, SpecSchema>;
  additionalProperties?: SpecSchema | boolean;
  items?: SpecSchema;
  [ext: `x-kubernetes-${string}`]: unknown;
}

function readSpecs(dir: string): Record<string, SpecSchema> {
  const schemas: Record<string, SpecSchema> = {};
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) Object.assign(schemas, readSpecs(path));
    else if (path.endsWith('.json'))
      Object.assign(schemas, JSON.parse(readFileSync(path, 'utf8')).components?.schemas ?? {});
  }
  return schemas;
}

/** The facts smd reads off one property: list facts on arrays, the map type on anything else. */
function propertyFacts(p: SpecSchema): FieldMergeFacts | undefined {
  const f: { -readonly [K in keyof FieldMergeFacts]: FieldMergeFacts[K] } = {};
  if (p.type === 'array') {
    if (typeof p['x-kubernetes-list-type'] === 'string') f.listType = p['x-kubernetes-list-type'];
    if (Array.isArray(p['x-kubernetes-list-map-keys'])) f.listMapKeys = p['x-kubernetes-list-map-keys'];
    if (typeof p['x-kubernetes-patch-strategy'] === 'string')
      f.patchStrategy = p['x-kubernetes-patch-strategy'];
    if (typeof p['x-kubernetes-patch-merge-key'] === 'string')
      f.patchMergeKey = p['x-kubernetes-patch-merge-key'];
  } else if (typeof p['x-kubernetes-map-type'] === 'string') f.mapType = p['x-kubernetes-map-type'];
  // Extensions nested under items or additionalProperties would need a deeper table.
  for (const inner of [
    p.items,
    typeof p.additionalProperties === 'object' ? p.additionalProperties : undefined,
  ]) {
    if (inner && Object.keys(inner).some((k) => k.startsWith('x-kubernetes-')))
      throw new Error(`nested extension: ${JSON.stringify(inner)}`);
  }
  return Object.keys(f).length ? f : undefined;
}

/**
 * A keyed list's facts with the `default` of each key field of its item type that has one
 * (openapi.go `parseObject`: `StructField.Default` is the property's `default`; a JSON null is
 * Go's nil, no default). The item type is API_TYPES' (`[]<name>`), the spec's own `items` ref.
 */
function withKeyDefaults(
  schemas: Record<string, SpecSchema>,
  fieldType: string,
  f: FieldMergeFacts | undefined,
): FieldMergeFacts | undefined {
  if (!f || !fieldType.startsWith('[]')) return f;
  const keys = listRelationship(f).keys;
  if (keys.length === 0) return f;
  const item = schemas[fieldType.slice(2)];
  if (!item) throw new Error(`keyed list of ${fieldType}: item type not in the spec`);
  const keyDefaults: Record<string, unknown> = {};
  for (const k of keys) {
    const d = item.properties?.[k]?.default;
    if (d !== undefined && d !== null) keyDefaults[k] = d;
  }
  return Object.keys(keyDefaults).length ? { ...f, keyDefaults } : f;
}

/** The spec's shape agrees with API_TYPES' (`[]` an array, `{}` a map), so the table can lean on it. */
function checkShape(where: string, p: SpecSchema, ft: string): void {
  if (ft.startsWith('[]')) expect(p.type, where).toBe('array');
  else if (ft.startsWith('{}')) expect(typeof p.additionalProperties, where).toBe('object');
}

function extract(schemas: Record<string, SpecSchema>): Record<string, TypeMergeFacts> {
  const out: Record<string, TypeMergeFacts> = {};
  for (const name of Object.keys(API_TYPES).sort()) {
    const s = schemas[name];
    if (!s) throw new Error(`${name} is not in the spec`);
    const t = API_TYPES[name]!;
    const facts: { untyped?: true; mapType?: string; fields?: Record<string, FieldMergeFacts> } = {};
    const fields: Record<string, FieldMergeFacts> = {};
    if (!s.type && !s.$ref) facts.untyped = true;
    if (typeof s['x-kubernetes-map-type'] === 'string') facts.mapType = s['x-kubernetes-map-type'];
    if ('fields' in t) {
      // Every property the spec has is a field API_TYPES has (else it would merge as unknown).
      for (const p of Object.keys(s.properties ?? {})) expect(t.fields, `${name}.${p}`).toHaveProperty([p]);
      for (const field of Object.keys(t.fields).sort()) {
        const p = s.properties?.[field];
        if (!p) throw new Error(`${name}.${field} is not in the spec`);
        checkShape(`${name}.${field}`, p, t.fields[field]!);
        const f = withKeyDefaults(schemas, t.fields[field]!, propertyFacts(p));
        if (f) fields[field] = f;
      }
    }
    if (Object.keys(fields).length) facts.fields = fields;
    if (Object.keys(facts).length) out[name] = facts;
  }
  return out;
}

function render(table: Record<string, TypeMergeFacts>): string {
  const date = new Date().toISOString().slice(0, 10);
  return `/**
 * What structured-merge-diff reads off the built-in types' OpenAPI: per type (by OpenAPI name, every
 * type of API_TYPES that has any), the type's own \`x-kubernetes-map-type\` (+structType/+mapType),
 * whether the spec gives it no \`type\` at all (\`untyped\`), and per field the
 * \`x-kubernetes-list-type\`, \`x-kubernetes-list-map-keys\`, \`x-kubernetes-patch-strategy\` and
 * \`x-kubernetes-patch-merge-key\` of a list (with, on a keyed list, the \`default\` its item type's
 * key fields have), or the \`x-kubernetes-map-type\` of anything else. Facts only.
 *
 * ${wrap(`GENERATED, do not edit: from ${SOURCE}. Generated ${date} by test/server/ssa/builtin-merge.test.ts (WATCHMARK_REGEN_SSA=<folder of the v3 documents>).`)}
 */

/** The merge facts of one field, each the extension's value as the spec has it. */
export interface FieldMergeFacts {
  readonly listType?: string;
  readonly listMapKeys?: readonly string[];
  readonly patchStrategy?: string;
  readonly patchMergeKey?: string;
  readonly mapType?: string;
  /**
   * On a keyed list: the \`default\` of each key field of the item type that has one (smd keys an
   * item omitting the field by it).
   */
  readonly keyDefaults?: Readonly<Record<string, unknown>>;
}

/** The merge facts of one type. */
export interface TypeMergeFacts {
  /** The spec's schema has no \`type\` (IntOrString, apiextensions JSON and its unions). */
  readonly untyped?: true;
  readonly mapType?: string;
  readonly fields?: Readonly<Record<string, FieldMergeFacts>>;
}

/** Every type with a fact, by its OpenAPI name. */
export const BUILTIN_MERGE: Readonly<Record<string, TypeMergeFacts>> = ${JSON.stringify(table, null, 2)};
`;
}

describe.runIf(process.env.WATCHMARK_REGEN_SSA)('regeneration', () => {
  it('writes the table from the spec', () => {
    const table = extract(readSpecs(process.env.WATCHMARK_REGEN_SSA!));
    writeFileSync(join(REPO, GENERATED), render(table));
    execFileSync('npx', ['biome', 'format', '--write', GENERATED], { cwd: REPO });
  });
});
