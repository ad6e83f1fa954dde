/**
 * Protobuf bodies of every served built-in kind, as Go clients with
 * `ContentType: application/vnd.kubernetes.protobuf` send them (controller-runtime, client-go):
 * each object is encoded here with the same upstream schema (scripts/protobuf/proto/), POSTed,
 * and read back as JSON; it must equal the same object POSTed as JSON. The objects are written in
 * the JSON form Go's encoding/json gives the decoded struct (a nil list without omitempty is null,
 * a template's zero creationTimestamp is null, which the protobuf mapping leaves out as `omitzero`
 * asks), which is what kube-apiserver stores for either body.
 */
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeProtobufDeleteOptions,
  decodeProtobufObject,
  PROTOBUF_GROUP_VERSIONS,
  PROTOBUF_MAGIC,
} from '../../../src/server/http/protobuf-body.js';
import type { RunningServer } from '../../../src/server/index.js';
import { goDuration } from '../../../src/server/protobuf/go-duration.js';
import {
  GO_FIELDS,
  INLINE,
  POINTER,
  PROTO_FILES,
} from '../../../src/server/protobuf/k8s-schema.generated.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';
import { FIXTURES, type Fixture, trickyPod } from './fixtures.js';

const root = new protobuf.Root();
for (const file of PROTO_FILES) protobuf.parse(file, root, { keepCase: true });
root.resolveAll();

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const EXT = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1';

function seconds(time: string): number {
  return Math.floor(Date.parse(time) / 1000);
}

const json = (v: unknown) => ({ raw: Buffer.from(JSON.stringify(v)) });

/** The inverse of the server's mapping for the types with their own JSON form. */
const SPECIAL: Record<string, (v: any, t: protobuf.Type) => unknown> = {
  [`${META}.Time`]: (v) => (v === null ? {} : { seconds: seconds(v), nanos: 0 }),
  [`${META}.MicroTime`]: (v) =>
    v === null ? {} : { seconds: seconds(v), nanos: Number(/\.(\d+)/.exec(v)?.[1]?.padEnd(9, '0') ?? 0) },
  [`${META}.FieldsV1`]: (v) => ({ Raw: Buffer.from(JSON.stringify(v)) }),
  'k8s.io.apimachinery.pkg.runtime.RawExtension': json,
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': (v) =>
    typeof v === 'number' ? { type: 0, intVal: v } : { type: 1, strVal: v },
  'k8s.io.apimachinery.pkg.api.resource.Quantity': (v) => ({ string: v }),
  [`${EXT}.JSON`]: json,
  // marshal.go UnmarshalJSON of each: a schema sets Allows true; a list or a schema.
  [`${EXT}.JSONSchemaPropsOrBool`]: (v, t) =>
    typeof v === 'boolean' ? { allows: v } : { allows: true, schema: toPlain(sub(t, 'schema'), v) },
  [`${EXT}.JSONSchemaPropsOrArray`]: (v, t) =>
    Array.isArray(v)
      ? { jSONSchemas: v.map((s) => toPlain(sub(t, 'schema'), s)) }
      : { schema: toPlain(sub(t, 'schema'), v) },
  [`${EXT}.JSONSchemaPropsOrStringArray`]: (v, t) =>
    Array.isArray(v) ? { property: v } : { schema: toPlain(sub(t, 'schema'), v) },
};

function sub(type: protobuf.Type, field: string): protobuf.Type {
  return type.fields[field]?.resolvedType as protobuf.Type;
}

/** Whether toPlain writes the zero non-pointer fields too, as a Go client's gogo-protobuf does. */
let goZeros = false;

