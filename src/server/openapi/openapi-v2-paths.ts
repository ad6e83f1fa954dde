/**
 * The `/openapi/v2` paths of the built-in kinds, route by route as kube-apiserver's installer
 * registers them (k8s.io/apiserver pkg/endpoints/installer.go `registerResourceHandlers`: list,
 * create, deletecollection, read, replace, delete, patch, the deprecated `watch` and
 * `watchlist` routes, the status and scale subresources, the all-namespaces list and watch),
 * then grouped into path items as kube-openapi's builder does (pkg/builder/openapi.go
 * `buildPaths`): a parameter every route of a path takes (a body excepted) moves to the path
 * item (`findCommonParameters`), and each list is sorted by name, then location
 * (util.go `sortParameters`, openapi-v2-routes.ts). The parameters' own texts are the
 * reference's (openapi-v2.generated.ts); a route's special subresources (exec, log, proxy, token,
 * ...) come whole from there too.
 */
import type { ResourceKind } from '../kinds/types.js';
import { groupVersionsOf, resourceVerbs, subresourceVerbs } from './discovery.js';
import { schemaNameOf } from './openapi-schemas.js';
import { V2_REFERENCE } from './openapi-v2.generated.js';
import { customKindRoutes } from './openapi-v2-custom-paths.js';
import {
  actionParams,
  article,
  bodyParam,
  DEFINITIONS,
  groupPascal,
  groupTag,
  type Json,
  nameParam,
  OBJECT_MEDIA,
  PATCH_MEDIA,
  param,
  pathItem,
  type Route,
  responses,
  STATUS,
  STREAM_MEDIA,
  WATCH_EVENT,
} from './openapi-v2-routes.js';

