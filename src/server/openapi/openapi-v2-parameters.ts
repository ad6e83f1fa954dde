/**
 * The shared `parameters` of `/openapi/v2`, as kube-openapi's builder makes them
 * (pkg/builder/parameters.go `deduplicateParameters`): every parameter of every path and
 * operation moves to the top-level table and is referred to as `#/parameters/<name>-<hash>`,
 * except the ones a kind's name shows through (the `name` parameter, a body of the kind's own
 * schema) and the two kubectl looks for inline (`dryRun`, `fieldValidation`). The hash is FNV-1
 * 64 of the parameter's JSON, its first 6 bytes in URL-safe base64 (`base64Hash`), so a table
 * name changes exactly when the parameter's text does.
 */

type Json = Record<string, unknown>;

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;

/** JSON as Go's encoding/json writes it: `<`, `>`, `&`, U+2028 and U+2029 escaped. */
function goJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** FNV-1 (multiply, then xor) 64-bit hash, hash/fnv `New64`. */
function fnv64(text: string): bigint {
  let h = FNV_OFFSET;
  for (const byte of Buffer.from(text, 'utf8')) h = ((h * FNV_PRIME) & MASK) ^ BigInt(byte);
  return h;
}

/** `<name>-<8 characters>`: the table name of a parameter with JSON `json`. */
function sharedName(name: string, json: string): string {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(fnv64(json));
  return `${name}-${bytes.subarray(0, 6).toString('base64url')}`;
}

/** Whether kube-openapi keeps `p` inline (`collectSharedParameters`'s exceptions). */
function keptInline(p: Json): boolean {
  if ((p.in === 'query' || p.in === 'path') && p.name === 'name') return true;
  if (p.in === 'query' && (p.name === 'fieldValidation' || p.name === 'dryRun')) return true;
  if (p.in === 'body' && p.name === 'body') {
    const ref = (p.schema as Json | undefined)?.$ref;
    return !(typeof ref === 'string' && ref.startsWith('#/definitions/io.k8s.apimachinery'));
  }
  return typeof p.$ref === 'string';
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

/**
 * `paths` with their shareable parameters replaced by `$ref`s, and the table they refer to.
 * `paths` is not changed.
 */
export function shareParameters(paths: Record<string, Json>): {
  paths: Record<string, Json>;
  parameters: Record<string, Json>;
} {
  const names = new Map<string, string>();
  const parameters: Record<string, Json> = {};
  const collected = new Map<string, Json>();
  const collect = (p: Json) => {
    if (keptInline(p)) return;
    const json = goJson(p);
    if (!collected.has(json)) collected.set(json, p);
  };
  for (const item of Object.values(paths)) {
    for (const method of METHODS)
      for (const p of ((item[method] as Json | undefined)?.parameters ?? []) as Json[]) collect(p);
    for (const p of (item.parameters ?? []) as Json[]) collect(p);
  }
  // Named in the order of their JSON, a counter on the (unlikely) clash, as upstream.
  for (const json of [...collected.keys()].sort()) {
    const p = collected.get(json)!;
    let name = sharedName(String(p.name ?? 'param'), json);
    for (let i = 1; name in parameters; i++) name = `${p.name}-${i}`;
    parameters[name] = p;
    names.set(json, name);
  }
  const refer = (list: Json[]) =>
    list.map((p) => {
      const name = keptInline(p) ? undefined : names.get(goJson(p));
      return name ? { $ref: `#/parameters/${name}` } : p;
    });
  const out: Record<string, Json> = {};
  for (const [path, item] of Object.entries(paths)) {
    const copy: Json = { ...item };
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (op?.parameters) copy[method] = { ...op, parameters: refer(op.parameters as Json[]) };
    }
    if (item.parameters) copy.parameters = refer(item.parameters as Json[]);
    out[path] = copy;
  }
  return { paths: out, parameters };
}
