/**
 * The FlowSchema (flowcontrol.apiserver.k8s.io/v1): defaults (pkg/apis/flowcontrol/v1/defaults.go),
 * validation (pkg/apis/flowcontrol/validation `ValidateFlowSchema`), strategy
 * (pkg/registry/flowcontrol/flowschema/strategy.go: generation 1 on create and bumped by a spec
 * change, status reset on create and kept on update, a /status write keeping all the metadata)
 * and Table cells (printers.go `printFlowSchema`).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { arr, isObject, objects, rec, str } from '../access.js';
import { translateTimestampSince } from '../age.js';
import { builtinKind } from '../builtin.js';
import { goStruct } from '../field-value.js';
import type { FieldError } from '../types.js';
import { duplicate, forbidden, invalid, notSupported, required, validateObjectMeta } from '../validation.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../validation-names.js';

/** `FlowSchemaDefaultMatchingPrecedence`. */
const DEFAULT_MATCHING_PRECEDENCE = 1000;
/** `FlowSchemaMaxMatchingPrecedence`. */
const MAX_MATCHING_PRECEDENCE = 10000;
const DISTINGUISHER_METHODS = ['ByNamespace', 'ByUser'];
const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];
const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];

/** `SetDefaults_FlowSchemaSpec`; the spec's non-pointer fields are always written, as Go encodes them. */
function defaultFlowSchema(obj: KubeObject): void {
  if (!isObject(obj.spec)) obj.spec = {};
  const spec = obj.spec as Record<string, unknown>;
  if (!isObject(spec.priorityLevelConfiguration)) spec.priorityLevelConfiguration = { name: '' };
  if (!spec.matchingPrecedence) spec.matchingPrecedence = DEFAULT_MATCHING_PRECEDENCE;
  obj.status ??= {};
}

/** `ValidateFlowSchemaSubject` and the subject validators. */
function validateSubject(s: Record<string, unknown>, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const kind = str(s.kind);
  const forbid = (key: string, what: string) => {
    if (s[key] !== undefined && s[key] !== null)
      errors.push(forbidden(`${field}.${key}`, `${key} is forbidden when subject kind is not '${what}'`));
  };
  if (kind === 'ServiceAccount') {
    const sa = s.serviceAccount;
    if (!isObject(sa))
      errors.push(
        required(
          `${field}.serviceAccount`,
          "serviceAccount is required when subject kind is 'ServiceAccount'",
        ),
      );
    else {
      const name = str(sa.name);
      if (name === '') errors.push(required(`${field}.serviceAccount.name`));
      else if (name !== '*')
        for (const m of isDNS1123Subdomain(name))
          errors.push(invalid(`${field}.serviceAccount.name`, name, m));
      const ns = str(sa.namespace);
      if (ns === '')
        errors.push(
          required(`${field}.serviceAccount.namespace`, 'must specify namespace for service account'),
        );
      else
        for (const m of isDNS1123Label(ns)) errors.push(invalid(`${field}.serviceAccount.namespace`, ns, m));
    }
    forbid('user', 'User');
    forbid('group', 'Group');
  } else if (kind === 'User' || kind === 'Group') {
    const key = kind.toLowerCase();
    const subject = s[key];
    if (!isObject(subject))
      errors.push(required(`${field}.${key}`, `${key} is required when subject kind is '${kind}'`));
    else if (str(subject.name) === '') errors.push(required(`${field}.${key}.name`));
    forbid('serviceAccount', 'ServiceAccount');
    forbid(kind === 'User' ? 'group' : 'user', kind === 'User' ? 'Group' : 'User');
  } else errors.push(notSupported(`${field}.kind`, kind, SUBJECT_KINDS));
  return errors;
}

