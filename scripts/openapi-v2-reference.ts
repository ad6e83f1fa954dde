/**
 * Generates src/server/openapi/openapi-v2.generated.ts: what watchmark's `/openapi/v2` takes
 * from the reference kube-apiserver's as data, because no table of ours holds it: the
 * parameters' texts (the meta/v1 option types' field docs, as the installer turns them into query
 * parameters) and which ones each route action takes; the resources whose delete answers the
 * object; the server's own paths (`/api/`, `/version/`, OIDC discovery) and the special
 * subresources' paths (exec, log, proxy, token, ...); and the definitions the type table does not
 * build as the reference serves them (the List types, the meta types, a few v2-only shapes), whole.
 * The rest (every resource route, every other definition) watchmark builds by rule
 * (src/server/openapi/openapi-v2*.ts).
 *
 *   npx tsx scripts/openapi-v2-reference.ts        (needs `bash reference/build.sh` first)
 *
 * scripts/openapi-v2-diff.ts compares the two documents. The output is one JSON string, parsed
 * when the first `/openapi/v2` request loads the module.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findReferenceBinaries, REFERENCE_RELEASE, startReferenceServer } from '../src/process/index.js';
import { REGISTRY } from '../src/server/kinds/served/registry.js';
import { API_DESCRIPTIONS } from '../src/server/openapi/openapi-descriptions.generated.js';
import { OPENAPI_EXTRAS } from '../src/server/openapi/openapi-extras.generated.js';
import type { OpenApiV2Reference, V2ListTexts } from '../src/server/openapi/openapi-model.js';
import { tableDefinitions } from '../src/server/openapi/openapi-v2.js';
import { wrapDocComment as wrap } from './doc-comment.js';
import { referenceGet } from './reference-get.js';

const OUT = 'src/server/openapi/openapi-v2.generated.ts';
const REPO = fileURLToPath(new URL('..', import.meta.url));

type Json = Record<string, unknown>;
interface Swagger {
  info: Json;
  securityDefinitions: Json;
  security: unknown[];
  paths: Record<string, Json>;
  definitions: Record<string, Json>;
  parameters: Record<string, Json>;
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
/** A resource route's path: `/api/v1/...` or `/apis/<group>/<version>/...` below the group-version. */
const RESOURCE = /^\/(?:api\/v1|apis\/[^/]+\/[^/]+)\/[^/]+/;
/** The group-version discovery routes watchmark builds by rule (openapi-v2-paths.ts `discoveryPaths`). */
const DISCOVERY = /^\/(?:api\/v1\/|apis\/[^/]+\/|apis\/[^/]+\/[^/]+\/)$/;
/** A special subresource's path: beyond `{name}/`, neither status nor scale. */
const SPECIAL = /\/\{name\}\/(?!status$|scale$)[^/]+/;

function main(doc: Swagger): OpenApiV2Reference {
  const resolve = (p: Json): Json =>
    typeof p.$ref === 'string' ? doc.parameters[p.$ref.replace('#/parameters/', '')]! : p;
  const inline = (item: Json): Json => {
    const out: Json = {};
    for (const [key, value] of Object.entries(item)) {
      if (key === 'parameters') out.parameters = (value as Json[]).map(resolve);
      else if (METHODS.includes(key) && (value as Json).parameters) {
        out[key] = { ...(value as Json), parameters: ((value as Json).parameters as Json[]).map(resolve) };
      } else out[key] = value;
    }
    return out;
  };

  // The parameters each action's route takes, read off one kind that has every verb (Leases).
  const parameters: Record<string, Json> = {};
  const actionParameters: Record<string, string[]> = {};
  const label = (p: Json, action: string): string => {
    for (const candidate of [String(p.name), `${p.name}@${action}`]) {
      const known = parameters[candidate];
      if (!known) {
        parameters[candidate] = p;
        return candidate;
      }
      if (canonical(known) === canonical(p)) return candidate;
    }
    throw new Error(`three variants of parameter ${p.name}`);
  };
  const base = '/apis/coordination.k8s.io/v1';
  const routes: Array<[string, string[]]> = [
    [`${base}/namespaces/{namespace}/leases`, ['get', 'post', 'delete']],
    [`${base}/namespaces/{namespace}/leases/{name}`, ['get', 'put', 'delete', 'patch']],
    [`${base}/watch/namespaces/{namespace}/leases/{name}`, ['get']],
    [`${base}/watch/namespaces/{namespace}/leases`, ['get']],
  ];
  for (const [path, methods] of routes) {
    const item = doc.paths[path]!;
    for (const method of methods) {
      const op = item[method] as Json;
      const action = String(op['x-kubernetes-action']);
      const all = [...((item.parameters ?? []) as Json[]), ...((op.parameters ?? []) as Json[])].map(resolve);
      const labels: string[] = [];
      for (const p of all) {
        if (p.name === 'name' && p.in === 'path') continue;
        if (p.name === 'namespace' || p.name === 'pretty') {
          label(p, action);
          continue;
        }
        const ref = ((p.schema as Json | undefined)?.$ref ?? '') as string;
        if (p.in === 'body' && !ref.startsWith('#/definitions/io.k8s.apimachinery')) continue;
        labels.push(label(p, action));
      }
      actionParameters[action] = labels;
    }
  }

  const deleteReturnsObject: string[] = [];
  const staticPaths: Record<string, Json> = {};
  const subresourcePaths: Record<string, Json> = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    const del = item.delete as Json | undefined;
    if (del?.['x-kubernetes-action'] === 'delete') {
      const ref = ((del.responses as Record<string, Json>)['200']?.schema as Json | undefined)?.$ref;
      if (ref !== '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Status') {
        const m = /^\/(?:api\/v1|apis\/([^/]+)\/[^/]+)\/(?:namespaces\/\{namespace\}\/)?([^/]+)\/\{name\}$/.exec(path);
        if (!m) throw new Error(`delete route of unknown shape: ${path}`);
        deleteReturnsObject.push(`${m[1] ?? ''}/${m[2]}`);
      }
    }
    if (DISCOVERY.test(path)) continue;
    if (!RESOURCE.test(path)) staticPaths[path] = inline(item);
    else if (SPECIAL.test(path)) subresourcePaths[path] = inline(item);
  }

  // Each List's texts; the apiVersion and kind texts every List shares under ''.
  const lists: Record<string, V2ListTexts> = {};
  const text = (schema: Json | undefined) => (typeof schema?.description === 'string' ? schema.description : null);
  for (const [name, definition] of Object.entries(doc.definitions)) {
    if (!name.endsWith('List')) continue;
    const props = (definition.properties ?? {}) as Record<string, Json>;
    lists[''] ??= [text(props.apiVersion), text(props.kind), null];
    lists[name] = [text(definition), text(props.items), text(props.metadata)];
  }

  // The definitions the type table and the List rule would build otherwise, every built-in kind served.
  const table = tableDefinitions(REGISTRY, { ...API_DESCRIPTIONS, extras: OPENAPI_EXTRAS }, lists);
  const definitions: Record<string, Json> = {};
  for (const [name, definition] of Object.entries(doc.definitions)) {
    // Custom resources' definitions (none in a fresh reference) are built by custom-schema.ts.
    if (!name.startsWith('io.k8s.')) continue;
    if (canonical(table(name)) !== canonical(definition)) definitions[name] = definition;
  }
  // A List the rule does not build stays whole in definitions; its texts are not needed.
  for (const name of Object.keys(lists)) if (name && definitions[name]) delete lists[name];
  return {
    info: doc.info,
    securityDefinitions: doc.securityDefinitions,
    security: doc.security,
    parameters,
    actionParameters,
    deleteReturnsObject: deleteReturnsObject.sort(),
    staticPaths,
    subresourcePaths,
    lists,
    definitions,
  };
}