/** JSON object → the plain object `fromObject` takes, by the Go field table. */
function toPlain(type: protobuf.Type, value: any): any {
  const special = SPECIAL[type.fullName.slice(1)];
  if (special) return special(value, type);
  const out: Record<string, unknown> = {};
  for (const [protoName, jsonName, flags] of GO_FIELDS[type.fullName.slice(1)] ?? []) {
    const field = type.fields[protoName] as protobuf.Field;
    const nested = field.resolvedType instanceof protobuf.Type ? field.resolvedType : undefined;
    if (flags & INLINE) {
      out[protoName] = toPlain(nested as protobuf.Type, value);
      continue;
    }
    const v = value?.[jsonName];
    if ((v === undefined || v === null) && goZeros && !(flags & POINTER) && !field.repeated && !field.map) {
      // gogo-protobuf writes every non-pointer field, zero or not (a zero Time as an empty message).
      if (!nested) out[protoName] = field.type === 'string' ? '' : field.type === 'bool' ? false : 0;
      else if (nested.name === 'Time' || nested.name === 'MicroTime') out[protoName] = {};
      else if (!SPECIAL[nested.fullName.slice(1)]) out[protoName] = toPlain(nested, {});
      continue;
    }
    if (v === undefined || v === null) continue;
    const one = (x: any) =>
      nested ? toPlain(nested, x) : field.type === 'bytes' ? Buffer.from(x, 'base64') : x;
    if (field.map) out[protoName] = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, one(x)]));
    else if (field.repeated) out[protoName] = (v as unknown[]).map(one);
    else out[protoName] = one(v);
  }
  return out;
}

/** A JSON object as a Go client sends it with ContentType protobuf: magic + runtime.Unknown. */
function protobufBody(object: any, options: { goZeros?: boolean } = {}): Buffer {
  goZeros = options.goZeros === true;
  const pkg = object.kind === 'DeleteOptions' ? META : PROTOBUF_GROUP_VERSIONS[object.apiVersion];
  const type = root.lookupType(`${pkg}.${object.kind}`);
  const raw = type.encode(type.fromObject(toPlain(type, object))).finish();
  const unknown = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
  const envelope = unknown.encode(
    unknown.fromObject({
      typeMeta: { apiVersion: object.apiVersion, kind: object.kind },
      raw,
      contentEncoding: '',
      contentType: '',
    }),
  );
  return Buffer.concat([PROTOBUF_MAGIC, envelope.finish()]);
}

const PROTOBUF = { 'content-type': 'application/vnd.kubernetes.protobuf' };

/** What differs between two creates of the same object: identity, times, allocations. */
function comparable(object: any, fixture: Fixture): any {
  const copy = structuredClone(object);
  for (const k of ['uid', 'creationTimestamp', 'resourceVersion', 'name']) delete copy.metadata[k];
  for (const entry of copy.metadata.managedFields ?? []) delete entry.time;
  // A template's (or a claim template's) zero creationTimestamp: the protobuf mapping leaves it out as Go's encoding/json
  // does (`omitzero`), the JSON path keeps the null the fixture sends.
  const visit = (v: any) => {
    if (typeof v !== 'object' || v === null) return;
    if (v.metadata?.creationTimestamp === null) delete v.metadata.creationTimestamp;
    for (const child of Object.values(v)) visit(child);
  };
  visit(copy);
  fixture.normalize?.(copy);
  return copy;
}

let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer();
  await ensureNamespace(server, 'pb');
});

afterAll(async () => {
  await server.close();
});

async function createAndRead(fixture: Fixture, name: string, body: Buffer | object): Promise<any> {
  const object = fixture.object(name);
  const headers = Buffer.isBuffer(body) ? PROTOBUF : undefined;
  const created = await call(server, 'POST', `${fixture.path}?fieldManager=test`, { body, headers });
  expect(created.status, `${object.kind} ${name}: ${created.text}`).toBe(201);
  const got = await call(server, 'GET', `${fixture.path}/${object.metadata.name}`);
  expect(got.status).toBe(200);
  return got.body;
}

describe('a protobuf body of every served built-in kind', () => {
  it('covers every group version the server decodes', () => {
    // autoscaling/v1 is the Scale of the /scale subresources: see 'PUT as protobuf'.
    const groupVersions = new Set([...FIXTURES.map((f) => f.object('x').apiVersion), 'autoscaling/v1']);
    expect([...groupVersions].sort()).toEqual(Object.keys(PROTOBUF_GROUP_VERSIONS).sort());
  });

  for (const fixture of FIXTURES) {
    const kind = fixture.object('x').kind;
    it(`${kind}: POSTed as protobuf reads back as the same object POSTed as JSON`, async () => {
      const fromJson = await createAndRead(fixture, fixture.names[0], fixture.object(fixture.names[0]));
      const fromProtobuf = await createAndRead(
        fixture,
        fixture.names[1],
        protobufBody(fixture.object(fixture.names[1]), { goZeros: true }),
      );
      expect(comparable(fromProtobuf, fixture)).toEqual(comparable(fromJson, fixture));
    });
  }
});

