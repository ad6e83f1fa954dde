/**
 * What the CRD cases share: the group and paths (every group holds `$n`), the default
 * schema and CRD, and the steps that install one and wait until it serves.
 */

import type { Step } from '../../types.js';

export const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
export const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io';
export const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
export const GROUP = 'g$n.example.com';
export const CRD_NAME = `widgets.${GROUP}`;
export const API_VERSION = `${GROUP}/v1`;
export const NS_COLLECTION = `/apis/${GROUP}/v1/namespaces/$ns/widgets`;
export const MERGE = { 'content-type': 'application/merge-patch+json' };
export const JSON_PATCH = { 'content-type': 'application/json-patch+json' };
export const APPLY = { 'content-type': 'application/apply-patch+yaml' };
export const APPROVAL = 'status.conditions[type=KubernetesAPIApprovalPolicyConformant]';
export const NAMES = 'status.conditions[type=NamesAccepted]';
export const APPROVAL_PICK = [
  `${APPROVAL}.status`,
  `${APPROVAL}.reason`,
  `${APPROVAL}.message`,
  `${NAMES}.status`,
  `${NAMES}.reason`,
  'status.conditions[type=Established].type',
];
/** A list's parts but its resourceVersion (the reference's moves with writes of its own). */
export const LIST_PICK = ['kind', 'apiVersion', 'items', 'metadata.remainingItemCount'];
export const TABLE_PICK = ['kind', 'apiVersion', 'columnDefinitions', 'rows'];

export type Schema = Record<string, unknown>;

/** The default schema: a spec with a few typed fields, and a status. */
export function widgetSchema(spec: Schema = {}, extra: Schema = {}): Schema {
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          size: { type: 'integer' },
          color: { type: 'string' },
          replicas: { type: 'integer' },
          tags: { type: 'array', items: { type: 'string' } },
          ...spec,
        },
      },
      status: {
        type: 'object',
        properties: {
          phase: { type: 'string' },
          replicas: { type: 'integer' },
          selector: { type: 'string' },
        },
      },
      ...extra,
    },
  };
}

export interface CrdOptions {
  schema?: Schema;
  scope?: 'Namespaced' | 'Cluster';
  versions?: Array<Record<string, unknown>>;
  subresources?: Record<string, unknown>;
  columns?: Array<Record<string, unknown>>;
  selectableFields?: Array<Record<string, unknown>>;
  names?: Record<string, unknown>;
  group?: string;
  name?: string;
}

export function crd(o: CrdOptions = {}): Record<string, unknown> {
  const group = o.group ?? GROUP;
  const version: Record<string, unknown> = {
    name: 'v1',
    served: true,
    storage: true,
    schema: { openAPIV3Schema: o.schema ?? widgetSchema() },
  };
  if (o.subresources) version.subresources = o.subresources;
  if (o.columns) version.additionalPrinterColumns = o.columns;
  if (o.selectableFields) version.selectableFields = o.selectableFields;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: o.name ?? `widgets.${group}` },
    spec: {
      group,
      scope: o.scope ?? 'Namespaced',
      names: o.names ?? { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: o.versions ?? [version],
    },
  };
}

/** Creates the CRD (not compared) and waits until it is Established on the server. */
export function install(body: Record<string, unknown> = crd(), name = CRD_NAME): Step[] {
  return [
    { request: { method: 'POST', path: CRDS, body }, compare: false },
    established(name),
    ...serving(body),
  ];
}

/**
 * Waits until every served version's objects can be listed: kube-apiserver answers 429 (its
 * watch cache of the new resource still initialising) for a moment after Established.
 */
export function serving(body: Record<string, unknown>): Step[] {
  const spec = body.spec as {
    group: string;
    names: { plural: string; kind: string; listKind?: string };
    versions: Array<{ name: string; served: boolean }>;
  };
  return spec.versions
    .filter((v) => v.served)
    .map((v) => ({
      waitFor: {
        path: `/apis/${spec.group}/${v.name}/${spec.names.plural}`,
        field: 'kind',
        equals: spec.names.listKind ?? `${spec.names.kind}List`,
      },
    }));
}

/** An object with the resourceVersion a step saved as `rv`. */
export function withRv(obj: Record<string, unknown>): Record<string, unknown> {
  return { ...obj, metadata: { ...(obj.metadata as Record<string, unknown>), resourceVersion: '$rv' } };
}

/** A setup step that saves the object's resourceVersion as `rv`. */
export function saved(step: Step): Step {
  return { ...step, compare: false, save: { rv: 'metadata.resourceVersion' } } as Step;
}

export function established(name: string): Step {
  return { waitFor: { path: `${CRDS}/${name}`, field: 'status.conditions.1.status', equals: 'True' } };
}

export function widget(
  name: string,
  spec: Record<string, unknown> = { size: 1 },
  extra: Record<string, unknown> = {},
) {
  return { apiVersion: API_VERSION, kind: 'Widget', metadata: { name }, spec, ...extra };
}

export function post(body: unknown, query?: Record<string, string>, path = NS_COLLECTION): Step {
  return { request: { method: 'POST', path, body, ...(query ? { query } : {}) } };
}

export function setup(step: Step): Step {
  return { ...step, compare: false } as Step;
}

export function patch(
  path: string,
  headers: Record<string, string>,
  body: unknown,
  query?: Record<string, string>,
): Step {
  return { request: { method: 'PATCH', path, headers, body, ...(query ? { query } : {}) } };
}

/** Adds one case to the corpus (`crds/` prepended to its id). */
export type Add = (id: string, steps: Step[], namespace?: boolean) => void;
