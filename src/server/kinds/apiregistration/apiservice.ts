/**
 * The APIService (apiregistration.k8s.io/v1, kube-aggregator): defaults
 * (pkg/apis/apiregistration/v1/defaults.go), validation (pkg/apis/apiregistration/validation
 * `ValidateAPIService`, `ValidateAPIServiceStatus`), strategy (pkg/registry/apiservice/strategy.go:
 * a local APIService is Available from its create, the status kept on update, the metadata kept on
 * a /status write, no create by PUT, no unconditional update) and Table cells
 * (pkg/registry/apiservice/etcd/etcd.go `ConvertToTable`).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject, objects, rec, str } from '../access.js';
import { translateTimestampSince } from '../age.js';
import { builtinKind } from '../builtin.js';
import type { FieldError } from '../types.js';
import { invalid, notSupported, required, validateObjectMeta } from '../validation.js';
import {
  isDNS1035Label,
  isDNS1123Subdomain,
  isPathSegmentName,
  isValidPortNum,
} from '../validation-names.js';

/** `SetDefaults_ServiceReference`: port 443. */
function defaultAPIService(obj: KubeObject): void {
  const service = rec(obj.spec).service;
  if (isObject(service)) service.port ??= 443;
  obj.status ??= {};
}

/** The byte length of a base64 `caBundle`. */
function bundleBytes(value: unknown): number {
  return typeof value === 'string' ? Buffer.from(value, 'base64').length : 0;
}

/** `ValidateAPIService`. */
export function validateAPIService(obj: KubeObject): FieldError[] {
  const spec = rec(obj.spec);
  const group = str(spec.group);
  const version = str(spec.version);
  const requiredName = `${version}.${group}`;
  // The name is a path segment, and must be `version.group`.
  const nameCheck = (name: string) => {
    const minimal = isPathSegmentName(name);
    if (minimal.length > 0) return minimal;
    return name === requiredName ? [] : [`must be \`spec.version+"."+spec.group\`: "${requiredName}"`];
  };
  // ValidateObjectMeta checks a generateName with the same rule first (as a prefix).
  const generateName = str(rec(obj.metadata).generateName);
  const errors =
    generateName === ''
      ? []
      : nameCheck(generateName).map((m) => invalid('metadata.generateName', generateName, m));
  errors.push(...validateObjectMeta(obj, nameCheck));
  if (group === '' && version !== 'v1')
    errors.push(required('spec.group', 'only v1 may have an empty group and it better be legacy kube'));
  if (group !== '')
    for (const msg of isDNS1123Subdomain(group)) errors.push(invalid('spec.group', group, msg));
  for (const msg of isDNS1035Label(version)) errors.push(invalid('spec.version', version, msg));
  const groupMin = typeof spec.groupPriorityMinimum === 'number' ? spec.groupPriorityMinimum : 0;
  if (groupMin <= 0 || groupMin > 20000)
    errors.push(invalid('spec.groupPriorityMinimum', groupMin, 'must be positive and less than 20000'));
  const versionPriority = typeof spec.versionPriority === 'number' ? spec.versionPriority : 0;
  if (versionPriority <= 0 || versionPriority > 1000)
    errors.push(invalid('spec.versionPriority', versionPriority, 'must be positive and less than 1000'));
  const bytes = bundleBytes(spec.caBundle);
  const skipTLS = spec.insecureSkipTLSVerify === true;
  if (!isObject(spec.service)) {
    if (bytes !== 0)
      errors.push(invalid('spec.caBundle', `${bytes} bytes`, 'local APIServices may not have a caBundle'));
    if (skipTLS)
      errors.push(
        invalid('spec.insecureSkipTLSVerify', true, 'local APIServices may not have insecureSkipTLSVerify'),
      );
    return errors;
  }
  const service = spec.service;
  if (str(service.namespace) === '') errors.push(required('spec.service.namespace'));
  if (str(service.name) === '') errors.push(required('spec.service.name'));
  const portErrs = isValidPortNum(service.port);
  if (portErrs.length > 0)
    errors.push(invalid('spec.service.port', service.port, `port is not valid: ${portErrs.join(', ')}`));
  if (skipTLS && bytes > 0)
    errors.push(invalid('spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present'));
  return errors;
}

const CONDITION_STATUSES = ['True', 'False', 'Unknown'];

/** `ValidateAPIServiceStatus`: each condition's status is True, False or Unknown. */
export function validateAPIServiceStatus(obj: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  objects(rec(obj.status).conditions).forEach((c, i) => {
    if (!CONDITION_STATUSES.includes(str(c.status)))
      errors.push(notSupported(`status.conditions[${i}].status`, c.status, CONDITION_STATUSES));
  });
  return errors;
}

/**
 * `NewLocalAvailableAPIServiceCondition`: a local APIService (no service) is served by
 * kube-apiserver itself, so it is Available as soon as it exists.
 */
export function localAvailableCondition(now: string): Record<string, unknown> {
  return {
    type: 'Available',
    status: 'True',
    lastTransitionTime: now,
    reason: 'Local',
    message: 'Local APIServices are always available',
  };
}

/** strategy.go `PrepareForCreate`: an empty status, Available at once for a local APIService. */
function prepareForCreate(obj: KubeObject): void {
  obj.status = {};
  if (!isObject(rec(obj.spec).service))
    obj.status = { conditions: [localAvailableCondition(str(rec(obj.metadata).creationTimestamp))] };
}

/** The status strategy's PrepareForUpdate: the stored labels, annotations, finalizers and owners. */
function keepMetaOnStatus(obj: KubeObject, old: KubeObject): void {
  const meta = obj.metadata as Record<string, unknown>;
  const was = rec(old.metadata);
  for (const key of ['labels', 'annotations', 'finalizers', 'ownerReferences']) {
    if (was[key] === undefined) delete meta[key];
    else meta[key] = was[key];
  }
}

/** The Available cell: `True`, else the status with its reason (`False (ServiceNotFound)`), `Unknown` without one. */
function availableCell(o: KubeObject): string {
  const c = objects(rec(o.status).conditions).find((x) => x.type === 'Available');
  if (c === undefined) return 'Unknown';
  const status = str(c.status);
  if (status === 'True') return status;
  const reason = str(c.reason);
  return reason !== '' ? `${status} (${reason})` : status;
}

/** The APIService's entry. */
export const apiServiceKind = builtinKind('apiregistration.k8s.io', 'v1', 'apiservices', {
  defaults: defaultAPIService,
  validate: validateAPIService,
  validateUpdate: (obj) => validateAPIServiceStatus(obj),
  prepareForCreate,
  prepareForStatusUpdate: keepMetaOnStatus,
  allowUnconditionalUpdate: false,
  cells: {
    Service: (o) => {
      const service = rec(o.spec).service;
      return isObject(service) ? `${str(service.namespace)}/${str(service.name)}` : 'Local';
    },
    Available: availableCell,
    Age: (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
  },
});
