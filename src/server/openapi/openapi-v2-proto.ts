/**
 * The Swagger 2.0 document in the protobuf form kubectl asks `/openapi/v2` for
 * (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`): gnostic's openapi_v2
 * `Document` (github.com/google/gnostic openapiv2/OpenAPIv2.proto), as kube-openapi's handler
 * serves it (`ToProtoBinary`). Only the parts openapi-v2.ts writes are encoded. Values of any
 * JSON (`default`, `enum`, `example`, `x-*` extensions) are an `Any` holding their YAML text;
 * kubectl (kube-openapi util/proto) reads them back with a YAML parser, and JSON is YAML.
 */
import type { SwaggerDocument } from './openapi-v2.js';

type Json = Record<string, unknown>;

/** A protobuf message being written: fields appended in the order they are given. */
class Writer {
  private readonly parts: Buffer[] = [];

  private tag(field: number, wire: number): void {
    this.varint(BigInt((field << 3) | wire));
  }

  private varint(n: bigint): void {
    // Negative int64s are their two's complement: ten bytes.
    let v = n < 0n ? (1n << 64n) + n : n;
    const bytes: number[] = [];
    do {
      let b = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) b |= 0x80;
      bytes.push(b);
    } while (v > 0n);
    this.parts.push(Buffer.from(bytes));
  }

  string(field: number, value: unknown): this {
    if (typeof value !== 'string' || value === '') return this;
    const bytes = Buffer.from(value, 'utf8');
    this.tag(field, 2);
    this.varint(BigInt(bytes.length));
    this.parts.push(bytes);
    return this;
  }

  strings(field: number, values: unknown): this {
    if (Array.isArray(values)) for (const v of values) this.string(field, String(v));
    return this;
  }

  bool(field: number, value: unknown): this {
    if (value !== true) return this;
    this.tag(field, 0);
    this.varint(1n);
    return this;
  }

  /** A bool that is a oneof's member: written even when false. */
  oneofBool(field: number, value: boolean): this {
    this.tag(field, 0);
    this.varint(value ? 1n : 0n);
    return this;
  }

  int64(field: number, value: unknown): this {
    if (typeof value !== 'number' || value === 0 || !Number.isInteger(value)) return this;
    this.tag(field, 0);
    this.varint(BigInt(value));
    return this;
  }

  double(field: number, value: unknown): this {
    if (typeof value !== 'number' || value === 0) return this;
    this.tag(field, 1);
    const b = Buffer.alloc(8);
    b.writeDoubleLE(value);
    this.parts.push(b);
    return this;
  }

  /** An embedded message, written even when empty (a oneof member or a present object). */
  message(field: number, body: Writer | undefined): this {
    if (!body) return this;
    const bytes = body.bytes();
    this.tag(field, 2);
    this.varint(BigInt(bytes.length));
    this.parts.push(bytes);
    return this;
  }

  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** openapi_v2.Any: the value's YAML text (JSON is YAML). */
function any(value: unknown): Writer {
  return new Writer().string(2, JSON.stringify(value));
}

/** The `x-*` keys of an object as repeated NamedAny at `field`. */
function vendorExtensions(w: Writer, field: number, obj: Json): void {
  for (const [key, value] of Object.entries(obj)) {
    if (key.startsWith('x-')) w.message(field, new Writer().string(1, key).message(2, any(value)));
  }
}

/** openapi_v2.Schema. */
function schema(s: Json): Writer {
  const w = new Writer().string(1, s.$ref).string(2, s.format).string(3, s.title).string(4, s.description);
  if (s.default !== undefined) w.message(5, any(s.default));
  w.double(6, s.multipleOf)
    .double(7, s.maximum)
    .bool(8, s.exclusiveMaximum)
    .double(9, s.minimum)
    .bool(10, s.exclusiveMinimum)
    .int64(11, s.maxLength)
    .int64(12, s.minLength)
    .string(13, s.pattern)
    .int64(14, s.maxItems)
    .int64(15, s.minItems)
    .bool(16, s.uniqueItems)
    .int64(17, s.maxProperties)
    .int64(18, s.minProperties)
    .strings(19, s.required);
  if (Array.isArray(s.enum)) for (const v of s.enum) w.message(20, any(v));
  if (isObject(s.additionalProperties)) {
    w.message(21, new Writer().message(1, schema(s.additionalProperties)));
  } else if (typeof s.additionalProperties === 'boolean') {
    // AdditionalPropertiesItem's oneof: a false boolean is still the member that is set.
    w.message(21, new Writer().oneofBool(2, s.additionalProperties));
  }
  if (typeof s.type === 'string') w.message(22, new Writer().string(1, s.type));
  if (isObject(s.items)) w.message(23, new Writer().message(1, schema(s.items)));
  if (Array.isArray(s.allOf)) for (const sub of s.allOf) if (isObject(sub)) w.message(24, schema(sub));
  if (isObject(s.properties)) {
    const props = new Writer();
    for (const [name, sub] of Object.entries(s.properties)) {
      if (isObject(sub)) props.message(1, new Writer().string(1, name).message(2, schema(sub)));
    }
    w.message(25, props);
  }
  if (isObject(s.externalDocs)) {
    w.message(29, new Writer().string(1, s.externalDocs.description).string(2, s.externalDocs.url));
  }
  if (s.example !== undefined) w.message(30, any(s.example));
  vendorExtensions(w, 31, s);
  return w;
}

