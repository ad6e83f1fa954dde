/** What the protobuf-body suites share: the upstream schema, a Go client's encoding of a JSON object, and a round trip through a server. */
import protobuf from 'protobufjs';
import { expect } from 'vitest';
import { PROTOBUF_GROUP_VERSIONS, PROTOBUF_MAGIC } from '../../../src/server/http/protobuf-body.js';
import type { RunningServer } from '../../../src/server/index.js';
import {
  GO_FIELDS,
  INLINE,
  POINTER,
  PROTO_FILES,
} from '../../../src/server/protobuf/k8s-schema.generated.js';
import { call } from '../../helpers/server.js';
import type { Fixture } from './fixtures.js';

export const root = new protobuf.Root();
for (const file of PROTO_FILES) protobuf.parse(file, root, { keepCase: true });
root.resolveAll();

export const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
export const EXT = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1';

export function seconds(time: string): number {
  return Math.floor(Date.parse(time) / 1000);
}

export const json = (v: unknown) => ({ raw: Buffer.from(JSON.stringify(v)) });

/** The inverse of the server's mapping for the types with their own JSON form. */
export const SPECIAL: Record<string, (v: any, t: protobuf.Type) => unknown> = {
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

export function sub(type: protobuf.Type, field: string): protobuf.Type {
  return type.fields[field]?.resolvedType as protobuf.Type;
}

/** Whether toPlain writes the zero non-pointer fields too, as a Go client's gogo-protobuf does. */
let goZeros = false;

/** JSON object → the plain object `fromObject` takes, by the Go field table. */
export function toPlain(type: protobuf.Type, value: any): any {
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
export function protobufBody(object: any, options: { goZeros?: boolean } = {}): Buffer {
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

export const PROTOBUF = { 'content-type': 'application/vnd.kubernetes.protobuf' };

/** What differs between two creates of the same object: identity, times, allocations. */
export function comparable(object: any, fixture: Fixture): any {
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

export async function createAndReadOn(
  server: RunningServer,
  fixture: Fixture,
  name: string,
  body: Buffer | object,
): Promise<any> {
  const object = fixture.object(name);
  const headers = Buffer.isBuffer(body) ? PROTOBUF : undefined;
  const created = await call(server, 'POST', `${fixture.path}?fieldManager=test`, { body, headers });
  expect(created.status, `${object.kind} ${name}: ${created.text}`).toBe(201);
  const got = await call(server, 'GET', `${fixture.path}/${object.metadata.name}`);
  expect(got.status).toBe(200);
  return got.body;
}