/** `data` with each long text that occurs more than once replaced by `{ $text: i }`, and the texts. */
function shareTexts(data: unknown): { texts: string[]; compact: unknown } {
  const counts = new Map<string, number>();
  const count = (n: unknown): void => {
    if (typeof n === 'string' && n.length >= 40) counts.set(n, (counts.get(n) ?? 0) + 1);
    else if (n && typeof n === 'object') for (const v of Object.values(n)) count(v);
  };
  count(data);
  const texts = [...counts].filter(([, c]) => c > 1).map(([t]) => t);
  const index = new Map(texts.map((t, i) => [t, i]));
  const replace = (n: unknown): unknown => {
    if (typeof n === 'string') return index.has(n) ? { $text: index.get(n) } : n;
    if (Array.isArray(n)) return n.map(replace);
    if (n && typeof n === 'object') return Object.fromEntries(Object.entries(n).map(([k, v]) => [k, replace(v)]));
    return n;
  };
  return { texts, compact: replace(data) };
}

async function run(): Promise<void> {
  const binaries = findReferenceBinaries();
  if (!binaries) throw new Error('the reference binaries are not built: run bash reference/build.sh');
  console.log(`starting the reference kube-apiserver ${REFERENCE_RELEASE.kube} ...`);
  const ref = await startReferenceServer({ profile: 'envtest', binaries, log: null });
  let doc: Swagger;
  try {
    doc = JSON.parse(await referenceGet(`${ref.url}/openapi/v2`, ref.token, ref.caPem, 'application/json'));
  } finally {
    await ref.close();
  }
  const data = main(doc);
  const header = `/**
 * ${wrap(
   `What watchmark's /openapi/v2 takes from kube-apiserver ${REFERENCE_RELEASE.kube}'s as data (see OpenApiV2Reference in openapi-model.ts): parameter texts and which route actions take them, the resources whose delete answers the object, the server's own paths and the special subresources' paths, and the definitions the type table does not build as the reference serves them. GENERATED by scripts/openapi-v2-reference.ts from the reference's /openapi/v2 (Kubernetes' own API description, Apache-2.0): do not edit; regenerate with \`npx tsx scripts/openapi-v2-reference.ts\`.`,
 )}
 *
 * Imported on the first /openapi/v2 request (openapi.ts loads openapi-v2.ts lazily), never at start-up.
 */`;
  const { texts, compact } = shareTexts(data);
  const text = `${header}
import type { OpenApiV2Reference } from './openapi-model.js';

/** The long texts that occur more than once, each once. */
const TEXTS: readonly string[] = JSON.parse(${JSON.stringify(JSON.stringify(texts))});

/** One JSON string, parsed on load; \`{"$text": i}\` stands for TEXTS[i]. */
export const V2_REFERENCE: OpenApiV2Reference = JSON.parse(${JSON.stringify(JSON.stringify(compact))}, (_key, value) =>
  typeof value?.$text === 'number' ? TEXTS[value.$text] : value,
);
`;
  writeFileSync(`${REPO}/${OUT}`, text);
  console.log(
    `wrote ${OUT}: ${Object.keys(data.parameters).length} parameters, ${Object.keys(data.staticPaths).length} static and ${Object.keys(data.subresourcePaths).length} subresource paths, ${Object.keys(data.definitions).length} definitions, ${text.length} bytes`,
  );
}

await run();