/** openapi_v2.Parameter: a body parameter, or a query or path parameter's sub-schema. */
function parameterMessage(p: Json): Writer {
  if (p.in === 'body') {
    const body = new Writer().string(1, p.description).string(2, p.name).string(3, p.in).bool(4, p.required);
    if (isObject(p.schema)) body.message(5, schema(p.schema));
    return new Writer().message(1, body);
  }
  // Query and path sub-schemas share their first fields' numbers; the type sits at 6 in a
  // query parameter (after allow_empty_value) and at 5 in a path parameter.
  const sub = new Writer().bool(1, p.required).string(2, p.in).string(3, p.description).string(4, p.name);
  if (p.in === 'query') sub.string(6, p.type).bool(20, p.uniqueItems);
  else sub.string(5, p.type).bool(19, p.uniqueItems);
  return new Writer().message(2, new Writer().message(p.in === 'query' ? 3 : 4, sub));
}

/** openapi_v2.ParametersItem: a parameter, or a JsonReference to the shared table (`#/parameters/...`). */
function parameter(p: Json): Writer {
  if (typeof p.$ref === 'string') return new Writer().message(2, new Writer().string(1, p.$ref));
  return new Writer().message(1, parameterMessage(p));
}

/** openapi_v2.Operation. */
function operation(op: Json): Writer {
  const w = new Writer()
    .strings(1, op.tags)
    .string(3, op.description)
    .string(5, op.operationId)
    .strings(6, op.produces)
    .strings(7, op.consumes);
  if (Array.isArray(op.parameters)) for (const p of op.parameters) w.message(8, parameter(p as Json));
  if (isObject(op.responses)) {
    const responses = new Writer();
    for (const [code, r] of Object.entries(op.responses)) {
      if (!isObject(r)) continue;
      const response = new Writer().string(1, r.description);
      if (isObject(r.schema)) response.message(2, new Writer().message(1, schema(r.schema)));
      responses.message(1, new Writer().string(1, code).message(2, new Writer().message(1, response)));
    }
    w.message(9, responses);
  }
  w.strings(10, op.schemes);
  vendorExtensions(w, 13, op);
  return w;
}

const PATH_METHODS: Record<string, number> = { get: 2, put: 3, post: 4, delete: 5, patch: 8 };

/** The document as gnostic's openapi_v2.Document bytes. */
export function encodeOpenApiV2(doc: SwaggerDocument): Buffer {
  const paths = new Writer();
  for (const [path, item] of Object.entries(doc.paths)) {
    const w = new Writer();
    for (const [method, field] of Object.entries(PATH_METHODS)) {
      if (isObject(item[method])) w.message(field, operation(item[method] as Json));
    }
    if (Array.isArray(item.parameters)) for (const p of item.parameters) w.message(9, parameter(p as Json));
    paths.message(2, new Writer().string(1, path).message(2, w));
  }
  const definitions = new Writer();
  for (const [name, s] of Object.entries(doc.definitions)) {
    definitions.message(1, new Writer().string(1, name).message(2, schema(s)));
  }
  const parameters = new Writer();
  for (const [name, p] of Object.entries(doc.parameters)) {
    parameters.message(1, new Writer().string(1, name).message(2, parameterMessage(p)));
  }
  // The security requirements: each a map of scheme name to scopes (StringArray).
  const security = doc.security.filter(isObject).map((requirement) => {
    const w = new Writer();
    for (const [name, scopes] of Object.entries(requirement)) {
      w.message(1, new Writer().string(1, name).message(2, new Writer().strings(1, scopes)));
    }
    return w;
  });
  // Only API-key schemes (kube-apiserver's BearerToken) are written.
  const securityDefinitions = new Writer();
  for (const [name, d] of Object.entries(doc.securityDefinitions)) {
    if (!isObject(d) || d.type !== 'apiKey') continue;
    const apiKey = new Writer().string(1, d.type).string(2, d.name).string(3, d.in).string(4, d.description);
    securityDefinitions.message(1, new Writer().string(1, name).message(2, new Writer().message(2, apiKey)));
  }
  const w = new Writer()
    .string(1, doc.swagger)
    .message(2, new Writer().string(1, doc.info.title).string(2, doc.info.version))
    .message(8, paths)
    .message(9, definitions)
    .message(10, parameters);
  for (const requirement of security) w.message(12, requirement);
  return w.message(13, securityDefinitions).bytes();
}
