/**
 * Metadata-only reads (`as=PartialObjectMetadata[List]`), as kube-apiserver serves them to
 * kube-controller-manager's garbage collector and controller-runtime's metadata informers: get,
 * list with pagination, watch with bookmarks and resume, custom kinds, and the negotiation's 406s
 * and fallbacks (k8s.io/apiserver pkg/endpoints/apiserver_test.go `TestGetPartialObjectMetadata`
 * has the cases this follows).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { loadProtobufCodec } from '../../../src/server/protobuf/codec.js';
import { installCrd } from '../../helpers/crds.js';
import { call, ensureNamespace, startTestServer, watch } from '../../helpers/server.js';
import { widget, widgetCrd } from '../../helpers/widget.js';

const AS_OBJECT = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const AS_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
/** What client-go's metadata client sends for a list (protobuf first, then JSON, then plain). */
const METADATA_CLIENT_LIST = `application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,${AS_LIST},application/json`;
const NOT_ACCEPTABLE =
  'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf';

let server: RunningServer;
const NS = 'partial';
const CONFIGMAPS = `/api/v1/namespaces/${NS}/configmaps`;

beforeAll(async () => {
  server = await startTestServer();
  await ensureNamespace(server, NS);
  for (const name of ['a', 'b', 'c']) {
    const r = await call(server, 'POST', `${CONFIGMAPS}?fieldManager=test`, {
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, labels: { app: 'demo' }, annotations: { note: name } },
        data: { big: 'x'.repeat(1000) },
      },
    });
    expect(r.status).toBe(201);
  }
});

afterAll(async () => {
  await server.close();
});

describe('get as PartialObjectMetadata', () => {
  it('answers the whole ObjectMeta, managedFields included, and nothing else', async () => {
    const full = await call(server, 'GET', `${CONFIGMAPS}/a`);
    const r = await call(server, 'GET', `${CONFIGMAPS}/a`, {
      headers: { accept: `${AS_OBJECT},application/json` },
    });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(Object.keys(r.body)).toEqual(['kind', 'apiVersion', 'metadata']);
    expect(r.body.kind).toBe('PartialObjectMetadata');
    expect(r.body.apiVersion).toBe('meta.k8s.io/v1');
    expect(r.body.metadata).toEqual(full.body.metadata);
    expect(r.body.metadata.managedFields?.[0]?.manager).toBe('test');
    // ObjectMeta's Go field order.
    expect(Object.keys(r.body.metadata).slice(0, 4)).toEqual(['name', 'namespace', 'uid', 'resourceVersion']);
  });

  it('answers v1beta1 when that is the first acceptable range', async () => {
    const r = await call(server, 'GET', `${CONFIGMAPS}/a`, {
      headers: {
        accept:
          'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
      },
    });
    expect(r.body.apiVersion).toBe('meta.k8s.io/v1beta1');
  });

  it('is a 406 for a list type asked of one object', async () => {
    const r = await call(server, 'GET', `${CONFIGMAPS}/a`, { headers: { accept: AS_LIST } });
    expect(r.status).toBe(406);
    expect(r.body).toMatchObject({
      kind: 'Status',
      reason: 'NotAcceptable',
      code: 406,
      message:
        'you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)',
    });
  });

  it('still answers 404 for a missing object', async () => {
    const r = await call(server, 'GET', `${CONFIGMAPS}/nope`, { headers: { accept: AS_OBJECT } });
    expect(r.status).toBe(404);
  });
});

