/**
 * The `/openapi/v2` routes of a custom resource's version, as apiextensions-apiserver publishes
 * them (pkg/controller/openapi/builder/builder.go): see {@link customKindRoutes}.
 */
import type { ResourceKind } from '../kinds/types.js';
import { listKindOf } from './custom-openapi.js';
import { schemaNameOf } from './openapi-schemas.js';
import {
  actionParams,
  article,
  bodyParam,
  DEFINITIONS,
  groupPascal,
  groupTag,
  type Json,
  nameParam,
  param,
  type Route,
  responses,
  STATUS,
} from './openapi-v2-routes.js';

/** A custom resource takes no strategic merge patch. */
const CUSTOM_PATCH_MEDIA = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/apply-patch+yaml',
];

/**
 * The routes of one version of a custom resource, as apiextensions-apiserver publishes them
 * (pkg/controller/openapi/builder/builder.go `generateBuilder`, `buildRoute`): no watch routes,
 * JSON and YAML only, three patch types, each verb with its options type's parameters (a read
 * takes GetOptions' resourceVersion, deletecollection ListOptions'), a patch answering 200 only.
 */
export function customKindRoutes(k: ResourceKind): Map<string, Route[]> {
  const routes = new Map<string, Route[]>();
  const add = (path: string, route: Route) => routes.set(path, [...(routes.get(path) ?? []), route]);
  const all = `/apis/${k.group}/${k.version}/${k.plural}`;
  const collection = k.namespaced ? `/apis/${k.group}/${k.version}/namespaces/{namespace}/${k.plural}` : all;
  const prefix = `${groupPascal(k.group)}${k.version.charAt(0).toUpperCase()}${k.version.slice(1)}`;
  const scope = k.namespaced ? 'Namespaced' : '';
  const tag = `${groupTag(k.group)}_${k.version}`;
  const gvk = { group: k.group, kind: k.kind, version: k.version };
  const objectRef = `${DEFINITIONS}${schemaNameOf(k)}`;
  const listRef = `${DEFINITIONS}${schemaNameOf({ ...k, kind: listKindOf(k) })}`;
  const media = ['application/json', 'application/yaml'];
  const pretty = param('pretty');
  const scopeParams = k.namespaced ? [param('namespace')] : [];
  const op = (
    description: string,
    operationId: string,
    action: string,
    answers: Json,
    consumes = media,
  ): Json => ({
    description,
    consumes,
    produces: media,
    schemes: ['https'],
    tags: [tag],
    operationId,
    responses: answers,
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk,
  });
  const ok = { '200': 'OK' };
  const listParams = actionParams('list');
  if (k.namespaced) {
    const list = op(
      `list objects of kind ${k.kind}`,
      `list${prefix}${k.kind}ForAllNamespaces`,
      'list',
      responses(ok, listRef),
    );
    add(all, { method: 'get', operation: list, parameters: [pretty, ...listParams] });
  }
  const list = op(
    `list objects of kind ${k.kind}`,
    `list${prefix}${scope}${k.kind}`,
    'list',
    responses(ok, listRef),
  );
  add(collection, { method: 'get', operation: list, parameters: [...scopeParams, pretty, ...listParams] });
  const create = op(
    `create${article(k.kind)}${k.kind}`,
    `create${prefix}${scope}${k.kind}`,
    'post',
    responses({ '200': 'OK', '201': 'Created', '202': 'Accepted' }, objectRef),
  );
  add(collection, {
    method: 'post',
    operation: create,
    parameters: [...scopeParams, pretty, bodyParam(objectRef), ...actionParams('post')],
  });
  const delAll = op(
    `delete collection of ${k.kind}`,
    `delete${prefix}Collection${scope}${k.kind}`,
    'deletecollection',
    responses(ok, STATUS),
  );
  add(collection, {
    method: 'delete',
    operation: delAll,
    parameters: [...scopeParams, pretty, ...listParams],
  });
  const itemRoutes = (path: string, sub: '' | 'status' | 'scale') => {
    const ref = sub === 'scale' ? `${DEFINITIONS}io.k8s.api.autoscaling.v1.Scale` : objectRef;
    const Sub = sub === 'status' ? 'Status' : sub === 'scale' ? 'Scale' : '';
    const what = sub ? `${sub} of the specified ${k.kind}` : `the specified ${k.kind}`;
    const params = [nameParam(k.kind), ...scopeParams, pretty];
    const id = `${prefix}${scope}${k.kind}${Sub}`;
    const read = op(`read ${what}`, `read${id}`, 'get', responses(ok, ref));
    add(path, { method: 'get', operation: read, parameters: [...params, param('resourceVersion')] });
    const replace = op(
      `replace ${what}`,
      `replace${id}`,
      'put',
      responses({ '200': 'OK', '201': 'Created' }, ref),
    );
    add(path, {
      method: 'put',
      operation: replace,
      parameters: [...params, bodyParam(ref), ...actionParams('put')],
    });
    if (!sub) {
      const del = op(
        `delete${article(k.kind)}${k.kind}`,
        `delete${id}`,
        'delete',
        responses({ '200': 'OK', '202': 'Accepted' }, STATUS),
      );
      add(path, { method: 'delete', operation: del, parameters: [...params, ...actionParams('delete')] });
    }
    const patch = op(
      `partially update ${what}`,
      `patch${id}`,
      'patch',
      responses(ok, ref),
      CUSTOM_PATCH_MEDIA,
    );
    add(path, { method: 'patch', operation: patch, parameters: [...params, ...actionParams('patch')] });
  };
  itemRoutes(`${collection}/{name}`, '');
  if (k.subresources.includes('status')) itemRoutes(`${collection}/{name}/status`, 'status');
  if (k.subresources.includes('scale')) itemRoutes(`${collection}/{name}/scale`, 'scale');
  return routes;
}
