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
import { fileURLToPath } from 'node:url';
import { findReferenceBinaries, REFERENCE_RELEASE, startReferenceServer } from '../src/process/index.js';
import type { BuiltinGroup, BuiltinResource, GeneratedColumn } from '../src/server/kinds/types.js';
import { API_DESCRIPTIONS } from '../src/server/openapi/openapi-descriptions.generated.js';
import type { OpenApiTypeExtras } from '../src/server/openapi/openapi-model.js';
import { namedTypeSchemas } from '../src/server/openapi/openapi-schemas.js';
import { API_TYPES } from '../src/server/openapi/openapi-types.generated.js';
import { wrapDocComment as wrap } from './doc-comment.js';
import { referenceGet } from './reference-get.js';

export const GENERATED = 'src/server/kinds/discovery.generated.ts';
export const EXTRAS = 'src/server/openapi/openapi-extras.generated.ts';
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

const get = referenceGet;

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
    await writeExtras(read);
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

/** Keys sorted at every level: two schemas compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * The reference's schema parts watchmark's type and description tables would not give: every
 * type's own keys and each property's schema, where the reference's differ from what
 * `namedTypeSchemas` builds without extras (enums and their description lines, defaults, list
 * and map extensions, unions, the scalars' oneOf), from the documents the reference serves at
 * /openapi/v3.
 */
async function writeExtras(read: (path: string, accept: string) => Promise<string>): Promise<void> {
  const index = JSON.parse(await read('/openapi/v3', 'application/json')) as {
    paths: Record<string, { serverRelativeURL: string }>;
  };
  const served = new Map<string, Record<string, unknown>>();
  for (const { serverRelativeURL } of Object.values(index.paths)) {
    const doc = JSON.parse(await read(serverRelativeURL, 'application/json')) as {
      components?: { schemas?: Record<string, Record<string, unknown>> };
    };
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      if (!served.has(name)) served.set(name, schema);
    }
  }
  const names = Object.keys(API_TYPES).filter((n) => served.has(n));
  const ours = namedTypeSchemas(names, API_DESCRIPTIONS) as Record<string, Record<string, unknown>>;
  const extras: Record<string, OpenApiTypeExtras> = {};
  const topOf = (schema: Record<string, unknown>) => {
    const { properties: _p, 'x-kubernetes-group-version-kind': _g, ...top } = schema;
    return top;
  };
  for (const name of names.sort()) {
    const ref = served.get(name)!;
    const mine = ours[name];
    if (!mine) continue;
    const entry: { top?: Record<string, unknown>; properties?: Record<string, Record<string, unknown>> } = {};
    if (canonical(topOf(ref)) !== canonical(topOf(mine))) entry.top = topOf(ref);
    const refProps = (ref.properties ?? {}) as Record<string, Record<string, unknown>>;
    const myProps = (mine.properties ?? {}) as Record<string, Record<string, unknown>>;
    for (const [field, schema] of Object.entries(refProps)) {
      const mineField = myProps[field] ?? {};
      // Only the keys that differ, a key the reference leaves out as null.
      const patch: Record<string, unknown> = {};
      for (const key of new Set([...Object.keys(schema), ...Object.keys(mineField)])) {
        if (canonical(schema[key]) !== canonical(mineField[key])) patch[key] = key in schema ? schema[key] : null;
      }
      if (Object.keys(patch).length > 0) (entry.properties ??= {})[field] = patch;
    }
    if (entry.top || entry.properties) extras[name] = entry;
  }
  const header = `/**
 * ${wrap(
   `The schema parts kube-apiserver ${REFERENCE_RELEASE.kube} serves in its OpenAPI v3 documents that the type and description tables do not give (enums and their description lines, defaults, list and map extensions, unions, the scalars' oneOf), by type: the type's own keys where they differ, and each property's keys that differ (null: a key the reference leaves out). GENERATED by scripts/builtin-discovery.ts from the reference's /openapi/v3 documents (Kubernetes' own API description, Apache-2.0): do not edit; regenerate with \`npx tsx scripts/builtin-discovery.ts\`.`,
  )}
 *
 * Loaded with the descriptions on the first /openapi request (openapi-descriptions.ts), never at start-up.
 */`;
  const text = `${header}
import type { OpenApiTypeExtras } from './openapi-model.js';

/** By type (OpenAPI name). One JSON string, parsed on load. */
export const OPENAPI_EXTRAS: Readonly<Record<string, OpenApiTypeExtras>> = JSON.parse(${JSON.stringify(JSON.stringify(extras))});
`;
  writeFileSync(`${REPO}/${EXTRAS}`, text);
  console.log(`wrote ${EXTRAS}: extras of ${Object.keys(extras).length} of ${names.length} types`);
}

await main();
