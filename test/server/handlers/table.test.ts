import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/protocol/events.js';
import { StatusError } from '../../../src/protocol/status.js';
import {
  columnDescription,
  parseIncludeObject,
  toTable,
  wantsTable,
  watchEventTable,
} from '../../../src/server/handlers/table.js';
import { builtinResource } from '../../../src/server/kinds/builtin-table.js';
import { REGISTRY } from '../../../src/server/kinds/served/registry.js';
import { deployments, NOW, namespaces, pods } from '../fixtures/kinds.js';

/** The Accept of `kubectl get` (default, -o wide, -w ...), kubectl-needs §6. */
const KUBECTL_GET_ACCEPT =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

const pod = (name: string, phase: string, ip?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'demo',
    resourceVersion: '7',
    creationTimestamp: '2025-01-01T00:00:00Z',
    labels: { app: 'web' },
  },
  spec: {},
  status: { phase, ...(ip ? { podIP: ip } : {}) },
});

describe('wantsTable', () => {
  it('reads kubectl get’s Accept as Table v1', () => {
    expect(wantsTable(KUBECTL_GET_ACCEPT)).toBe('v1');
  });

  it('falls back to v1beta1 when that is the first Table offered', () => {
    expect(wantsTable('application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json')).toBe('v1beta1');
    expect(
      wantsTable(
        'application/json;as=Table;v=v2;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io',
      ),
    ).toBe('v1beta1');
  });

  it('is undefined for -o json/yaml/name and other plain Accepts', () => {
    expect(wantsTable('application/json')).toBeUndefined();
    expect(wantsTable('application/json, */*')).toBeUndefined();
    expect(wantsTable(undefined)).toBeUndefined();
    expect(wantsTable(`application/json,${KUBECTL_GET_ACCEPT}`)).toBeUndefined();
  });

  it('skips Table ranges it cannot encode and honours q', () => {
    expect(
      wantsTable(`application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,${KUBECTL_GET_ACCEPT}`),
    ).toBe('v1');
    expect(wantsTable('application/json;q=0.9,application/json;as=Table;v=v1;g=meta.k8s.io')).toBe('v1');
  });
});

describe('toTable', () => {
  const objects = [pod('web-1', 'Running', '10.0.0.1'), pod('web-2', 'Pending')];

  it('builds a meta.k8s.io/v1 Table with Name first, then the kind’s columns', () => {
    const table = toTable(pods, objects, {
      now: NOW,
      listMeta: { resourceVersion: '42', continue: 'next', remainingItemCount: 3 },
    });
    expect(table.kind).toBe('Table');
    expect(table.apiVersion).toBe('meta.k8s.io/v1');
    expect(table.metadata).toEqual({ resourceVersion: '42', continue: 'next', remainingItemCount: 3 });
    expect(table.columnDefinitions[0]).toEqual({
      name: 'Name',
      type: 'string',
      format: 'name',
      description: expect.stringContaining('Name must be unique within a namespace'),
      priority: 0,
    });
    expect(table.columnDefinitions.slice(1)).toEqual([
      { name: 'Status', type: 'string', format: '', description: '', priority: 0 },
      { name: 'Age', type: 'string', format: '', description: '', priority: 0 },
      { name: 'IP', type: 'string', format: '', description: 'Pod IP', priority: 1 },
    ]);
    expect(table.rows.map((r) => r.cells)).toEqual([
      ['web-1', 'Running', '10m', '10.0.0.1'],
      ['web-2', 'Pending', '10m', '<none>'],
    ]);
  });

  it('puts PartialObjectMetadata with kind, apiVersion and metadata in each row by default', () => {
    const table = toTable(pods, objects, { now: NOW, listMeta: { resourceVersion: '42' } });
    expect(table.rows[0]!.object).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: objects[0]!.metadata,
    });
    expect(table.metadata).toEqual({ resourceVersion: '42' });
  });

  it('supports includeObject=Object (kind/apiVersion filled in) and None', () => {
    const bare: KubeObject = {
      metadata: { name: 'web', resourceVersion: '9' },
      spec: { replicas: 2 },
      status: {},
    };
    const full = toTable(deployments, [bare], { now: NOW, includeObject: 'Object' });
    expect(full.rows[0]!.object).toEqual({ ...bare, kind: 'Deployment', apiVersion: 'apps/v1' });
    expect(full.rows[0]!.cells).toEqual(['web', '0/2', 0, '<unknown>']);
    const none = toTable(deployments, [bare], { now: NOW, includeObject: 'None' });
    // meta/v1 TableRow's empty RawExtension is written as null.
    expect(none.rows[0]!.object).toBeNull();
  });

  it('gives a single-object Table that object’s resourceVersion', () => {
    expect(toTable(pods, [objects[0]!], { now: NOW }).metadata).toEqual({ resourceVersion: '7' });
    expect(toTable(pods, objects, { now: NOW }).metadata).toEqual({});
  });

  it('serves v1beta1 with matching apiVersions', () => {
    const table = toTable(namespaces, [{ metadata: { name: 'demo' }, status: { phase: 'Active' } }], {
      now: NOW,
      version: 'v1beta1',
    });
    expect(table.apiVersion).toBe('meta.k8s.io/v1beta1');
    expect(table.rows[0]!.object!.apiVersion).toBe('meta.k8s.io/v1beta1');
    expect(table.rows[0]!.cells).toEqual(['demo', 'Active', '<unknown>']);
    expect(table.columnDefinitions[1]).toEqual({
      name: 'Status',
      type: 'string',
      format: '',
      description: 'The status of the namespace',
      priority: 0,
    });
  });

  it('can leave out columnDefinitions and round-trips through JSON', () => {
    const table = toTable(pods, objects, { now: NOW, includeColumnDefinitions: false });
    expect(table.columnDefinitions).toEqual([]);
    expect(JSON.parse(JSON.stringify(table))).toEqual(table);
  });
});