describe('negotiation', () => {
  it('is a 406 before anything is read when no range is served', async () => {
    for (const accept of [
      'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1alpha1',
      'application/json;as=Widget;g=meta.k8s.io;v=v1',
      'application/json;as=PartialObjectMetadata;g=example.com;v=v1',
      'text/plain',
    ]) {
      const r = await call(server, 'GET', `${CONFIGMAPS}/nope`, { headers: { accept } });
      expect(r.status, accept).toBe(406);
      expect(r.body).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', message: NOT_ACCEPTABLE });
    }
  });

  it('falls back to plain JSON when an unknown `as` is followed by application/json', async () => {
    const r = await call(server, 'GET', `${CONFIGMAPS}/a`, {
      headers: {
        accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1alpha1,application/json',
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe('ConfigMap');
    const list = await call(server, 'GET', CONFIGMAPS, {
      headers: { accept: 'application/json;as=Nope;g=meta.k8s.io;v=v1, application/json' },
    });
    expect(list.body.kind).toBe('ConfigMapList');
  });

  it('answers client-go’s metadata client in protobuf, its first choice', async () => {
    const r = await call(server, 'GET', CONFIGMAPS, { headers: { accept: METADATA_CLIENT_LIST } });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    const codec = await loadProtobufCodec();
    expect(codec.decodeBody(codec.root, r.bytes).kind).toBe('PartialObjectMetadataList');
  });

  it('takes the JSON range after a protobuf one it cannot write (meta.k8s.io/v1beta1)', async () => {
    const accept = METADATA_CLIENT_LIST.replace('v=v1,', 'v=v1beta1,');
    const r = await call(server, 'GET', CONFIGMAPS, { headers: { accept } });
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe('PartialObjectMetadataList');
  });

  it('still serves Tables and plain reads as before', async () => {
    const table = await call(server, 'GET', CONFIGMAPS, {
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' },
    });
    expect(table.body.kind).toBe('Table');
    expect((await call(server, 'GET', CONFIGMAPS)).body.kind).toBe('ConfigMapList');
    expect((await call(server, 'GET', CONFIGMAPS, { headers: { accept: '*/*' } })).body.kind).toBe(
      'ConfigMapList',
    );
  });
});

describe('list as PartialObjectMetadataList', () => {
  it('carries the ListMeta and each item’s metadata', async () => {
    const full = await call(server, 'GET', CONFIGMAPS);
    const r = await call(server, 'GET', CONFIGMAPS, { headers: { accept: AS_LIST } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['kind', 'apiVersion', 'metadata', 'items']);
    expect(r.body).toMatchObject({ kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1' });
    expect(r.body.metadata.resourceVersion).toBe(full.body.metadata.resourceVersion);
    expect(r.body.items.map((i: any) => i.kind)).toEqual(Array(3).fill('PartialObjectMetadata'));
    expect(r.body.items.map((i: any) => i.metadata)).toEqual(full.body.items.map((i: any) => i.metadata));
    expect(r.text.length).toBeLessThan(full.text.length / 2);
  });

  it('pages with limit and continue, from the store and from the cache', async () => {
    const first = await call(server, 'GET', `${CONFIGMAPS}?limit=2`, { headers: { accept: AS_LIST } });
    expect(first.body.items.map((i: any) => i.metadata.name)).toEqual(['a', 'b']);
    expect(first.body.metadata.continue).toBeTruthy();
    expect(first.body.metadata.remainingItemCount).toBe(1);
    const rest = await call(
      server,
      'GET',
      `${CONFIGMAPS}?limit=2&continue=${encodeURIComponent(first.body.metadata.continue)}`,
      { headers: { accept: AS_LIST } },
    );
    expect(rest.body.items.map((i: any) => i.metadata.name)).toEqual(['c']);
    expect(rest.body.metadata.continue).toBeUndefined();
    const cached = await call(server, 'GET', `${CONFIGMAPS}?resourceVersion=0`, {
      headers: { accept: AS_LIST },
    });
    expect(cached.body.items).toHaveLength(3);
  });

  it('answers meta.k8s.io/v1beta1 lists and items when asked', async () => {
    const r = await call(server, 'GET', CONFIGMAPS, {
      headers: { accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1' },
    });
    expect(r.body.apiVersion).toBe('meta.k8s.io/v1beta1');
    expect(new Set(r.body.items.map((i: any) => `${i.kind} ${i.apiVersion}`))).toEqual(
      new Set(['PartialObjectMetadata meta.k8s.io/v1beta1']),
    );
  });

  it('answers `items: null` for an empty list, as the Go list encodes', async () => {
    const r = await call(server, 'GET', `${CONFIGMAPS}?labelSelector=app%3Dnone`, {
      headers: { accept: AS_LIST },
    });
    expect(r.text).toContain('"items":null');
  });

  it('is a 406 naming the list type when one object is asked of a list', async () => {
    const r = await call(server, 'GET', CONFIGMAPS, { headers: { accept: AS_OBJECT } });
    expect(r.status).toBe(406);
    expect(r.body.message).toBe(
      'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)',
    );
    const fallback = await call(server, 'GET', CONFIGMAPS, {
      headers: {
        accept: 'application/json;as=PartialObjectMetadata;v=v1alpha1;g=meta.k8s.io, application/json',
      },
    });
    expect(fallback.body.kind).toBe('ConfigMapList');
  });
});

describe('watch as PartialObjectMetadata', () => {
  it('streams events and bookmarks as PartialObjectMetadata, and resumes', async () => {
    const list = await call(server, 'GET', CONFIGMAPS, { headers: { accept: AS_LIST } });
    const rv = list.body.metadata.resourceVersion;
    const w = await watch(server, `${CONFIGMAPS}?watch=1&allowWatchBookmarks=true&resourceVersion=${rv}`, {
      accept: `${AS_OBJECT},application/json`,
    });
    try {
      await call(server, 'PATCH', `${CONFIGMAPS}/a`, {
        body: { metadata: { labels: { touched: 'yes' } } },
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      const modified = await w.until((e) => e.type === 'MODIFIED');
      expect(modified.object).toMatchObject({
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata: { name: 'a', labels: { touched: 'yes' } },
      });
      expect(Object.keys(modified.object)).toEqual(['kind', 'apiVersion', 'metadata']);
      // A bookmark goes once the server knows something newer than what was sent: a change elsewhere.
      await call(server, 'POST', '/api/v1/namespaces/default/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'elsewhere' } },
      });
      const bookmark = await w.until((e) => e.type === 'BOOKMARK');
      expect(bookmark.object).toEqual({
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata: { resourceVersion: expect.any(String) },
      });
    } finally {
      w.close();
    }
    // Resume from the list's resourceVersion: the same change again, then a delete.
    const again = await watch(server, `${CONFIGMAPS}?watch=1&resourceVersion=${rv}`, { accept: AS_OBJECT });
    try {
      expect((await again.next()).object.metadata?.labels?.touched).toBe('yes');
      await call(server, 'DELETE', `${CONFIGMAPS}/c`);
      const deleted = await again.until((e) => e.type === 'DELETED');
      expect(deleted.object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'c' } });
    } finally {
      again.close();
    }
  });

  it('marks the end of the initial events with a PartialObjectMetadata bookmark', async () => {
    const w = await watch(
      server,
      `${CONFIGMAPS}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
      { accept: AS_OBJECT },
    );
    try {
      const end = await w.until((e) => e.type === 'BOOKMARK');
      const added = w.events.filter((e) => e.type === 'ADDED');
      expect(added.length).toBeGreaterThan(0);
      for (const e of added) expect(e.object.kind).toBe('PartialObjectMetadata');
      expect(end.object).toMatchObject({
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } },
      });
    } finally {
      w.close();
    }
  });

  it('is a 406 before the stream starts when nothing is served', async () => {
    await expect(
      watch(server, `${CONFIGMAPS}?watch=1`, {
        accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v2',
      }),
    ).rejects.toMatchObject({ status: 406 });
  });
});

describe('custom kinds', () => {
  it('serves PartialObjectMetadata for custom resources and CRDs alike', async () => {
    await installCrd(server, widgetCrd());
    const widgets = '/apis/example.com/v1/namespaces/default/widgets';
    const created = await call(server, 'POST', widgets, {
      body: widget('w1', { size: 2 }),
    });
    expect(created.status).toBe(201);
    const one = await call(server, 'GET', `${widgets}/w1`, { headers: { accept: AS_OBJECT } });
    expect(one.body).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: created.body.metadata,
    });
    const list = await call(server, 'GET', widgets, { headers: { accept: AS_LIST } });
    expect(list.body.items.map((i: any) => i.metadata.name)).toEqual(['w1']);
    const wrong = await call(server, 'GET', widgets, { headers: { accept: AS_OBJECT } });
    expect(wrong.body.message).toBe(
      'you requested PartialObjectMetadata, but the requested object is a list (*unstructured.UnstructuredList)',
    );
    // Custom resources have no plain protobuf (customresource_handler.go `StandardSerializers`).
    const proto = await call(server, 'GET', widgets, {
      headers: { accept: 'application/vnd.kubernetes.protobuf' },
    });
    expect(proto.status).toBe(406);
    const crds = await call(server, 'GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      headers: { accept: AS_LIST },
    });
    expect(crds.body.items.map((i: any) => i.metadata.name)).toContain('widgets.example.com');
    expect(crds.text).not.toContain('openAPIV3Schema');
  });
});

describe('writes answer in the form their Accept asked for (create.go `transformResponseObject`)', () => {
  it('create and patch answer a PartialObjectMetadata; a delete answering a Status keeps it', async () => {
    const headers = { accept: `${AS_OBJECT},application/json` };
    const created = await call(server, 'POST', CONFIGMAPS, {
      headers,
      body: { metadata: { name: 'w1', labels: { x: 'y' } }, data: { k: 'v' } },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.kind).toBe('PartialObjectMetadata');
    expect(created.body.metadata.labels).toEqual({ x: 'y' });
    expect(created.body).not.toHaveProperty('data');
    const patched = await call(server, 'PATCH', `${CONFIGMAPS}/w1`, {
      headers: { ...headers, 'content-type': 'application/merge-patch+json' },
      body: { metadata: { labels: { x: 'z' } } },
    });
    expect(patched.body).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { labels: { x: 'z' } } });
    const deleted = await call(server, 'DELETE', `${CONFIGMAPS}/w1`, { headers });
    expect(deleted.status, deleted.text).toBe(200);
    // A ConfigMap's delete answers a Status, which handlers/response.go `transformObject` passes as is.
    expect(deleted.body).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'w1' } });
  });

  it('an Accept nothing can satisfy is a 406 before anything is written', async () => {
    const r = await call(server, 'POST', CONFIGMAPS, {
      headers: { accept: 'application/json;as=Nonsense;g=meta.k8s.io;v=v1' },
      body: { metadata: { name: 'never' } },
    });
    expect(r.status).toBe(406);
    expect((await call(server, 'GET', `${CONFIGMAPS}/never`)).status).toBe(404);
  });
});