/** The verbs of a resource or non-resource rule. */
function validateVerbs(verbs: string[], field: string): FieldError[] {
  if (verbs.length === 0) return [required(field, 'verbs must contain at least one value')];
  if (verbs.includes('*'))
    return verbs.length > 1 ? [invalid(field, verbs, "if '*' is present, must not specify other verbs")] : [];
  return verbs.every((v) => VERBS.includes(v)) ? [] : [notSupported(field, verbs, VERBS)];
}

/** `ValidateNonResourceURLPath`. */
function nonResourceURLError(path: string, field: string): FieldError | undefined {
  if (path === '') return invalid(field, path, 'must not be empty');
  if (path === '/') return undefined;
  if (!path.startsWith('/')) return invalid(field, path, 'must start with slash');
  if (path.includes(' ')) return invalid(field, path, 'must not contain white-space');
  if (path.includes('//')) return invalid(field, path, 'must not contain double slash');
  const stars = path.split('*').length - 1;
  if (stars > 1 || (stars === 1 && !path.endsWith('/*')))
    return invalid(field, path, 'wildcard can only do suffix matching');
  return undefined;
}

/** `ValidateFlowSchemaResourcePolicyRule`. */
function validateResourceRule(r: Record<string, unknown>, field: string): FieldError[] {
  const errors = validateVerbs(arr(r.verbs).map(str), `${field}.verbs`);
  const list = (key: string, what: string, other: string) => {
    const values = arr(r[key]).map(str);
    if (values.length === 0)
      errors.push(required(`${field}.${key}`, `resource rules must supply at least one ${what}`));
    else if (values.length > 1 && values.includes('*'))
      errors.push(invalid(`${field}.${key}`, values, `if '*' is present, must not specify other ${other}`));
  };
  list('apiGroups', 'api group', 'api groups');
  list('resources', 'resource', 'resources');
  const namespaces = arr(r.namespaces).map(str);
  if (namespaces.length === 0 && r.clusterScope !== true)
    errors.push(
      required(
        `${field}.namespaces`,
        'resource rules that are not cluster scoped must supply at least one namespace',
      ),
    );
  else if (namespaces.includes('*')) {
    if (namespaces.length > 1)
      errors.push(
        invalid(`${field}.namespaces`, namespaces, "if '*' is present, must not specify other namespaces"),
      );
  } else
    namespaces.forEach((ns, i) => {
      for (const m of isDNS1123Label(ns))
        errors.push(
          invalid(
            `${field}.namespaces[${i}]`,
            ns,
            `each member of this list must be '*' or a DNS-1123 label; ${m}`,
          ),
        );
    });
  return errors;
}

/** `ValidateFlowSchemaNonResourcePolicyRule`. */
function validateNonResourceRule(r: Record<string, unknown>, field: string): FieldError[] {
  const errors = validateVerbs(arr(r.verbs).map(str), `${field}.verbs`);
  const urls = arr(r.nonResourceURLs).map(str);
  if (urls.length === 0)
    errors.push(required(`${field}.nonResourceURLs`, 'nonResourceURLs must contain at least one value'));
  else if (urls.includes('*')) {
    if (urls.length > 1)
      errors.push(
        invalid(
          `${field}.nonResourceURLs`,
          urls,
          "if '*' is present, must not specify other non-resource URLs",
        ),
      );
  } else
    urls.forEach((u, i) => {
      const e = nonResourceURLError(u, `${field}.nonResourceURLs[${i}]`);
      if (e) errors.push(e);
    });
  return errors;
}

/** `ValidateFlowSchemaStatus`: condition types given and unique. */
export function validateFlowSchemaStatus(obj: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  objects(rec(obj.status).conditions).forEach((c, i) => {
    const type = str(c.type);
    if (seen.has(type)) errors.push(duplicate(`status.conditions[${i}].type`, type));
    seen.add(type);
    if (type === '') errors.push(required(`status.conditions[${i}].type`));
  });
  return errors;
}