describe('column descriptions', () => {
  it('describes every built-in column, as printers.go does: its own text or the field doc it names', () => {
    for (const k of REGISTRY) {
      const ref = builtinResource(k.group, k.version, k.plural)?.columns ?? [];
      for (const c of k.columns) {
        // As the reference describes it (printers.go leaves a few empty: RuntimeClass Handler).
        const expected = ref.find((r) => r.name === c.name)?.description;
        if (expected !== undefined) expect(columnDescription(c), `${k.kind} ${c.name}`).toBe(expected);
        else expect(columnDescription(c), `${k.kind} ${c.name}`).not.toBe('');
      }
    }
  });

  it('takes a field doc from the served release (printers.go `SwaggerDoc()`), not a copy', () => {
    const age = REGISTRY.find((k) => k.kind === 'Pod')!.columns.find((c) => c.name === 'Age')!;
    expect(age.fieldDoc).toEqual({
      type: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      field: 'creationTimestamp',
    });
    expect(columnDescription(age)).toMatch(
      /^CreationTimestamp is a timestamp .* Null for lists\. More info: /s,
    );
  });
});

describe('watchEventTable', () => {
  it('is a one-row Table; only the first event carries columnDefinitions', () => {
    const first = watchEventTable(pods, pod('web-1', 'Running'), { now: NOW, first: true });
    const later = watchEventTable(pods, pod('web-1', 'Succeeded'), { now: NOW, first: false });
    expect(first.rows).toHaveLength(1);
    expect(first.columnDefinitions).toHaveLength(4);
    expect(later.columnDefinitions).toEqual([]);
    expect(later.rows[0]!.cells[1]).toBe('Succeeded');
    expect(later.metadata).toEqual({ resourceVersion: '7' });
  });
});

describe('parseIncludeObject', () => {
  it('defaults to Metadata and rejects unknown values with 400', () => {
    expect(parseIncludeObject(undefined)).toBe('Metadata');
    expect(parseIncludeObject(null)).toBe('Metadata');
    expect(parseIncludeObject('')).toBe('Metadata');
    expect(parseIncludeObject('None')).toBe('None');
    expect(parseIncludeObject('Object')).toBe('Object');
    expect(() => parseIncludeObject('Everything')).toThrowError(StatusError);
    try {
      parseIncludeObject('Everything');
    } catch (err) {
      expect((err as StatusError).code).toBe(400);
    }
  });
});
