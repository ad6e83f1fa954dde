/**
 * Compares watchmark's `/openapi/v2` with the reference kube-apiserver's, structurally, and
 * prints one count per category (top-level fields, shared parameters, definitions, paths,
 * operations by field), so that progress toward the same document shows in numbers.
 *
 *   npx tsx scripts/openapi-v2-diff.ts                 (starts both servers; needs reference/build.sh)
 *   npx tsx scripts/openapi-v2-diff.ts --crd           (a CustomResourceDefinition created on both first)
 *   npx tsx scripts/openapi-v2-diff.ts --show 5        (up to 5 examples per category)
 *   npx tsx scripts/openapi-v2-diff.ts --save DIR      (writes DIR/reference.json, DIR/watchmark.json)
 *   npx tsx scripts/openapi-v2-diff.ts --from DIR      (compares two saved documents, no servers)
 *
 * "Missing" paths and definitions of resources watchmark does not serve yet are counted apart
 * (`unserved`): they arrive with their kinds, not with this document's builder.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { findReferenceBinaries, startReferenceServer } from '../src/process/index.js';
import { startServer } from '../src/server/index.js';
import { referenceGet } from './reference-get.js';

type Json = Record<string, unknown>;
interface Swagger {
  paths: Record<string, Json>;
  definitions: Record<string, Json>;
  parameters?: Record<string, Json>;
  [key: string]: unknown;
}

const { values: args } = parseArgs({
  options: {
    crd: { type: 'boolean', default: false },
    show: { type: 'string', default: '0' },
    save: { type: 'string' },
    from: { type: 'string' },
  },
});
const SHOW = Number(args.show);

/** The CRDs created on both with `--crd`: a schema touching the v2 conversion rules, and a cluster-scoped one with two versions. */
const CLUSTER_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'racks.diff.example.com' },
  spec: {
    group: 'diff.example.com',
    scope: 'Cluster',
    names: { plural: 'racks', singular: 'rack', kind: 'Rack' },
    versions: ['v1', 'v1beta1'].map((name) => ({
      name,
      served: true,
      storage: name === 'v1',
      schema: {
        openAPIV3Schema: {
          type: 'object',
          properties: { spec: { type: 'object', properties: { units: { type: 'integer' } } } },
        },
      },
    })),
  },
};
const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.diff.example.com' },
  spec: {
    group: 'diff.example.com',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            description: 'Gadget is a thing.',
            properties: {
              spec: {
                type: 'object',
                required: ['size'],
                properties: {
                  size: { type: 'integer', format: 'int32', minimum: 1, description: 'size in units.' },
                  replicas: { type: 'integer' },
                  color: { type: 'string', enum: ['red', 'blue'], default: 'red' },
                  port: { 'x-kubernetes-int-or-string': true },
                  note: { type: 'string', nullable: true },
                  tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
                  blob: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                },
              },
              status: { type: 'object', properties: { replicas: { type: 'integer' } } },
            },
          },
        },
      },
    ],
  },
};

