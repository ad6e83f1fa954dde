/**
 * One generated case per field type for every kind the server serves: the type table is walked
 * from each kind's root, and for each class of field it reaches (string, int32, int64, boolean,
 * []byte, map, list, int-or-string, Quantity, Time, MicroTime, nested struct) the first field of
 * that class at a real path gets a wrong-typed value, which must be refused with kube-apiserver's
 * message, and a right-typed one, which the type check must let through.
 *
 * The expected messages are spelled out here from Go's rules (encoding/json
 * `UnmarshalTypeError.Error`, the types' own UnmarshalJSON errors) and the upstream Go field facts
 * (go-fields.generated.ts: named types, embedded structs), not taken from the engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { REGISTRY } from '../../../src/server/kinds/served/registry.js';
import { apiVersionOf, type ResourceKind } from '../../../src/server/kinds/types.js';
import { schemaNameOf } from '../../../src/server/openapi/openapi-schemas.js';
import { API_TYPES } from '../../../src/server/openapi/openapi-types.generated.js';
import { GO_EMBEDDED_IN, GO_FIELD_TYPES } from '../../../src/server/schema/go-fields.generated.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.Time';
const MICRO_TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime';
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
const NS = 'field-types';

type FieldClass =
  | 'string'
  | 'boolean'
  | 'int32'
  | 'int64'
  | 'bytes'
  | 'map'
  | 'list'
  | 'int-or-string'
  | 'quantity'
  | 'time'
  | 'micro-time'
  | 'object';

/**
 * One step of a path: a struct field (with the Go struct it belongs to, by its OpenAPI name), a
 * list's first item, a map key.
 */
type Step = { field: string; owner: string } | { index: 0 } | { key: 'k' };

interface Case {
  kind: ResourceKind;
  cls: FieldClass;
  path: Step[];
  /** The field's type in the table. */
  type: string;
}

/** The Go name of a table type: `io.k8s.api.core.v1.PodSpec` → `v1.PodSpec`. */
function goNamed(name: string): string {
  const special: Record<string, string> = {
    [QUANTITY]: 'resource.Quantity',
    [TIME]: 'v1.Time',
    [MICRO_TIME]: 'v1.MicroTime',
    [INT_OR_STRING]: 'intstr.IntOrString',
  };
  const parts = name.split('.');
  return special[name] ?? `${parts.at(-2)}.${parts.at(-1)}`;
}

/** reflect.Type.String() of a table field type. */
function goType(type: string): string {
  if (type.startsWith('[]')) return `[]${goType(type.slice(2))}`;
  if (type.startsWith('{}')) return `map[string]${goType(type.slice(2))}`;
  const primitives: Record<string, string> = {
    string: 'string',
    boolean: 'bool',
    int32: 'int32',
    int64: 'int64',
    number: 'float64',
    bytes: '[]uint8',
  };
  return primitives[type] ?? goNamed(type);
}

function classOf(type: string): FieldClass | undefined {
  if (type.startsWith('[]')) return 'list';
  if (type.startsWith('{}')) return 'map';
  if (type === 'string' || type === 'boolean' || type === 'int32' || type === 'int64' || type === 'bytes')
    return type;
  if (type === QUANTITY) return 'quantity';
  if (type === TIME) return 'time';
  if (type === MICRO_TIME) return 'micro-time';
  if (type === INT_OR_STRING) return 'int-or-string';
  const t = API_TYPES[type];
  return t && 'fields' in t ? 'object' : undefined;
}

/** Fields whose right-typed value the server refuses for reasons of its own (identity, not type). */
const IDENTITY = new Set(['apiVersion', 'kind', 'metadata.name', 'metadata.namespace']);

/** The first field of each class reachable from `kind`'s root, breadth first. */
function casesOf(kind: ResourceKind): Case[] {
  const found = new Map<FieldClass, Case>();
  const queue: { type: string; path: Step[] }[] = [{ type: schemaNameOf(kind), path: [] }];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const { type, path } = queue.shift()!;
    const t = API_TYPES[type];
    if (!t || !('fields' in t) || seen.has(type)) continue;
    seen.add(type);
    for (const [field, fieldType] of Object.entries(t.fields)) {
      const here: Step[] = [...path, { field, owner: type }];
      const dotted = here.flatMap((s) => ('field' in s ? [s.field] : [])).join('.');
      const cls = classOf(fieldType);
      if (cls && !found.has(cls) && !IDENTITY.has(dotted))
        found.set(cls, { kind, cls, path: here, type: fieldType });
      // Into lists and maps (their first item, key `k`): a scalar class met only as an element
      // (ConfigMap.binaryData's []byte values) is a case there; structs are walked on.
      let inner = fieldType;
      const steps: Step[] = [...here];
      while (inner.startsWith('[]') || inner.startsWith('{}')) {
        steps.push(inner.startsWith('[]') ? { index: 0 } : { key: 'k' });
        inner = inner.slice(2);
      }
      const innerClass = classOf(inner);
      if (innerClass === 'object') queue.push({ type: inner, path: steps });
      else if (innerClass && inner !== fieldType && !found.has(innerClass)) {
        found.set(innerClass, { kind, cls: innerClass, path: steps, type: inner });
      }
    }
  }
  return [...found.values()];
}

