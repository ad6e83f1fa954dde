/**
 * Answers in protobuf (`Accept: application/vnd.kubernetes.protobuf`), as client-go configured
 * with ContentType protobuf reads them: the reference's own bytes reproduced from the same JSON;
 * every served built-in kind (get and list) decoding to exactly its JSON answer and re-encoding
 * to the same bytes; errors as protobuf Status; watch streams as length-prefixed WatchEvent
 * frames; metadata-only answers; and the forms that stay JSON.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { loadProtobufCodec, type ProtobufCodec } from '../../../src/server/protobuf/codec.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';
import { FIXTURES } from './fixtures.js';
import { CONFIGMAP, DEPLOYMENT, NOT_FOUND_STATUS } from './reference.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const ACCEPT = { accept: PROTOBUF };

let server: RunningServer;
let codec: ProtobufCodec;

beforeAll(async () => {
  server = await startTestServer();
  await ensureNamespace(server, 'pb');
  codec = await loadProtobufCodec();
});

afterAll(async () => {
  await server.close();
});

const decode = (bytes: Buffer) => codec.decodeBody(codec.root, bytes);
const encode = (object: unknown) => codec.encodeBody(codec.root, object as Record<string, unknown>);

/**
 * `object` without the null creationTimestamp of nested metadata (a pod template's): ObjectMeta
 * tags it `omitzero` since apimachinery v0.35, so Go writes nothing for it, as the protobuf
 * mapping does, while watchmark's JSON path keeps the null a client sent.
 */
function withoutZeroCreationTimestamps(object: any): any {
  const copy = structuredClone(object);
  const visit = (v: any) => {
    if (typeof v !== 'object' || v === null) return;
    if (v.metadata?.creationTimestamp === null) delete v.metadata.creationTimestamp;
    for (const child of Object.values(v)) visit(child);
  };
  visit(copy);
  return copy;
}

/** Reads a protobuf answer: its content type, and the JSON it decodes to. */
async function readProtobuf(path: string, headers: Record<string, string> = ACCEPT) {
  const r = await call(server, 'GET', path, { headers });
  expect(r.headers['content-type']).toBe(PROTOBUF);
  return { status: r.status, bytes: r.bytes, json: decode(r.bytes) };
}

describe('the reference’s bytes', () => {
  it('are what the same JSON encodes to: a ConfigMap (sorted map keys, Time, FieldsV1, bytes)', () => {
    expect(encode(JSON.parse(CONFIGMAP.json)).toString('hex')).toBe(CONFIGMAP.protobuf);
  });

  it('are what the same JSON encodes to: a Deployment (IntOrString, Quantity, pointers, zeros)', () => {
    expect(encode(JSON.parse(DEPLOYMENT.json)).toString('hex')).toBe(DEPLOYMENT.protobuf);
  });

  it('decode back to the JSON the reference answered', () => {
    expect(decode(Buffer.from(CONFIGMAP.protobuf, 'hex'))).toEqual(JSON.parse(CONFIGMAP.json));
    expect(decode(Buffer.from(DEPLOYMENT.protobuf, 'hex'))).toEqual(JSON.parse(DEPLOYMENT.json));
  });

  it('of a 404 Status are what the server answers for a missing object', async () => {
    const r = await call(server, 'GET', '/api/v1/namespaces/default/configmaps/nope', { headers: ACCEPT });
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toBe(PROTOBUF);
    expect(r.bytes.toString('hex')).toBe(NOT_FOUND_STATUS);
  });
});

describe('every served built-in kind', () => {
  for (const fixture of FIXTURES) {
    const kind = fixture.object('x').kind;
    it(`${kind}: get and list in protobuf decode to the JSON answers and re-encode to the same bytes`, async () => {
      const name = fixture.names[0];
      const created = await call(server, 'POST', `${fixture.path}?fieldManager=test`, {
        body: fixture.object(name),
      });
      expect(created.status, created.text).toBe(201);
      const stored = created.body.metadata.name as string;
      const item = `${fixture.path}/${stored}`;
      const json = await call(server, 'GET', item);
      const pb = await readProtobuf(item);
      expect(pb.json).toEqual(withoutZeroCreationTimestamps(json.body));
      expect(encode(pb.json).equals(pb.bytes)).toBe(true);

      const selected = `${fixture.path}?fieldSelector=metadata.name%3D${stored}`;
      const list = await readProtobuf(selected);
      const jsonList = await call(server, 'GET', selected);
      expect(list.json).toEqual(withoutZeroCreationTimestamps(jsonList.body));
      expect((list.json.items as unknown[]).length).toBe(1);
      expect(list.json.kind).toBe(`${kind}List`);
    });
  }
});