function post(url: string, token: string | undefined, ca: string | undefined, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const req = request(url, { method: 'POST', agent: new Agent({ ca }), headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** Polls `/openapi/v2` until the CRD's definition is in it (both servers publish it a moment later). */
async function fetchV2(url: string, token: string, ca: string, waitFor?: string): Promise<string> {
  for (let i = 0; ; i++) {
    const text = await referenceGet(`${url}/openapi/v2`, token, ca, 'application/json');
    if (!waitFor || text.includes(waitFor) || i > 60) return text;
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function fetchBoth(): Promise<[string, string]> {
  const binaries = findReferenceBinaries();
  if (!binaries) throw new Error('the reference binaries are not built: run bash reference/build.sh');
  const ref = await startReferenceServer({ profile: 'envtest', binaries, log: null });
  const wm = await startServer({});
  try {
    const waitFor = args.crd ? 'com.example.diff.v1beta1.Rack' : undefined;
    if (args.crd) {
      for (const s of [
        { url: ref.url, token: ref.token, ca: ref.caPem },
        { url: wm.url, token: wm.token, ca: wm.caPem },
      ]) {
        for (const crd of [CRD, CLUSTER_CRD]) {
          const code = await post(`${s.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, s.token, s.ca, crd);
          if (code !== 201) throw new Error(`creating the CRD on ${s.url}: ${code}`);
        }
      }
    }
    return await Promise.all([
      fetchV2(ref.url, ref.token, ref.caPem, waitFor),
      fetchV2(wm.url, wm.token ?? '', wm.caPem ?? '', waitFor),
    ]);
  } finally {
    await Promise.all([ref.close(), wm.close()]);
  }
}

/** JSON with sorted keys: two values are equal when these strings are. */
function canonical(value: unknown): string {
  if (value === undefined) return 'undefined';
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Json).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

const counts = new Map<string, number>();
const examples = new Map<string, string[]>();
function count(category: string, example: string): void {
  counts.set(category, (counts.get(category) ?? 0) + 1);
  const list = examples.get(category) ?? [];
  if (list.length < SHOW) list.push(example);
  examples.set(category, list);
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** The resource part of a path (`/apis/g/v/namespaces/{namespace}/plural`), to tell served from unserved. */
function resourceOf(path: string): string {
  const m = /^\/(?:api|apis\/[^/]+)\/[^/]+\/(?:watch\/)?(?:namespaces\/\{namespace\}\/)?([^/{]+)/.exec(path);
  return m ? `${path.split('/').slice(1, path.startsWith('/api/') ? 3 : 4).join('/')}/${m[1]}` : path;
}

/** A parameter with its `$ref` to `#/parameters/` resolved. */
function resolve(doc: Swagger, p: Json): Json {
  const ref = p.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/parameters/')) return doc.parameters?.[ref.slice(13)] ?? p;
  return p;
}

function compare(ref: Swagger, wm: Swagger): void {
  for (const key of new Set([...Object.keys(ref), ...Object.keys(wm)])) {
    if (key === 'paths' || key === 'definitions' || key === 'parameters') continue;
    if (!same(ref[key], wm[key])) count(`top-level ${key}`, `${canonical(ref[key])} | ${canonical(wm[key])}`);
  }
  const rp = ref.parameters ?? {};
  const wp = wm.parameters ?? {};
  for (const name of Object.keys(rp)) {
    if (!(name in wp)) count('parameters: missing', name);
    else if (!same(rp[name], wp[name])) count('parameters: differing', name);
  }
  for (const name of Object.keys(wp)) if (!(name in rp)) count('parameters: extra', name);

  const wmResources = new Set(Object.keys(wm.paths).map(resourceOf));
  for (const [name, def] of Object.entries(ref.definitions)) {
    const other = wm.definitions[name];
    if (!other) {
      count('definitions: missing', name);
      continue;
    }
    if (same(def, other)) continue;
    count('definitions: differing', name);
    for (const key of new Set([...Object.keys(def), ...Object.keys(other)])) {
      if (key === 'properties') {
        const a = (def.properties ?? {}) as Json;
        const b = (other.properties ?? {}) as Json;
        for (const prop of new Set([...Object.keys(a), ...Object.keys(b)])) {
          if (!same(a[prop], b[prop])) {
            count('definitions: property differing', `${name}.${prop}: ${canonical(a[prop])} | ${canonical(b[prop])}`);
          }
        }
      } else if (!same(def[key], other[key])) {
        count(`definitions: ${key} differing`, `${name}: ${canonical(def[key])} | ${canonical(other[key])}`);
      }
    }
  }
  for (const name of Object.keys(wm.definitions)) if (!(name in ref.definitions)) count('definitions: extra', name);

  for (const [path, item] of Object.entries(ref.paths)) {
    const other = wm.paths[path];
    if (!other) {
      count(wmResources.has(resourceOf(path)) ? 'paths: missing (served resource)' : 'paths: missing (unserved)', path);
      continue;
    }
    const rParams = ((item.parameters ?? []) as Json[]).map((p) => resolve(ref, p));
    const wParams = ((other.parameters ?? []) as Json[]).map((p) => resolve(wm, p));
    if (!same(rParams, wParams)) count('paths: path parameters differing', path);
    else if (!same(item.parameters, other.parameters)) count('paths: path parameters $ref form differing', path);
    for (const method of METHODS) {
      const a = item[method] as Json | undefined;
      const b = other[method] as Json | undefined;
      if (!a && !b) continue;
      if (!a || !b) {
        count(a ? 'operations: missing' : 'operations: extra', `${method.toUpperCase()} ${path}`);
        continue;
      }
      if (same(a, b)) continue;
      count('operations: differing', `${method.toUpperCase()} ${path}`);
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
        if (key === 'parameters') {
          const ra = ((a.parameters ?? []) as Json[]).map((p) => resolve(ref, p));
          const rb = ((b.parameters ?? []) as Json[]).map((p) => resolve(wm, p));
          if (!same(ra, rb)) {
            count('operations: parameters differing', `${method.toUpperCase()} ${path}: ${canonical(ra).slice(0, 400)} | ${canonical(rb).slice(0, 400)}`);
          } else if (!same(a.parameters, b.parameters)) {
            count('operations: parameters $ref form differing', `${method.toUpperCase()} ${path}`);
          }
        } else if (!same(a[key], b[key])) {
          count(`operations: ${key} differing`, `${method.toUpperCase()} ${path}: ${canonical(a[key]).slice(0, 300)} | ${canonical(b[key]).slice(0, 300)}`);
        }
      }
    }
  }
  for (const path of Object.keys(wm.paths)) if (!(path in ref.paths)) count('paths: extra', path);
}

async function main(): Promise<void> {
  let refText: string;
  let wmText: string;
  if (args.from) {
    refText = readFileSync(join(args.from, 'reference.json'), 'utf8');
    wmText = readFileSync(join(args.from, 'watchmark.json'), 'utf8');
  } else {
    [refText, wmText] = await fetchBoth();
  }
  if (args.save) {
    mkdirSync(args.save, { recursive: true });
    writeFileSync(join(args.save, 'reference.json'), refText);
    writeFileSync(join(args.save, 'watchmark.json'), wmText);
  }
  const ref = JSON.parse(refText) as Swagger;
  const wm = JSON.parse(wmText) as Swagger;
  compare(ref, wm);
  const equal = canonical(ref) === canonical(wm);
  console.log(
    `reference: ${Object.keys(ref.paths).length} paths, ${Object.keys(ref.definitions).length} definitions, ${refText.length} bytes`,
  );
  console.log(
    `watchmark: ${Object.keys(wm.paths).length} paths, ${Object.keys(wm.definitions).length} definitions, ${wmText.length} bytes`,
  );
  for (const [category, n] of [...counts].sort(([a], [b]) => (a < b ? -1 : 1))) {
    console.log(`${String(n).padStart(6)}  ${category}`);
    for (const e of examples.get(category) ?? []) console.log(`          ${e}`);
  }
  console.log(equal ? 'byte-equal after key sorting' : `${counts.size} categories differ`);
}

await main();
