/**
 * What the `/openapi/v2` route builders share (openapi-v2-paths.ts for built-in kinds,
 * openapi-v2-custom-paths.ts for custom resources): a route as kube-openapi's builder reads it
 * from go-restful, the names the installer gives (operation ids, tags, the article of a noun),
 * the reference's parameter texts (openapi-v2.generated.ts), and the grouping of routes into path
 * items (kube-openapi pkg/builder/openapi.go `buildPaths`): a parameter every route of a path
 * takes (a body excepted) moves to the path item (`findCommonParameters`), and each list is
 * sorted by name, then location (util.go `sortParameters`).
 */
import { V2_REFERENCE } from './openapi-v2.generated.js';

export type Json = Record<string, unknown>;

/** One route: a method on a path, its operation (without parameters) and every parameter it takes. */
export interface Route {
  method: 'get' | 'put' | 'post' | 'delete' | 'patch';
  operation: Json;
  parameters: Json[];
}

export const DEFINITIONS = '#/definitions/';
export const STATUS = `${DEFINITIONS}io.k8s.apimachinery.pkg.apis.meta.v1.Status`;
export const WATCH_EVENT = `${DEFINITIONS}io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent`;
export const OBJECT_MEDIA = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
export const STREAM_MEDIA = [
  ...OBJECT_MEDIA,
  'application/json;stream=watch',
  'application/vnd.kubernetes.protobuf;stream=watch',
];
export const PATCH_MEDIA = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

/** `apps` → `Apps`, `flowcontrol.apiserver.k8s.io` → `FlowcontrolApiserver` (installer.go's operation names). */
export function groupPascal(group: string): string {
  if (!group) return 'Core';
  return group
    .replace(/\.k8s\.io$/, '')
    .split(/[.-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** The tag of a group (`flowcontrolApiserver`, `core`): the Pascal name with a lower-case first letter. */
export function groupTag(group: string): string {
  const pascal = groupPascal(group);
  return group ? pascal.charAt(0).toLowerCase() + pascal.slice(1) : 'core';
}

/**
 * ` a `, ` an ` or, for a plural noun (Endpoints, not a class), ` `: installer.go `GetArticleForNoun`.
 */
export function article(noun: string): string {
  if (noun.endsWith('s') && !noun.endsWith('ss')) return ' ';
  return /^[aeiou]/i.test(noun) ? ' an ' : ' a ';
}

/** A named parameter the reference's routes share (openapi-v2.generated.ts). */
export function param(label: string): Json {
  const p = V2_REFERENCE.parameters[label];
  if (!p) throw new Error(`openapi v2: no reference parameter ${label}`);
  return p as Json;
}

export function actionParams(action: string): Json[] {
  return (V2_REFERENCE.actionParameters[action] ?? []).map(param);
}

/** The path parameter `name` of a route answering `kind` (installer.go `nameParam`). */
export function nameParam(kind: string): Json {
  return {
    uniqueItems: true,
    type: 'string',
    description: `name of the ${kind}`,
    name: 'name',
    in: 'path',
    required: true,
  };
}

/** The request body of create and replace: the kind itself (never shared, dedup rule). */
export function bodyParam(ref: string): Json {
  return { name: 'body', in: 'body', required: true, schema: { $ref: ref } };
}

export function responses(codes: Record<string, string>, ref: string): Json {
  const out: Json = {};
  for (const [code, description] of Object.entries(codes)) out[code] = { description, schema: { $ref: ref } };
  out['401'] = { description: 'Unauthorized' };
  return out;
}

/** Sorted by name, then location (kube-openapi util.go `byNameIn`). */
function sortParameters(list: Json[]): Json[] {
  const key = (p: Json) => [String(p.name), String(p.in)] as const;
  return [...list].sort((a, b) => {
    const [an, ai] = key(a);
    const [bn, bi] = key(b);
    return an < bn ? -1 : an > bn ? 1 : ai < bi ? -1 : ai > bi ? 1 : 0;
  });
}

/**
 * Path items from routes, as kube-openapi `buildPaths` makes them: the parameters every route
 * takes (by name and location, bodies excepted) on the path item, the rest on each operation.
 */
export function pathItem(routes: Route[]): Json {
  const keyOf = (p: Json) => `${p.name}\u0000${p.in}`;
  const counts = new Map<string, number>();
  for (const r of routes) for (const p of r.parameters) counts.set(keyOf(p), (counts.get(keyOf(p)) ?? 0) + 1);
  const common = (p: Json) => p.in !== 'body' && counts.get(keyOf(p)) === routes.length;
  const item: Json = {};
  for (const r of routes) {
    const own = sortParameters(r.parameters.filter((p) => !common(p)));
    const { responses: answers, ...head } = r.operation;
    const { 'x-kubernetes-action': action, 'x-kubernetes-group-version-kind': gvk, ...rest } = head;
    item[r.method] = {
      ...rest,
      ...(own.length > 0 ? { parameters: own } : {}),
      responses: answers,
      ...(action === undefined ? {} : { 'x-kubernetes-action': action }),
      ...(gvk === undefined ? {} : { 'x-kubernetes-group-version-kind': gvk }),
    };
  }
  const shared = sortParameters(routes[0]?.parameters.filter(common) ?? []);
  if (shared.length > 0) item.parameters = shared;
  return item;
}
