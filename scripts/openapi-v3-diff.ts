/**
 * Compares watchmark's `/openapi/v3` (the root and every group-version document) with the
 * reference kube-apiserver's: per document, the paths missing, extra and different, the
 * components, and whether the raw bytes (key order included) are the same.
 *
 *   npx tsx scripts/openapi-v3-diff.ts                 (starts both servers; needs reference/build.sh)
 *   npx tsx scripts/openapi-v3-diff.ts --crd           (CustomResourceDefinitions created on both first)
 *   npx tsx scripts/openapi-v3-diff.ts --show 5        (up to 5 differing paths per document)
 *   npx tsx scripts/openapi-v3-diff.ts --save DIR      (writes DIR/{reference,watchmark}/<gv>.json)
 *   npx tsx scripts/openapi-v3-diff.ts --from DIR      (compares two saved sets, no servers)
 *
 * Documents of group-versions watchmark does not serve yet are listed apart (`unserved`).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { findReferenceBinaries, startReferenceServer } from '../src/process/index.js';
import { startServer } from '../src/server/index.js';
import { referenceGet } from './reference-get.js';

type Json = Record<string, unknown>;
/** A side's documents: `root` is the `/openapi/v3` index, the rest keyed by group-version. */
type Documents = Map<string, string>;

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

const DIFF_CRDS = [CRD, CLUSTER_CRD];

/** JSON with sorted keys: two values are equal when these strings are. */
function canonicalJson(value: unknown): string {
  if (value === undefined) return 'undefined';
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Json).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}


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

/** The root and every document it lists; with `waitFor`, polls until the root lists that group-version. */
async function fetchAll(url: string, token: string, ca: string, waitFor?: string): Promise<Documents> {
  let root = '';
  for (let i = 0; ; i++) {
    root = await referenceGet(`${url}/openapi/v3`, token, ca);
    if (!waitFor || root.includes(waitFor) || i > 60) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const docs: Documents = new Map([['root', root]]);
  const paths = (JSON.parse(root) as { paths: Record<string, { serverRelativeURL: string }> }).paths;
  for (const [gv, { serverRelativeURL }] of Object.entries(paths)) {
    docs.set(gv, await referenceGet(`${url}${serverRelativeURL}`, token, ca));
  }
  return docs;
}

async function fetchBoth(): Promise<[Documents, Documents]> {
  const binaries = findReferenceBinaries();
  if (!binaries) throw new Error('the reference binaries are not built: run bash reference/build.sh');
  const ref = await startReferenceServer({ profile: 'envtest', binaries, log: null });
  const wm = await startServer({});
  try {
    const sides = [
      { url: ref.url, token: ref.token, ca: ref.caPem },
      { url: wm.url, token: wm.token ?? '', ca: wm.caPem ?? '' },
    ];
    if (args.crd) {
      for (const s of sides) {
        for (const crd of DIFF_CRDS) {
          const code = await post(`${s.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, s.token, s.ca, crd);
          if (code !== 201) throw new Error(`creating the CRD on ${s.url}: ${code}`);
        }
      }
    }
    const waitFor = args.crd ? 'apis/diff.example.com/v1beta1' : undefined;
    const [a, b] = await Promise.all(sides.map((s) => fetchAll(s.url, s.token, s.ca, waitFor)));
    return [a!, b!];
  } finally {
    await Promise.all([ref.close(), wm.close()]);
  }
}

function save(dir: string, docs: Documents): void {
  mkdirSync(dir, { recursive: true });
  for (const [gv, body] of docs) writeFileSync(join(dir, `${gv.replace(/\//g, '_')}.json`), body);
}

function load(dir: string): Documents {
  const docs: Documents = new Map();
  for (const f of readdirSync(dir)) docs.set(f.replace(/\.json$/, '').replace(/_/g, '/'), readFileSync(join(dir, f), 'utf8'));
  return docs;
}

/** The root's shape: the same group-versions, each a `/openapi/v3/<gv>?hash=<128 hex>` URL. */
function compareRoot(ref: string, wm: string): string[] {
  const shape = (text: string) =>
    Object.entries((JSON.parse(text) as { paths: Record<string, { serverRelativeURL: string }> }).paths).map(
      ([gv, { serverRelativeURL }]) => `${gv} ${serverRelativeURL.replace(/hash=[0-9A-F]{128}$/, 'hash=H')}`,
    );
  const a = shape(ref);
  const b = new Set(shape(wm));
  return a.filter((line) => !b.has(line)).map((line) => `root: missing or different: ${line}`);
}

function compareDocument(gv: string, ref: string, wm: string): string[] {
  const a = JSON.parse(ref) as Json;
  const b = JSON.parse(wm) as Json;
  const out: string[] = [];
  const pa = (a.paths ?? {}) as Record<string, Json>;
  const pb = (b.paths ?? {}) as Record<string, Json>;
  const missing = Object.keys(pa).filter((p) => !(p in pb));
  const extra = Object.keys(pb).filter((p) => !(p in pa));
  const differing = Object.keys(pa).filter((p) => p in pb && canonicalJson(pa[p]) !== canonicalJson(pb[p]));
  if (missing.length) out.push(`${gv}: ${missing.length} paths missing, e.g. ${missing.slice(0, 3).join(' ')}`);
  if (extra.length) out.push(`${gv}: ${extra.length} paths extra, e.g. ${extra.slice(0, 3).join(' ')}`);
  if (differing.length) out.push(`${gv}: ${differing.length} paths differ`);
  for (const p of differing.slice(0, SHOW)) {
    out.push(`  ${p}\n    reference: ${canonicalJson(pa[p]).slice(0, 1500)}\n    watchmark: ${canonicalJson(pb[p]).slice(0, 1500)}`);
  }
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (key !== 'paths' && canonicalJson(a[key]) !== canonicalJson(b[key])) out.push(`${gv}: ${key} differs`);
  }
  if (out.length === 0 && ref !== wm) out.push(`${gv}: same content, different bytes (key order)`);
  return out;
}

const [ref, wm] = args.from
  ? [load(join(args.from, 'reference')), load(join(args.from, 'watchmark'))]
  : await fetchBoth();
if (args.save) {
  save(join(args.save, 'reference'), ref);
  save(join(args.save, 'watchmark'), wm);
}
const report: string[] = [...compareRoot(ref.get('root') ?? '{}', wm.get('root') ?? '{}')];
const unserved: string[] = [];
let same = 0;
for (const [gv, body] of ref) {
  if (gv === 'root') continue;
  const mine = wm.get(gv);
  if (mine === undefined) {
    unserved.push(gv);
    continue;
  }
  const lines = compareDocument(gv, body, mine);
  if (lines.length === 0) same++;
  report.push(...lines);
}
for (const gv of wm.keys()) if (gv !== 'root' && !ref.has(gv)) report.push(`${gv}: served by watchmark only`);
console.log(report.join('\n'));
console.log(`${same} of ${ref.size - 1} documents byte-identical; unserved: ${unserved.join(' ') || 'none'}`);
if (args.from && !existsSync(args.from)) process.exitCode = 2;