describe('errors and writes', () => {
  it('answers a create in protobuf, and its 422 as a protobuf Status with causes', async () => {
    const path = '/api/v1/namespaces/pb/configmaps';
    const created = await call(server, 'POST', path, {
      headers: ACCEPT,
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'written' }, data: { a: 'b' } },
    });
    expect(created.status).toBe(201);
    expect(decode(created.bytes)).toMatchObject({ kind: 'ConfigMap', data: { a: 'b' } });
    const invalid = await call(server, 'POST', path, {
      headers: ACCEPT,
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'BAD' } },
    });
    expect(invalid.status).toBe(422);
    const status = decode(invalid.bytes) as any;
    expect(status).toMatchObject({ kind: 'Status', apiVersion: 'v1', reason: 'Invalid', code: 422 });
    expect(status.details.causes[0].field).toBe('metadata.name');
  });

  it('quotes Go’s decoder for a protobuf body that does not decode', async () => {
    const r = await call(server, 'POST', '/api/v1/namespaces/pb/configmaps', {
      headers: { 'content-type': PROTOBUF },
      body: Buffer.from('k8s\0garbage'),
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(
      'the object provided is unrecognized (must be of type ConfigMap): proto: illegal wireType 7 (6b38730067617262616765)',
    );
  });
});

describe('aggregated discovery', () => {
  it('is served in protobuf (apidiscovery/v2) when asked for first', async () => {
    const aggregated = `${PROTOBUF};g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`;
    const r = await call(server, 'GET', '/apis', { headers: { accept: `${aggregated},application/json` } });
    expect(r.headers['content-type']).toBe(aggregated);
    const list = decode(r.bytes) as any;
    expect(list.kind).toBe('APIGroupDiscoveryList');
    const apps = list.items.find((g: any) => g.metadata.name === 'apps');
    const deployments = apps.versions[0].resources.find((x: any) => x.resource === 'deployments');
    expect(deployments.responseKind).toEqual({ group: '', version: '', kind: 'Deployment' });
    expect(encode(list).equals(r.bytes)).toBe(true);
  });
});

describe('forms that are not protobuf', () => {
  it('refuses a Table in protobuf, and takes the plain JSON offered after it', async () => {
    const path = '/api/v1/namespaces/pb/configmaps';
    const table = `${PROTOBUF};as=Table;g=meta.k8s.io;v=v1`;
    expect((await call(server, 'GET', path, { headers: { accept: table } })).status).toBe(406);
    const r = await call(server, 'GET', path, { headers: { accept: `${table}, application/json` } });
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.body.kind).toBe('ConfigMapList');
  });

  it('serves PartialObjectMetadata and its list in protobuf', async () => {
    const path = '/api/v1/namespaces/pb/configmaps';
    const list = await readProtobuf(path, {
      accept: `${PROTOBUF};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1`,
    });
    expect(list.json.kind).toBe('PartialObjectMetadataList');
    expect((list.json.items as unknown[]).length).toBeGreaterThan(0);
  });

  it('serves discovery in protobuf, and refuses /version in protobuf with a protobuf 406', async () => {
    const api = await readProtobuf('/api');
    expect(api.json).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const resources = await readProtobuf('/api/v1');
    expect(resources.json.kind).toBe('APIResourceList');
    expect((resources.json.resources as Array<{ verbs: string[] }>)[0].verbs.length).toBeGreaterThan(0);
    const version = await call(server, 'GET', '/version', { headers: ACCEPT });
    expect(version.status).toBe(406);
    expect(decode(version.bytes)).toMatchObject({ kind: 'Status', code: 406 });
  });
});

/** Reads a watch's raw bytes until `frames` complete frames arrived. */
function watchFrames(
  path: string,
  accept: string,
  frames: number,
): Promise<{ contentType: string; events: any[] }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server.url), { headers: { accept } }, (res) => {
      let stream: Buffer = Buffer.alloc(0);
      const events: any[] = [];
      res.on('data', (chunk: Buffer) => {
        const decoded = codec.decodeWatchFrames(codec.root, Buffer.concat([stream, chunk]));
        stream = decoded.rest;
        events.push(...decoded.events);
        if (events.length >= frames) {
          req.destroy();
          resolve({ contentType: String(res.headers['content-type']), events });
        }
      });
    });
    req.on('error', (err) => {
      if (!req.destroyed) reject(err);
    });
    req.end();
  });
}

describe('watch in protobuf', () => {
  it('streams WatchEvent frames holding protobuf objects, and the initial-events-end bookmark', async () => {
    const path =
      '/api/v1/namespaces/pb/configmaps?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true';
    const list = await call(server, 'GET', '/api/v1/namespaces/pb/configmaps');
    const count = (list.body.items as unknown[]).length;
    const { contentType, events } = await watchFrames(path, PROTOBUF, count + 1);
    expect(contentType).toBe(`${PROTOBUF};stream=watch`);
    const items = (list.body.items as object[]).map((o) => ({ kind: 'ConfigMap', apiVersion: 'v1', ...o }));
    expect(events.slice(0, count).map((e) => e.object)).toEqual(items);
    expect(events[count].type).toBe('BOOKMARK');
    expect(events[count].object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
  });

  it('sends PartialObjectMetadata objects when asked for them', async () => {
    const accept = `${PROTOBUF};as=PartialObjectMetadata;g=meta.k8s.io;v=v1`;
    const { events } = await watchFrames('/api/v1/namespaces/pb/configmaps?watch=true', accept, 1);
    expect(events[0]).toMatchObject({ type: 'ADDED', object: { kind: 'PartialObjectMetadata' } });
  });
});
