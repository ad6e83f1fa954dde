/**
 * Every verb on every sample kind: create (and dry run, generateName,
 * duplicates), get, list (plain, Table, metadata-only), update (and stale
 * resourceVersions), the three patch types, server-side apply (create,
 * conflict, force), delete (dry run, preconditions, missing),
 * delete-collection, and each status and scale subresource.
 */

import type { FidelityCase, Step } from '../types.js';
import { type KindSample, SAMPLES, sampleName } from './samples.js';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const METADATA = 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io';
const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io';

/** Sets `path` in a copy of `object`. */
export function withValue(object: unknown, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(object) as Record<string, unknown>;
  let cur: Record<string, unknown> = copy;
  for (const [i, key] of path.entries()) {
    if (i === path.length - 1) {
      if (value === undefined) delete cur[key];
      else cur[key] = value;
    } else {
      if (cur[key] === undefined || cur[key] === null || typeof cur[key] !== 'object')
        cur[key] = /^\d+$/.test(path[i + 1]) ? [] : {};
      cur = cur[key] as Record<string, unknown>;
    }
  }
  return copy;
}

/** The steps a case starts with: the sample created (not compared). */
export function created(sample: KindSample, name: string): Step {
  return { request: { method: 'POST', path: sample.collection, body: sample.object(name) }, compare: false };
}

/**
 * The area a verb's case reports under: plain CRUD, dry runs, the three patch types, server-side
 * apply, the status and scale subresources, or the answer's other forms (Table,
 * PartialObjectMetadata, YAML).
 */
function verbArea(verb: string): string {
  if (verb.includes('dry-run')) return 'dry-run';
  if (verb.startsWith('patch-')) return 'patch';
  if (verb.startsWith('apply-')) return 'apply';
  if (/^(status|scale|unknown-subresource)/.test(verb)) return 'subresources';
  if (/(table|metadata|yaml)/.test(verb)) return 'output';
  return 'crud';
}