describe('a Pod with every tricky type', () => {
  it('decodes to exactly the JSON it was encoded from', async () => {
    const pod = trickyPod('tricky');
    expect(await decodeProtobufObject(protobufBody(pod))).toEqual(pod);
  });

  it('decodes the bytes a Go client writes (every non-pointer field, zero or not) to the same JSON', async () => {
    const pod = trickyPod('tricky');
    const body = protobufBody(pod, { goZeros: true });
    expect(body.length).toBeGreaterThan(protobufBody(pod).length);
    expect(await decodeProtobufObject(body)).toEqual(pod);
  });

  it('round-trips through the server like its JSON form', async () => {
    const path = '/api/v1/namespaces/pb/pods';
    const fixture: Fixture = { path, names: ['tricky-json', 'tricky-pb'], object: trickyPod };
    const fromJson = await createAndRead(fixture, 'tricky-json', trickyPod('tricky-json'));
    const fromProtobuf = await createAndRead(fixture, 'tricky-pb', protobufBody(trickyPod('tricky-pb')));
    expect(comparable(fromProtobuf, fixture)).toEqual(comparable(fromJson, fixture));
    expect(fromProtobuf.spec.tolerations[0].tolerationSeconds).toBe(300);
    expect(fromProtobuf.spec.containers[0].livenessProbe.httpGet.port).toBe('http');
    expect(fromProtobuf.spec.containers[0].readinessProbe.tcpSocket.port).toBe(8080);
  });
});

