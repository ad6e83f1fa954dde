/**
 * Generates src/server/openapi/openapi-v3.generated.ts: what watchmark's `/openapi/v3` documents
 * take from the reference kube-apiserver's as data: a built-in document's `info` and security
 * scheme, and the schemas no rule of ours builds as the reference serves them (the meta/v1
 * Status, WatchEvent, APIResourceList, ...), whole. Paths come from the v2 routes
 * (openapi-v3-paths.ts) and every other schema by rule (openapi-v3-components.ts).
 *
 *   npx tsx scripts/openapi-v3-reference.ts        (needs `bash reference/build.sh` first)
 *
 * scripts/openapi-v3-diff.ts compares the documents.
 */
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { fileURLToPath } from 'node:url';
import { findReferenceBinaries, REFERENCE_RELEASE, startReferenceServer } from '../src/process/index.js';
import { REGISTRY } from '../src/server/kinds/served/registry.js';
import { API_DESCRIPTIONS } from '../src/server/openapi/openapi-descriptions.generated.js';
import { OPENAPI_EXTRAS } from '../src/server/openapi/openapi-extras.generated.js';
import type { OpenApiV3Reference } from '../src/server/openapi/openapi-model.js';
import { PER_GROUP_VERSION_SCHEMAS, schemaSource } from '../src/server/openapi/openapi-v3-components.js';
import { wrapDocComment as wrap } from './doc-comment.js';
import { referenceGet } from './reference-get.js';

const OUT = 'src/server/openapi/openapi-v3.generated.ts';
const REPO = fileURLToPath(new URL('..', import.meta.url));

type Json = Record<string, unknown>;
interface Document {
  info: Json;
  components?: { schemas?: Record<string, Json>; securitySchemes?: Json };
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** A custom resource definition, so that apiextensions-apiserver's document shows its meta types. */
const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.v3.example.com' },
  spec: {
    group: 'v3.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

function createCrd(url: string, token: string, ca: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    const path = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
    const req = request(`${url}${path}`, { method: 'POST', agent: new Agent({ ca }), headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`creating the CRD: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(JSON.stringify(CRD));
  });
}

async function fetchDocuments(): Promise<Map<string, Document>> {
  const binaries = findReferenceBinaries();
  if (!binaries) throw new Error('the reference binaries are not built: run bash reference/build.sh');
  console.log(`starting the reference kube-apiserver ${REFERENCE_RELEASE.kube} ...`);
  const ref = await startReferenceServer({ profile: 'envtest', binaries, log: null });
  try {
    const get = (path: string) => referenceGet(`${ref.url}${path}`, ref.token, ref.caPem);
    await createCrd(ref.url, ref.token, ref.caPem);
    // apiextensions-apiserver publishes the definition's document a moment later.
    for (let i = 0; i < 60 && !(await get('/openapi/v3')).includes(`apis/${CRD.spec.group}/v1`); i++) {
      await new Promise((r) => setTimeout(r, 500));
    }
    const root = JSON.parse(await get('/openapi/v3')) as { paths: Record<string, { serverRelativeURL: string }> };
    const docs = new Map<string, Document>();
    for (const [key, { serverRelativeURL }] of Object.entries(root.paths)) {
      docs.set(key, JSON.parse(await get(serverRelativeURL)) as Document);
    }
    return docs;
  } finally {
    await ref.close();
  }
}

/** Schemas whose group-version-kinds name the document's group-version (openapi-v3-components.ts `PER_GROUP_VERSION`). */
const PER_GROUP_VERSION = new Set(PER_GROUP_VERSION_SCHEMAS);

function main(docs: Map<string, Document>): OpenApiV3Reference {
  const apps = docs.get('apis/apps/v1');
  const core = docs.get('api/v1');
  const custom = docs.get(`apis/${CRD.spec.group}/v1`);
  if (!apps || !core || !custom) throw new Error('the reference serves no apis/apps/v1, api/v1 or custom document');
  const seen = new Map<string, Json>();
  for (const [key, doc] of docs) {
    if (key.startsWith(`apis/${CRD.spec.group}/`)) continue;
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      if (PER_GROUP_VERSION.has(name)) continue;
      const before = seen.get(name);
      if (before && canonical(before) !== canonical(schema)) throw new Error(`${name} differs between documents (${key})`);
      seen.set(name, schema);
    }
  }
  // The core document's form (the core group-version-kind alone); other groups add their own.
  for (const name of PER_GROUP_VERSION) {
    const schema = core.components?.schemas?.[name];
    if (schema) seen.set(name, schema);
  }
  const rules = schemaSource(REGISTRY, { ...API_DESCRIPTIONS, extras: OPENAPI_EXTRAS }, {});
  const definitions: Record<string, Json> = {};
  for (const [name, schema] of [...seen].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (canonical(rules(name)) !== canonical(schema)) definitions[name] = schema;
  }
  // apiextensions-apiserver's documents take the meta types from the whole scheme: their own forms.
  const customDefinitions: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(custom.components?.schemas ?? {})) {
    if (!name.startsWith('io.k8s.')) continue;
    if (canonical(definitions[name] ?? rules(name)) !== canonical(schema)) customDefinitions[name] = schema;
  }
  return {
    info: apps.info,
    securitySchemes: apps.components?.securitySchemes ?? {},
    definitions,
    customDefinitions,
  };
}

const data = main(await fetchDocuments());
const text = `/**
 * ${wrap(
   `What watchmark's /openapi/v3 documents take from kube-apiserver ${REFERENCE_RELEASE.kube}'s as data (see OpenApiV3Reference in openapi-model.ts): a built-in document's info and security scheme, and the schemas no rule builds as the reference serves them, whole. GENERATED by scripts/openapi-v3-reference.ts from the reference's /openapi/v3 documents (Kubernetes' own API description, Apache-2.0): do not edit; regenerate with \`npx tsx scripts/openapi-v3-reference.ts\`.`,
 )}
 *
 * Imported on the first /openapi/v3 request (non-resource.ts loads openapi.ts lazily), never at start-up.
 */
import type { OpenApiV3Reference } from './openapi-model.js';

/** One JSON string, parsed on load. */
export const V3_REFERENCE: OpenApiV3Reference = JSON.parse(${JSON.stringify(JSON.stringify(data))});
`;
writeFileSync(`${REPO}/${OUT}`, text);
console.log(`wrote ${OUT}: ${Object.keys(data.definitions).length} definitions (${Object.keys(data.definitions).join(', ')}), ${text.length} bytes`);