export function verbCases(): FidelityCase[] {
  const out: FidelityCase[] = [];
  for (const s of SAMPLES) {
    const name = sampleName(s, 'obj');
    const item = `${s.collection}/${name}`;
    const add = (verb: string, steps: Step[]) => {
      const area = verbArea(verb);
      out.push({ id: `${area}/${s.label ?? s.kind}/${verb}`, area, steps });
    };
    const body = s.object(name);
    const changed = withValue(body, s.change.path, s.change.value);
    add('create', [{ request: { method: 'POST', path: s.collection, body } }, { request: { path: item } }]);
    add('create-dry-run', [
      { request: { method: 'POST', path: s.collection, query: { dryRun: 'All' }, body } },
      { request: { path: item } },
    ]);
    add('create-bad-dry-run', [
      { request: { method: 'POST', path: s.collection, query: { dryRun: 'Some' }, body } },
    ]);
    add('create-twice', [created(s, name), { request: { method: 'POST', path: s.collection, body } }]);
    add('create-generate-name', [
      {
        request: {
          method: 'POST',
          path: s.collection,
          body: withValue(
            withValue(body, ['metadata', 'name'], undefined),
            ['metadata', 'generateName'],
            `${name}-`,
          ),
        },
      },
    ]);
    add('create-no-name', [
      {
        request: {
          method: 'POST',
          path: s.collection,
          body: withValue(body, ['metadata', 'name'], undefined),
        },
      },
    ]);
    add('create-bad-name', [
      {
        request: {
          method: 'POST',
          path: s.collection,
          body: withValue(body, ['metadata', 'name'], 'Bad_Name'),
        },
      },
    ]);
    add('create-on-item-path', [{ request: { method: 'POST', path: item, body } }]);
    add('get', [created(s, name), { request: { path: item } }]);
    add('get-missing', [{ request: { path: `${s.collection}/${sampleName(s, 'missing')}` } }]);
    add('get-metadata', [created(s, name), { request: { path: item, headers: { accept: METADATA } } }]);
    add('get-table', [created(s, name), { request: { path: item, headers: { accept: TABLE } } }]);
    add('get-yaml', [created(s, name), { request: { path: item, headers: { accept: 'application/yaml' } } }]);
    const list = s.collection;
    // A cluster-scoped list is narrowed to the case's object: other cases' objects share the collection.
    const listQuery: Record<string, string> = s.namespaced ? {} : { fieldSelector: `metadata.name=${name}` };
    add('list', [created(s, name), { request: { path: list, query: listQuery } }]);
    add('list-table', [
      created(s, name),
      { request: { path: list, query: listQuery, headers: { accept: TABLE } } },
    ]);
    add('list-table-no-headers', [
      created(s, name),
      { request: { path: list, query: { ...listQuery, includeObject: 'None' }, headers: { accept: TABLE } } },
    ]);
    add('list-metadata', [
      created(s, name),
      { request: { path: list, query: listQuery, headers: { accept: METADATA_LIST } } },
    ]);
    add('update', [
      { ...created(s, name), save: { rv: 'metadata.resourceVersion' } },
      {
        request: {
          method: 'PUT',
          path: item,
          body: withValue(changed, ['metadata', 'resourceVersion'], '$rv'),
        },
      },
    ]);
    add('update-no-rv', [created(s, name), { request: { method: 'PUT', path: item, body: changed } }]);
    add('update-stale-rv', [
      { ...created(s, name), save: { rv: 'metadata.resourceVersion' } },
      {
        request: {
          method: 'PUT',
          path: item,
          body: withValue(changed, ['metadata', 'resourceVersion'], '$rv'),
        },
      },
      {
        request: { method: 'PUT', path: item, body: withValue(body, ['metadata', 'resourceVersion'], '$rv') },
      },
    ]);
    add('update-missing', [{ request: { method: 'PUT', path: item, body } }]);
    add('update-name-mismatch', [
      created(s, name),
      {
        request: {
          method: 'PUT',
          path: item,
          body: withValue(body, ['metadata', 'name'], sampleName(s, 'other')),
        },
      },
    ]);
    const labelPatch = { metadata: { labels: { patched: 'yes' } } };
    add('patch-merge', [
      created(s, name),
      {
        request: {
          method: 'PATCH',
          path: item,
          headers: { 'content-type': 'application/merge-patch+json' },
          body: labelPatch,
        },
      },
    ]);
    add('patch-strategic', [
      created(s, name),
      {
        request: {
          method: 'PATCH',
          path: item,
          headers: { 'content-type': 'application/strategic-merge-patch+json' },
          body: labelPatch,
        },
      },
    ]);
    add('patch-json', [
      created(s, name),
      {
        request: {
          method: 'PATCH',
          path: item,
          headers: { 'content-type': 'application/json-patch+json' },
          body: [{ op: 'add', path: '/metadata/labels', value: { patched: 'yes' } }],
        },
      },
    ]);
    add('patch-json-test-fails', [
      created(s, name),
      {
        request: {
          method: 'PATCH',
          path: item,
          headers: { 'content-type': 'application/json-patch+json' },
          body: [{ op: 'test', path: '/metadata/name', value: 'nope' }],
        },
      },
    ]);
    add('patch-missing', [
      {
        request: {
          method: 'PATCH',
          path: item,
          headers: { 'content-type': 'application/merge-patch+json' },
          body: labelPatch,
        },
      },
    ]);
    add('patch-unsupported-type', [
      created(s, name),
      { request: { method: 'PATCH', path: item, headers: { 'content-type': 'text/plain' }, bodyText: 'x' } },
    ]);
    add('patch-dry-run', [
      created(s, name),
      {
        request: {
          method: 'PATCH',
          path: item,
          query: { dryRun: 'All' },
          headers: { 'content-type': 'application/merge-patch+json' },
          body: labelPatch,
        },
      },
      { request: { path: item } },
    ]);
    const apply = (manager: string, object: unknown, force = false): Step => ({
      request: {
        method: 'PATCH',
        path: item,
        query: { fieldManager: manager, ...(force ? { force: 'true' } : {}) },
        headers: { 'content-type': 'application/apply-patch+yaml' },
        body: object,
      },
    });
    add('apply-create', [apply('fc', body)]);
    add('apply-update', [apply('fc', body), apply('fc', changed)]);
    add('apply-conflict', [apply('first', body), apply('second', changed)]);
    add('apply-force', [apply('first', body), apply('second', changed, true)]);
    add('apply-no-manager', [
      {
        request: {
          method: 'PATCH',
          path: item,
          headers: { 'content-type': 'application/apply-patch+yaml' },
          body,
        },
      },
    ]);
    add('delete', [created(s, name), { request: { method: 'DELETE', path: item } }]);
    add('delete-dry-run', [
      created(s, name),
      { request: { method: 'DELETE', path: item, query: { dryRun: 'All' } } },
      { request: { path: item } },
    ]);
    add('delete-missing', [{ request: { method: 'DELETE', path: item } }]);
    add('delete-uid-precondition', [
      created(s, name),
      {
        request: {
          method: 'DELETE',
          path: item,
          body: {
            kind: 'DeleteOptions',
            apiVersion: 'v1',
            preconditions: { uid: '00000000-0000-0000-0000-000000000000' },
          },
        },
      },
    ]);
    add('delete-rv-precondition', [
      created(s, name),
      {
        request: {
          method: 'DELETE',
          path: item,
          body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { resourceVersion: '1' } },
        },
      },
    ]);
    if (s.namespaced) {
      add('delete-collection', [
        created(s, name),
        created(s, 'second'),
        { request: { method: 'DELETE', path: s.collection } },
        { request: { path: s.collection } },
      ]);
      add('delete-collection-selector', [
        created(s, name),
        { request: { method: 'DELETE', path: s.collection, query: { labelSelector: 'none=here' } } },
        { request: { path: s.collection } },
      ]);
    }
    for (const sub of s.subresources) {
      if (sub === 'status') {
        add('status-get', [created(s, name), { request: { path: `${item}/status` } }]);
        add('status-update', [
          { ...created(s, name), save: { rv: 'metadata.resourceVersion' } },
          {
            request: {
              method: 'PUT',
              path: `${item}/status`,
              body: withValue(
                withValue(body, ['metadata', 'resourceVersion'], '$rv'),
                ['metadata', 'labels', 'ignored'],
                'yes',
              ),
            },
          },
        ]);
        add('status-patch', [
          created(s, name),
          {
            request: {
              method: 'PATCH',
              path: `${item}/status`,
              headers: { 'content-type': 'application/merge-patch+json' },
              body: { metadata: { labels: { ignored: 'yes' } }, spec: { ignored: true } },
            },
          },
        ]);
        add('status-missing', [{ request: { path: `${item}/status` } }]);
      } else {
        add('scale-get', [created(s, name), { request: { path: `${item}/scale` } }]);
        add('scale-update', [
          created(s, name),
          {
            request: {
              method: 'PUT',
              path: `${item}/scale`,
              body: {
                apiVersion: 'autoscaling/v1',
                kind: 'Scale',
                metadata: { name, namespace: '$ns' },
                spec: { replicas: 5 },
              },
            },
          },
          { request: { path: item } },
        ]);
        add('scale-patch', [
          created(s, name),
          {
            request: {
              method: 'PATCH',
              path: `${item}/scale`,
              headers: { 'content-type': 'application/merge-patch+json' },
              body: { spec: { replicas: 4 } },
            },
          },
        ]);
        add('scale-negative', [
          created(s, name),
          {
            request: {
              method: 'PATCH',
              path: `${item}/scale`,
              headers: { 'content-type': 'application/merge-patch+json' },
              body: { spec: { replicas: -1 } },
            },
          },
        ]);
        add('scale-missing', [{ request: { path: `${item}/scale` } }]);
      }
    }
    add('unknown-subresource', [created(s, name), { request: { path: `${item}/nope` } }]);
  }
  return out;
}