/** The routes of one built-in kind, by path. */
function kindRoutes(k: ResourceKind): Map<string, Route[]> {
  const routes = new Map<string, Route[]>();
  const add = (path: string, route: Route) => routes.set(path, [...(routes.get(path) ?? []), route]);
  const base = k.group ? `/apis/${k.group}/${k.version}` : `/api/${k.version}`;
  const ns = k.namespaced ? 'namespaces/{namespace}/' : '';
  const collection = `${base}/${ns}${k.plural}`;
  const item = `${collection}/{name}`;
  const prefix = `${groupPascal(k.group)}${k.version.charAt(0).toUpperCase()}${k.version.slice(1)}`;
  const scope = k.namespaced ? 'Namespaced' : '';
  const tag = `${groupTag(k.group)}_${k.version}`;
  const gvk = { group: k.group, kind: k.kind, version: k.version };
  const objectRef = `${DEFINITIONS}${schemaNameOf(k)}`;
  const listRef = `${DEFINITIONS}${schemaNameOf({ ...k, kind: `${k.kind}List` })}`;
  const scopeParams = k.namespaced ? [param('namespace')] : [];
  const verbs = new Set(resourceVerbs(k));
  const op = (
    description: string,
    operationId: string,
    action: string,
    produces: string[],
    responseSchemas: Json,
    consumes = ['*/*'],
    opGvk: Json = gvk,
  ): Json => ({
    description,
    consumes,
    produces,
    schemes: ['https'],
    tags: [tag],
    operationId,
    responses: responseSchemas,
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': opGvk,
  });
  const ok = { '200': 'OK' };
  const pretty = param('pretty');

  if (verbs.has('list')) {
    const listed = verbs.has('watch') ? 'list or watch' : 'list';
    const list = op(
      `${listed} objects of kind ${k.kind}`,
      `list${prefix}${scope}${k.kind}`,
      'list',
      STREAM_MEDIA,
      responses(ok, listRef),
    );
    add(collection, {
      method: 'get',
      operation: list,
      parameters: [...scopeParams, pretty, ...actionParams('list')],
    });
    if (k.namespaced) {
      const all = op(
        `${listed} objects of kind ${k.kind}`,
        `list${prefix}${k.kind}ForAllNamespaces`,
        'list',
        STREAM_MEDIA,
        responses(ok, listRef),
      );
      add(`${base}/${k.plural}`, {
        method: 'get',
        operation: all,
        parameters: [pretty, ...actionParams('list')],
      });
    }
  }
  if (verbs.has('create')) {
    const create = op(
      `create${article(k.kind)}${k.kind}`,
      `create${prefix}${scope}${k.kind}`,
      'post',
      OBJECT_MEDIA,
      responses({ '200': 'OK', '201': 'Created', '202': 'Accepted' }, objectRef),
    );
    add(collection, {
      method: 'post',
      operation: create,
      parameters: [...scopeParams, pretty, bodyParam(objectRef), ...actionParams('post')],
    });
  }
  if (verbs.has('deletecollection')) {
    const del = op(
      `delete collection of ${k.kind}`,
      `delete${prefix}Collection${scope}${k.kind}`,
      'deletecollection',
      OBJECT_MEDIA,
      responses(ok, STATUS),
    );
    add(collection, {
      method: 'delete',
      operation: del,
      parameters: [...scopeParams, pretty, ...actionParams('deletecollection')],
    });
  }
  const itemParams = (kindName: string) => [nameParam(kindName), ...scopeParams, pretty];
  if (verbs.has('get')) {
    const read = op(
      `read the specified ${k.kind}`,
      `read${prefix}${scope}${k.kind}`,
      'get',
      OBJECT_MEDIA,
      responses(ok, objectRef),
    );
    add(item, { method: 'get', operation: read, parameters: itemParams(k.kind) });
  }
  if (verbs.has('update')) {
    const replace = op(
      `replace the specified ${k.kind}`,
      `replace${prefix}${scope}${k.kind}`,
      'put',
      OBJECT_MEDIA,
      responses({ '200': 'OK', '201': 'Created' }, objectRef),
    );
    add(item, {
      method: 'put',
      operation: replace,
      parameters: [...itemParams(k.kind), bodyParam(objectRef), ...actionParams('put')],
    });
  }
  if (verbs.has('delete')) {
    // A store that answers a delete with the object (ReturnDeletedObject) documents that.
    const answer = V2_REFERENCE.deleteReturnsObject.includes(`${k.group}/${k.plural}`) ? objectRef : STATUS;
    const del = op(
      `delete${article(k.kind)}${k.kind}`,
      `delete${prefix}${scope}${k.kind}`,
      'delete',
      OBJECT_MEDIA,
      responses({ '200': 'OK', '202': 'Accepted' }, answer),
    );
    add(item, {
      method: 'delete',
      operation: del,
      parameters: [...itemParams(k.kind), ...actionParams('delete')],
    });
  }
  if (verbs.has('patch')) {
    const patch = op(
      `partially update the specified ${k.kind}`,
      `patch${prefix}${scope}${k.kind}`,
      'patch',
      OBJECT_MEDIA,
      responses({ '200': 'OK', '201': 'Created' }, objectRef),
      PATCH_MEDIA,
    );
    add(item, {
      method: 'patch',
      operation: patch,
      parameters: [...itemParams(k.kind), ...actionParams('patch')],
    });
  }
  if (verbs.has('watch')) {
    const watchBase = `${base}/watch/${ns}${k.plural}`;
    const watchParams = actionParams('watch');
    const watchListParams = actionParams('watchlist');
    const one = op(
      `watch changes to an object of kind ${k.kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.`,
      `watch${prefix}${scope}${k.kind}`,
      'watch',
      STREAM_MEDIA,
      responses(ok, WATCH_EVENT),
    );
    add(`${watchBase}/{name}`, {
      method: 'get',
      operation: one,
      parameters: [...itemParams(k.kind), ...watchParams],
    });
    const listDescription = `watch individual changes to a list of ${k.kind}. deprecated: use the 'watch' parameter with a list operation instead.`;
    const list = op(
      listDescription,
      `watch${prefix}${scope}${k.kind}List`,
      'watchlist',
      STREAM_MEDIA,
      responses(ok, WATCH_EVENT),
    );
    add(watchBase, {
      method: 'get',
      operation: list,
      parameters: [...scopeParams, pretty, ...watchListParams],
    });
    if (k.namespaced) {
      const all = op(
        listDescription,
        `watch${prefix}${k.kind}ListForAllNamespaces`,
        'watchlist',
        STREAM_MEDIA,
        responses(ok, WATCH_EVENT),
      );
      add(`${base}/watch/${k.plural}`, {
        method: 'get',
        operation: all,
        parameters: [pretty, ...watchListParams],
      });
    }
  }
  for (const sub of subresourceVerbs(k)) {
    if (sub.name !== 'status' && sub.name !== 'scale') continue;
    const Sub = sub.name === 'status' ? 'Status' : 'Scale';
    // The scale subresource reads and writes an autoscaling/v1 Scale, whatever the parent kind.
    const subGvk = sub.name === 'scale' ? { group: 'autoscaling', kind: 'Scale', version: 'v1' } : gvk;
    const ref = sub.name === 'scale' ? `${DEFINITIONS}io.k8s.api.autoscaling.v1.Scale` : objectRef;
    const params = itemParams(sub.name === 'scale' ? 'Scale' : k.kind);
    const path = `${item}/${sub.name}`;
    const id = `${prefix}${scope}${k.kind}${Sub}`;
    const subOp = (
      description: string,
      opId: string,
      action: string,
      codes: Record<string, string>,
      consumes?: string[],
    ) => op(description, opId, action, OBJECT_MEDIA, responses(codes, ref), consumes, subGvk);
    if (sub.verbs.includes('get')) {
      add(path, {
        method: 'get',
        operation: subOp(`read ${sub.name} of the specified ${k.kind}`, `read${id}`, 'get', ok),
        parameters: params,
      });
    }
    if (sub.verbs.includes('update')) {
      const replace = subOp(`replace ${sub.name} of the specified ${k.kind}`, `replace${id}`, 'put', {
        '200': 'OK',
        '201': 'Created',
      });
      add(path, {
        method: 'put',
        operation: replace,
        parameters: [...params, bodyParam(ref), ...actionParams('put')],
      });
    }
    if (sub.verbs.includes('patch')) {
      const patch = subOp(
        `partially update ${sub.name} of the specified ${k.kind}`,
        `patch${id}`,
        'patch',
        { '200': 'OK', '201': 'Created' },
        PATCH_MEDIA,
      );
      add(path, { method: 'patch', operation: patch, parameters: [...params, ...actionParams('patch')] });
    }
  }
  return routes;
}