/** The wrong value of each class and what kube-apiserver says about it (`at`: Struct.field path). */
function wrong(c: Case): { value: unknown; error: string } {
  const last = [...c.path].reverse().find((s): s is { field: string; owner: string } => 'field' in s)!;
  const owner = last.owner.split('.').at(-1);
  // Go 1.24's field path names the embedded structs a field is promoted from (`ProbeHandler`).
  const fields = c.path
    .flatMap((s) => {
      if (!('field' in s)) return [];
      const through = GO_EMBEDDED_IN[s.owner]?.[s.field];
      return through ? [`${through}.${s.field}`] : [s.field];
    })
    .join('.');
  // Go's named types (`v1.PullPolicy`) where the field has one; the element's for a list item.
  // reflect names a type by its package's name (`v1.ObjectMeta`), never by an import alias
  // (kube-aggregator's `metav1.ObjectMeta`, which the field table keeps as written).
  const named = ('field' in c.path.at(-1)! ? GO_FIELD_TYPES[last.owner]?.[last.field] : undefined)?.replace(
    /\bmetav1\./g,
    'v1.',
  );
  const typeError = (json: string, type = named ?? goType(c.type)) =>
    `json: cannot unmarshal ${json} into Go struct field ${owner}.${fields} of type ${type}`;
  switch (c.cls) {
    case 'string':
      return { value: 12, error: typeError('number') };
    case 'boolean':
      return { value: 'yes', error: typeError('string') };
    case 'int32':
      return { value: 2 ** 31, error: typeError('number 2147483648') };
    case 'int64':
      return { value: 1.5, error: typeError('number 1.5') };
    case 'bytes':
      return { value: 'a!', error: 'illegal base64 data at input byte 1' };
    case 'list':
      return { value: 'x', error: typeError('string') };
    case 'map':
      return { value: ['a'], error: typeError('array') };
    case 'object':
      return { value: [], error: typeError('array') };
    case 'int-or-string':
      // UnmarshalJSON decodes into the int32 with a json.Unmarshal of its own, whose type error the
      // outer decoder gives the struct field.
      return { value: true, error: typeError('bool', 'int32') };
    case 'quantity':
      return {
        value: '1 core',
        error: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      };
    case 'time':
      // UnmarshalJSON decodes into a string first: a number fails there, with the struct field.
      return { value: 12, error: typeError('number', 'string') };
    case 'micro-time':
      return {
        value: '2024-01-01T00:00:00Z',
        error:
          'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
      };
  }
}

const RIGHT: Record<FieldClass, unknown> = {
  string: 'x',
  boolean: true,
  int32: 1,
  int64: 1,
  bytes: 'YQ==',
  list: [],
  map: {},
  object: {},
  'int-or-string': 'x',
  quantity: '1',
  time: '2024-01-01T00:00:00Z',
  'micro-time': '2024-01-01T00:00:00.000000Z',
};

/** A body of `kind` named `name` with `value` at the case's path (containers made on the way). */
function bodyWith(c: Case, name: string, value: unknown): Record<string, unknown> {
  const root: Record<string, unknown> = {
    apiVersion: apiVersionOf(c.kind),
    kind: c.kind.kind,
    metadata: { name },
  };
  let at: unknown = root;
  c.path.forEach((step, i) => {
    const last = i === c.path.length - 1;
    const next = c.path[i + 1];
    const container = () => (next && 'index' in next ? [] : {});
    const key = 'field' in step ? step.field : 'index' in step ? 0 : 'k';
    const holder = at as Record<string | number, unknown>;
    if (last) holder[key] = value;
    else {
      holder[key] ??= container();
      at = holder[key];
    }
  });
  return root;
}

function urlOf(kind: ResourceKind): string {
  const base = kind.group ? `/apis/${kind.group}/${kind.version}` : `/api/${kind.version}`;
  return `${base}${kind.namespaced ? `/namespaces/${NS}` : ''}/${kind.plural}?dryRun=All`;
}

// The resources answered and never stored (reviews, bindings, component statuses) decode as any
// kind does, but have no create that takes an object of their type as it is.
const STORED = REGISTRY.filter((k) => !k.virtual);
const CASES = STORED.flatMap(casesOf);
const name = (c: Case) =>
  `${c.kind.kind} ${c.cls} at ${c.path.map((s) => ('field' in s ? `.${s.field}` : 'index' in s ? '[0]' : '.k')).join('')}`;

describe('every field type of every served kind', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startTestServer();
    await ensureNamespace(s, NS);
  });
  afterAll(() => s.close());

  it('covers each class in some kind, and the common ones in every kind', () => {
    const classes = new Set(CASES.map((c) => c.cls));
    for (const cls of Object.keys(RIGHT)) expect(classes, cls).toContain(cls);
    for (const kind of STORED) {
      const mine = new Set(CASES.filter((c) => c.kind === kind).map((c) => c.cls));
      for (const cls of ['string', 'int64', 'map', 'list', 'time', 'object'] as const)
        expect(mine, `${kind.kind} ${cls}`).toContain(cls);
    }
  });

  it.each(CASES.map((c) => [name(c), c] as const))(
    '%s: wrong type refused, right type taken',
    async (_, c) => {
      const bad = wrong(c);
      const refused = await call(s, 'POST', urlOf(c.kind), { body: bodyWith(c, 'bad', bad.value) });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.message).toBe(
        `${c.kind.kind} in version "${c.kind.version}" cannot be handled as a ${c.kind.kind}: ${bad.error}`,
      );
      const taken = await call(s, 'POST', urlOf(c.kind), { body: bodyWith(c, 'good', RIGHT[c.cls]) });
      // The type check lets it through; the kind's own validation may still have a word (422).
      expect([201, 422], taken.text).toContain(taken.status);
      expect(taken.text).not.toContain('cannot be handled as');
    },
  );
});
