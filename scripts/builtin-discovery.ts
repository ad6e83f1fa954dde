/**
 * Generates src/server/kinds/discovery.generated.ts: every resource the reference
 * kube-apiserver serves by default, as its aggregated discovery (`/api`, `/apis` as
 * apidiscovery.k8s.io/v2) lists it (group order, versions, names, short names, kinds, scope,
 * verbs, categories, subresources with their verbs and kinds), and the Table columns its
 * printers define for each listable resource (a Table of the empty list: the column
 * definitions without a row). The reference is the list: a kind watchmark serves takes its names
 * and verbs from here, so `kubectl api-resources -o wide` prints the same on both.
 *
 *   npx tsx scripts/builtin-discovery.ts        (needs `bash reference/build.sh` first)
 *
 * test/fidelity/cases/discovery.yaml compares the live answers; this table is what watchmark's
 * side is built from. The output is formatted by biome, so lint accepts it as is.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { fileURLToPath } from 'node:url';
import { findReferenceBinaries, REFERENCE_RELEASE, startReferenceServer } from '../src/process/index.js';
import type { BuiltinGroup, BuiltinResource, GeneratedColumn } from '../src/server/kinds/types.js';
import { wrapDocComment as wrap } from './doc-comment.js';

export const GENERATED = 'src/server/kinds/discovery.generated.ts';
const REPO = fileURLToPath(new URL('..', import.meta.url));

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

interface Gvk {
  group: string;
  version: string;
  kind: string;
}
interface DiscoveryResource {
  resource: string;
  responseKind: Gvk;
  scope: 'Namespaced' | 'Cluster';
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: Array<{ subresource: string; responseKind?: Gvk; verbs: string[] }>;
}
interface DiscoveryList {
  items: Array<{
    metadata: { name?: string };
    versions: Array<{ version: string; resources: DiscoveryResource[] }>;
  }>;
}

function get(url: string, token: string, ca: string, accept: string): Promise<string> {
  const agent = new Agent({ ca });
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { authorization: `Bearer ${token}`, accept } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) reject(new Error(`GET ${url}: ${res.statusCode} ${text}`));
        else resolve(text);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function main(): Promise<void> {
  const binaries = findReferenceBinaries();
  if (!binaries) throw new Error('the reference binaries are not built: run bash reference/build.sh');
  console.log(`starting the reference kube-apiserver ${REFERENCE_RELEASE.kube} ...`);
  const ref = await startReferenceServer({ profile: 'envtest', binaries, log: null });
  try {
    const read = (path: string, accept: string) => get(`${ref.url}${path}`, ref.token, ref.caPem, accept);
    const groups: BuiltinGroup[] = [];
    for (const root of ['/api', '/apis']) {
      const list = JSON.parse(await read(root, AGGREGATED)) as DiscoveryList;
      for (const item of list.items) {
        const group = item.metadata.name ?? '';
        groups.push({ group, versions: item.versions.map((v) => v.version) });
        for (const v of item.versions) {
          for (const r of v.resources) {
            const entry: BuiltinResource = {
              group,
              version: v.version,
              plural: r.resource,
              singular: r.singularResource,
              kind: r.responseKind.kind,
              namespaced: r.scope === 'Namespaced',
              verbs: r.verbs,
              shortNames: r.shortNames ?? [],
              categories: r.categories ?? [],
              subresources: (r.subresources ?? []).map((s) => ({
                name: s.subresource,
                verbs: s.verbs,
                ...(s.responseKind && s.responseKind.kind !== r.responseKind.kind
                  ? { kind: { ...s.responseKind } }
                  : {}),
              })),
            };
            if (r.verbs.includes('list')) {
              const base = group === '' ? `/api/${v.version}` : `/apis/${group}/${v.version}`;
              const path = `${base}/${r.resource}?limit=1&fieldSelector=metadata.name%3Dnone`;
              const table = JSON.parse(await read(path, TABLE)) as { columnDefinitions: GeneratedColumn[] };
              entry.columns = table.columnDefinitions.map((c) => ({
                name: c.name,
                type: c.type,
                format: c.format,
                description: c.description,
                priority: c.priority,
              }));
            }
            resources.push(entry);
          }
        }
      }
    }
    write(groups);
  } finally {
    await ref.close();
  }
}

const resources: BuiltinResource[] = [];

function write(groups: BuiltinGroup[]): void {
  const header = `/**
 * ${wrap(
    `Every resource kube-apiserver ${REFERENCE_RELEASE.kube} serves by default, as its aggregated discovery lists it, and the Table columns of each listable one. GENERATED by scripts/builtin-discovery.ts from the reference (reference/build.sh): do not edit; regenerate with \`npx tsx scripts/builtin-discovery.ts\`.`,
  )}
 */`;
  const text = `${header}
import type { BuiltinGroup, BuiltinResource } from './types.js';

/** The groups in the reference's discovery order, each with its versions, preferred first. */
export const BUILTIN_GROUPS: readonly BuiltinGroup[] = ${JSON.stringify(groups)};

/** Every resource, group by group in discovery order, plural order within a version. */
export const BUILTIN_RESOURCES: readonly BuiltinResource[] = ${JSON.stringify(resources)};
`;
  writeFileSync(`${REPO}/${GENERATED}`, text);
  execFile('npx', ['biome', 'format', '--write', GENERATED], { cwd: REPO }, (err) => {
    if (err) console.error(err.message);
    console.log(`wrote ${GENERATED}: ${resources.length} resources in ${groups.length} groups`);
  });
}

await main();