/** `/apis/<group>/` and `/apis/<group>/<version>/` (and `/api/v1/`): the discovery routes of the served groups. */
function discoveryPaths(kinds: readonly ResourceKind[]): Record<string, Json> {
  const paths: Record<string, Json> = {};
  const get = (description: string, tag: string, operationId: string, ref: string): Json => ({
    get: {
      description,
      consumes: OBJECT_MEDIA,
      produces: OBJECT_MEDIA,
      schemes: ['https'],
      tags: [tag],
      operationId,
      responses: responses(ok200, `${DEFINITIONS}io.k8s.apimachinery.pkg.apis.meta.v1.${ref}`),
    },
  });
  const ok200 = { '200': 'OK' };
  for (const { group, version } of groupVersionsOf(kinds.filter((k) => !k.custom))) {
    const prefix = `${groupPascal(group)}${version.charAt(0).toUpperCase()}${version.slice(1)}`;
    const tag = `${groupTag(group)}_${version}`;
    if (group) {
      paths[`/apis/${group}/`] = get(
        'get information of a group',
        groupTag(group),
        `get${groupPascal(group)}APIGroup`,
        'APIGroup',
      );
    }
    const at = group ? `/apis/${group}/${version}/` : `/api/${version}/`;
    paths[at] = get('get available resources', tag, `get${prefix}APIResources`, 'APIResourceList');
  }
  return paths;
}

/**
 * Every path of the built-in and custom kinds with their operations, parameters inline
 * (openapi-v2.ts shares them), plus the server's own routes (`/api/`, `/apis/`, `/version/`, the OIDC
 * discovery documents) and each served kind's special subresources as the reference lists them.
 */
export function v2Paths(kinds: readonly ResourceKind[]): Record<string, Json> {
  const paths: Record<string, Json> = { ...discoveryPaths(kinds) };
  for (const [path, item] of Object.entries(V2_REFERENCE.staticPaths)) paths[path] = item as Json;
  for (const k of kinds) {
    if (k.custom) {
      for (const [path, routes] of customKindRoutes(k)) paths[path] = pathItem(routes);
      continue;
    }
    for (const [path, routes] of kindRoutes(k)) paths[path] = pathItem(routes);
    const special = new Set(k.subresources.filter((s) => s !== 'status' && s !== 'scale'));
    if (special.size === 0) continue;
    const base = k.group ? `/apis/${k.group}/${k.version}` : `/api/${k.version}`;
    const item = `${base}/${k.namespaced ? 'namespaces/{namespace}/' : ''}${k.plural}/{name}/`;
    for (const [path, pathItemJson] of Object.entries(V2_REFERENCE.subresourcePaths)) {
      if (!path.startsWith(item)) continue;
      const sub = path.slice(item.length).split('/')[0] ?? '';
      if (special.has(sub)) paths[path] = pathItemJson as Json;
    }
  }
  return paths;
}
