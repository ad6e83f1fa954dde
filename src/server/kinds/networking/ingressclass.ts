/**
 * The IngressClass (networking.k8s.io/v1): its default (pkg/apis/networking/v1/defaults.go: a
 * parameters reference without scope is Cluster-scoped), validation (pkg/apis/networking/
 * validation `ValidateIngressClass`, `ValidateIngressClassUpdate`: the controller a
 * domain-prefixed path of at most 250 characters, set once; the parameters reference), the
 * strategy's generation and printers.go `printIngressClass` (the Name cell marks the default
 * class).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject, type JsonObject, rec, specOf, str } from '../access.js';
import { builtinKind } from '../builtin.js';
import { ageColumn, nameColumnDoc } from '../columns.js';
import type { FieldError, ResourceKind } from '../types.js';
import { forbidden, invalid, notSupported, required, tooLong, validateObjectMeta } from '../validation.js';
import { isDNS1123Label, isDNS1123Subdomain, isPathSegmentName } from '../validation-names.js';
import { validateDomainPrefixedPath } from './names.js';

/** networking `AnnotationIsDefaultIngressClass`. */
const DEFAULT_CLASS_ANNOTATION = 'ingressclass.kubernetes.io/is-default-class';

/** `SetDefaults_IngressClass`. */
export function defaultIngressClass(obj: KubeObject): void {
  const params = rec(obj.spec).parameters;
  if (isObject(params) && (params.scope === undefined || params.scope === null)) params.scope = 'Cluster';
}

/**
 * `validateIngressClassParametersReference`. The kind's and name's Required errors are covered by
 * declarative validation, which reports them after every hand-written error: they go to `late`.
 */
function validateParameters(params: JsonObject, path: string, late: FieldError[]): FieldError[] {
  const errors: FieldError[] = [];
  if (typeof params.apiGroup === 'string') {
    for (const msg of isDNS1123Subdomain(params.apiGroup))
      errors.push(invalid(`${path}.apiGroup`, params.apiGroup, msg));
  }
  for (const f of ['kind', 'name'] as const) {
    const v = str(params[f]);
    if (v === '') late.push(required(`${path}.${f}`));
    else for (const msg of isPathSegmentName(v)) errors.push(invalid(`${path}.${f}`, v, msg));
  }
  if (params.scope === undefined || params.scope === null) {
    errors.push(required(`${path}.scope`));
    return errors;
  }
  const scope = str(params.scope);
  if (scope !== 'Namespace' && scope !== 'Cluster') {
    errors.push(notSupported(`${path}.scope`, scope, ['Cluster', 'Namespace']));
  } else if (scope === 'Namespace') {
    if (typeof params.namespace !== 'string') {
      errors.push(required(`${path}.namespace`, "`parameters.scope` is set to 'Namespace'"));
    } else {
      for (const msg of isDNS1123Label(params.namespace)) {
        errors.push(invalid(`${path}.namespace`, params.namespace, msg));
      }
    }
  } else if (typeof params.namespace === 'string') {
    errors.push(forbidden(`${path}.namespace`, "`parameters.scope` is set to 'Cluster'"));
  }
  return errors;
}

/** `ValidateIngressClass`: the metadata, the controller, the parameters. */
function validateClass(obj: KubeObject, late: FieldError[]): FieldError[] {
  const errors = validateObjectMeta(obj);
  const spec = rec(obj.spec);
  const controller = str(spec.controller);
  if (controller.length > 250) errors.push(tooLong('spec.controller', 250));
  errors.push(...validateDomainPrefixedPath('spec.controller', controller));
  if (isObject(spec.parameters)) errors.push(...validateParameters(spec.parameters, 'spec.parameters', late));
  return errors;
}

/**
 * `ValidateIngressClass`, and on an update `ValidateIngressClassUpdate`: the immutable
 * controller first, then the whole class again.
 */
export function validateIngressClass(obj: KubeObject, old?: KubeObject): FieldError[] {
  const late: FieldError[] = [];
  if (!old) return [...validateClass(obj, late), ...late];
  const controller = str(specOf(obj).controller);
  const immutable =
    controller === str(specOf(old).controller)
      ? []
      : [invalid('spec.controller', controller, 'field is immutable')];
  return [...immutable, ...validateClass(obj, late), ...late];
}

/** `printIngressClass`: the parameters as `Kind.group/name`. */
function parametersCell(o: KubeObject): string {
  const params = rec(specOf(o)).parameters;
  if (!isObject(params)) return '<none>';
  let text = str(params.kind);
  if (typeof params.apiGroup === 'string') text += `.${params.apiGroup}`;
  return `${text}/${str(params.name)}`;
}

const base = builtinKind('networking.k8s.io', 'v1', 'ingressclasses', {
  generationFields: ['spec'],
  defaults: defaultIngressClass,
  validate: validateIngressClass,
  cells: {
    Controller: (o) => str(specOf(o).controller),
    Parameters: parametersCell,
    Age: ageColumn.cell,
  },
});

/** The IngressClass's entry: its own Name cell, ` (default)` on the default class. */
export const ingressClassKind: ResourceKind = {
  ...base,
  columnsIncludeName: true,
  columns: [
    {
      name: 'Name',
      type: 'string',
      format: 'name',
      fieldDoc: nameColumnDoc,
      priority: 0,
      cell: (o) => {
        const name = str(o.metadata?.name);
        return o.metadata?.annotations?.[DEFAULT_CLASS_ANNOTATION] === 'true' ? `${name} (default)` : name;
      },
    },
    ...base.columns,
  ],
};