/** `ValidateFlowSchema` (its update form is the same). */
export function validateFlowSchema(obj: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  const spec = rec(obj.spec);
  const name = str(rec(obj.metadata).name);
  const precedence = typeof spec.matchingPrecedence === 'number' ? spec.matchingPrecedence : 0;
  if (precedence <= 0)
    errors.push(invalid('spec.matchingPrecedence', precedence, 'must be a positive value'));
  if (precedence > MAX_MATCHING_PRECEDENCE)
    errors.push(
      invalid('spec.matchingPrecedence', precedence, `must not be greater than ${MAX_MATCHING_PRECEDENCE}`),
    );
  if (precedence === 1 && name !== 'exempt')
    errors.push(
      invalid(
        'spec.matchingPrecedence',
        precedence,
        "only the schema named 'exempt' may have matchingPrecedence 1",
      ),
    );
  const dm = spec.distinguisherMethod;
  // The internal type's value, printed with its Go field names (it has no JSON tags).
  if (isObject(dm) && !DISTINGUISHER_METHODS.includes(str(dm.type)))
    errors.push(
      notSupported(
        'spec.distinguisherMethod.type',
        goStruct([['Type', str(dm.type)]]),
        DISTINGUISHER_METHODS,
      ),
    );
  const pl = str(rec(spec.priorityLevelConfiguration).name);
  if (pl === '')
    errors.push(required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  else
    for (const m of isDNS1123Subdomain(pl))
      errors.push(invalid('spec.priorityLevelConfiguration.name', pl, m));
  objects(spec.rules).forEach((rule, i) => {
    const field = `spec.rules[${i}]`;
    const subjects = objects(rule.subjects);
    if (subjects.length === 0)
      errors.push(required(`${field}.subjects`, 'subjects must contain at least one value'));
    subjects.forEach((s, j) => {
      errors.push(...validateSubject(s, `${field}.subjects[${j}]`));
    });
    const resourceRules = objects(rule.resourceRules);
    const nonResourceRules = objects(rule.nonResourceRules);
    if (resourceRules.length === 0 && nonResourceRules.length === 0)
      errors.push(required(field, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
    resourceRules.forEach((r, j) => {
      errors.push(...validateResourceRule(r, `${field}.resourceRules[${j}]`));
    });
    nonResourceRules.forEach((r, j) => {
      errors.push(...validateNonResourceRule(r, `${field}.nonResourceRules[${j}]`));
    });
  });
  errors.push(...validateFlowSchemaStatus(obj));
  return errors;
}

/** The status strategies' PrepareForUpdate: a /status write keeps the stored metadata but its managedFields. */
export function keepMetadataOnStatus(obj: KubeObject, old: KubeObject): void {
  const managedFields = obj.metadata?.managedFields;
  obj.metadata = structuredClone(old.metadata ?? {});
  if (managedFields === undefined) delete obj.metadata.managedFields;
  else obj.metadata.managedFields = managedFields;
}

/** The MissingPL cell: the Dangling condition's status, `?` without one. */
function missingPLCell(o: KubeObject): string {
  const c = objects(rec(o.status).conditions).find((x) => x.type === 'Dangling');
  return c === undefined ? '?' : str(c.status);
}

/** The FlowSchema's entry. */
export const flowSchemaKind = builtinKind('flowcontrol.apiserver.k8s.io', 'v1', 'flowschemas', {
  generationFields: ['spec'],
  defaults: defaultFlowSchema,
  validate: validateFlowSchema,
  prepareForStatusUpdate: keepMetadataOnStatus,
  cells: {
    PriorityLevel: (o) => str(rec(rec(o.spec).priorityLevelConfiguration).name),
    MatchingPrecedence: (o) => {
      const p = rec(o.spec).matchingPrecedence;
      return typeof p === 'number' ? p : 0;
    },
    DistinguisherMethod: (o) => {
      const dm = rec(o.spec).distinguisherMethod;
      return isObject(dm) ? str(dm.type) : '<none>';
    },
    Age: (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
    MissingPL: missingPLCell,
  },
});