describe('PUT as protobuf', () => {
  it('updates a Deployment from a protobuf body carrying its resourceVersion', async () => {
    const fixture = FIXTURES.find((f) => f.object('x').kind === 'Deployment') as Fixture;
    const created = await createAndRead(fixture, 'put-pb', fixture.object('put-pb'));
    const changed = structuredClone(created);
    changed.spec.replicas = 5;
    changed.metadata.labels = { ...changed.metadata.labels, updated: 'yes' };
    delete changed.status;
    const put = await call(server, 'PUT', `${fixture.path}/put-pb?fieldManager=test`, {
      body: protobufBody(changed),
      headers: PROTOBUF,
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.spec.replicas).toBe(5);
    expect(put.body.metadata.labels.updated).toBe('yes');
    expect(Number(put.body.metadata.resourceVersion)).toBeGreaterThan(
      Number(created.metadata.resourceVersion),
    );
  });

  it('scales a Deployment with the autoscaling/v1 Scale client-go UpdateScale sends', async () => {
    const fixture = FIXTURES.find((f) => f.object('x').kind === 'Deployment') as Fixture;
    await createAndRead(fixture, 'scale-pb', fixture.object('scale-pb'));
    const path = `${fixture.path}/scale-pb/scale`;
    const scale = (await call(server, 'GET', path)).body;
    expect(scale.kind).toBe('Scale');
    const put = await call(server, 'PUT', path, {
      body: protobufBody({ ...scale, spec: { replicas: 7 } }),
      headers: PROTOBUF,
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.spec.replicas).toBe(7);
    expect((await call(server, 'GET', `${fixture.path}/scale-pb`)).body.spec.replicas).toBe(7);
  });

  it('writes a Pod status the way a kubelet does, from a protobuf body to /status', async () => {
    const fixture = FIXTURES.find((f) => f.object('x').kind === 'Pod') as Fixture;
    const created = await createAndRead(fixture, 'status-pb', fixture.object('status-pb'));
    const status = {
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-02T03:04:05Z' },
      ],
      podIP: '10.244.1.7',
      podIPs: [{ ip: '10.244.1.7' }],
      startTime: '2026-01-02T03:04:00Z',
      containerStatuses: [
        {
          name: 'web',
          state: { running: { startedAt: '2026-01-02T03:04:02Z' } },
          lastState: {},
          ready: true,
          restartCount: 0,
          image: 'nginx:1.27',
          imageID: 'docker.io/library/nginx@sha256:abc',
          containerID: 'containerd://0123',
          started: true,
        },
      ],
      qosClass: 'Burstable',
    };
    const put = await call(server, 'PUT', `${fixture.path}/status-pb/status`, {
      body: protobufBody({ ...created, status }, { goZeros: true }),
      headers: PROTOBUF,
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.status).toMatchObject(status);
  });

  it('answers a stale resourceVersion in a protobuf body with 409', async () => {
    const fixture = FIXTURES.find((f) => f.object('x').kind === 'ConfigMap') as Fixture;
    const created = await createAndRead(fixture, 'stale-pb', fixture.object('stale-pb'));
    const first = await call(server, 'PUT', `${fixture.path}/stale-pb`, {
      body: protobufBody({ ...created, data: { a: '1' } }),
      headers: PROTOBUF,
    });
    expect(first.status, first.text).toBe(200);
    const stale = await call(server, 'PUT', `${fixture.path}/stale-pb`, {
      body: protobufBody({ ...created, data: { a: '2' } }),
      headers: PROTOBUF,
    });
    expect(stale.status).toBe(409);
  });
});

describe('DeleteOptions as protobuf', () => {
  it('decodes the DeleteOptions client-go sends with a DELETE', async () => {
    const options = {
      kind: 'DeleteOptions',
      apiVersion: 'apps/v1',
      gracePeriodSeconds: 0,
      preconditions: { uid: 'abc', resourceVersion: '12' },
      propagationPolicy: 'Foreground',
      dryRun: ['All'],
    };
    expect(await decodeProtobufObject(protobufBody(options))).toEqual(options);
    expect(await decodeProtobufDeleteOptions(protobufBody(options, { goZeros: true }))).toEqual(options);
  });

  it('a DELETE with a protobuf DeleteOptions body deletes as it says (foreground, preconditions)', async () => {
    const path = '/api/v1/namespaces/default/configmaps';
    const made = await call(server, 'POST', path, { body: { metadata: { name: 'pb-delete' } } });
    expect(made.status, made.text).toBe(201);
    const wrongUid = { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-it' } };
    const refused = await call(server, 'DELETE', `${path}/pb-delete`, {
      body: protobufBody(wrongUid, { goZeros: true }),
      headers: PROTOBUF,
    });
    expect(refused.status, refused.text).toBe(409);
    const options = {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      preconditions: { uid: made.body.metadata.uid },
      propagationPolicy: 'Foreground',
    };
    const deleted = await call(server, 'DELETE', `${path}/pb-delete`, {
      body: protobufBody(options, { goZeros: true }),
      headers: PROTOBUF,
    });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.metadata.finalizers).toEqual(['foregroundDeletion']);
  });

  it('400s another kind where DeleteOptions are expected', async () => {
    const configMap = FIXTURES.find((f) => f.object('x').kind === 'ConfigMap') as Fixture;
    await expect(decodeProtobufDeleteOptions(protobufBody(configMap.object('c')))).rejects.toMatchObject({
      code: 400,
      message: 'decoded object cannot be converted to DeleteOptions',
    });
  });
});

describe('strictness and the hand-mapped types', () => {
  it('415s a Pod carrying a field number the upstream schema does not have', async () => {
    const body = protobufBody(trickyPod('future'));
    // Append PodSpec-level garbage: an unknown field 99 inside a Pod's spec, via a second spec
    // occurrence (protobuf merges repeated occurrences of a message field).
    const spec = protobuf.Writer.create()
      .uint32((99 << 3) | 2)
      .string('x')
      .finish();
    const pod = protobuf.Writer.create()
      .uint32((2 << 3) | 2)
      .bytes(spec)
      .finish();
    const unknown = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
    const envelope = unknown.toObject(unknown.decode(body.subarray(4)));
    const raw = Buffer.concat([envelope.raw as Uint8Array, pod]);
    const tampered = Buffer.concat([
      PROTOBUF_MAGIC,
      unknown.encode(unknown.fromObject({ ...envelope, raw })).finish(),
    ]);
    const answer = await call(server, 'POST', '/api/v1/namespaces/pb/pods', {
      body: tampered,
      headers: PROTOBUF,
    });
    expect(answer.status).toBe(415);
    expect(answer.body.message).toBe(
      'protobuf field 99 of PodSpec is not supported by watchmark; send application/json',
    );
  });

  it('writes meta/v1 Duration as Go prints a time.Duration', () => {
    expect([0, 1500, 1.5e6, 2e9, 61e9, 3.6e12, 3.6e12 + 1.5e9, 72 * 3.6e12, -5e9].map(goDuration)).toEqual([
      '0s',
      '1.5µs',
      '1.5ms',
      '2s',
      '1m1s',
      '1h0m0s',
      '1h0m1.5s',
      '72h0m0s',
      '-5s',
    ]);
  });

  it('writes a zero non-pointer Time as null and a MicroTime with 6 digits', async () => {
    const lease = FIXTURES.find((f) => f.object('x').kind === 'Lease') as Fixture;
    const decoded: any = await decodeProtobufObject(protobufBody(lease.object('l')));
    expect(decoded.spec.acquireTime).toBe('2026-01-02T03:04:05.123456Z');
    const node = FIXTURES.find((f) => f.object('x').kind === 'Node') as Fixture;
    const object = node.object('n');
    object.status.conditions[0].lastHeartbeatTime = null;
    const withNull: any = await decodeProtobufObject(protobufBody(object));
    expect(withNull.status.conditions[0].lastHeartbeatTime).toBeNull();
    expect(withNull.spec.taints[0].timeAdded).toBe('2026-01-02T03:04:05Z');
  });
});

describe('the generated Go field table', () => {
  it('covers every field of every message the schema has, but for the hand-mapped types', () => {
    const handMapped =
      /\.(Time|MicroTime|Duration|FieldsV1|RawExtension|IntOrString|Quantity|JSON|JSONSchemaPropsOr\w+)$/;
    const missing: string[] = [];
    const visit = (ns: protobuf.NamespaceBase): void => {
      for (const nested of ns.nestedArray) {
        if (nested instanceof protobuf.Type) {
          const name = nested.fullName.slice(1);
          const known = new Set((GO_FIELDS[name] ?? []).map(([protoName]) => protoName));
          if (!handMapped.test(name))
            for (const f of nested.fieldsArray) if (!known.has(f.name)) missing.push(`${name}.${f.name}`);
        }
        if (nested instanceof protobuf.Namespace) visit(nested);
      }
    };
    visit(root);
    // Types no served kind reaches (meta/v1 group_version.go, watch.go; resource.QuantityValue).
    expect(
      missing.filter(
        (m) =>
          !/meta\.v1\.(Group|Patch|Timestamp|Verbs|WatchEvent)|core\.v1\.List\.|resource\.QuantityValue\./.test(
            m,
          ),
      ),
    ).toEqual([]);
  });
});

describe('a CRD schema with the JSONSchemaProps unions', () => {
  it('decodes additionalProperties false, a tuple of items and a dependencies list', async () => {
    const crd = FIXTURES.find((f) => f.object('x').kind === 'CustomResourceDefinition') as Fixture;
    const object = crd.object('unions');
    const spec = object.spec.versions[0].schema.openAPIV3Schema.properties.spec;
    spec.properties.closed = { type: 'object', additionalProperties: false };
    spec.properties.pair = { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] };
    spec.dependencies = { color: ['size'], port: { required: ['size'] } };
    spec.properties.any = { 'x-kubernetes-preserve-unknown-fields': true, default: { a: [1, 'b', null] } };
    const decoded: any = await decodeProtobufObject(protobufBody(object, { goZeros: true }));
    expect(decoded.spec.versions[0].schema.openAPIV3Schema.properties.spec).toEqual(spec);
  });
});
