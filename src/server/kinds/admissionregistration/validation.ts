/**
 * The admission webhooks' configurations' validation (pkg/apis/admissionregistration/validation/validation.go
 * and the URL rules of k8s.io/apiserver/pkg/util/webhook/validation.go).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { arr, isObject, objects, rec, str } from '../access.js';
import type { FieldError } from '../types.js';
import {
  duplicate,
  invalid,
  notSupported,
  required,
  validateLabelSelector,
  validateObjectMeta,
} from '../validation.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidPortNum } from '../validation-names.js';

/** apimachinery util/validation `IsFullyQualifiedName`: a subdomain of at least three segments. */
function fullyQualifiedName(field: string, name: string): FieldError[] {
  if (name === '') return [required(field)];
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [invalid(field, name, errs.join(','))];
  if (name.split('.').length < 3)
    return [invalid(field, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

/** `validateResources`: the `x/*`, `*\/x`, `*\/*` and `*` combinations that may not be mixed. */
function validateResources(resources: string[], field: string): FieldError[] {
  const errors: FieldError[] = [];
  if (resources.length === 0) errors.push(required(field));
  const wildcardSub = new Set<string>();
  const wildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let plain = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errors.push(required(`${field}[${i}]`));
      return;
    }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      plain = resSub !== '*';
      return;
    }
    const [res, sub] = [resSub.slice(0, slash), resSub.slice(slash + 1)];
    if (wildcardSub.has(res))
      errors.push(invalid(`${field}[${i}]`, resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (wildcardRes.has(sub))
      errors.push(invalid(`${field}[${i}]`, resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') wildcardSub.add(res);
    if (res === '*') wildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard)
    errors.push(invalid(field, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && plain)
    errors.push(
      invalid(field, resources, "if '*' is present, must not specify other resources without subresources"),
    );
  return errors;
}

const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];

const SCOPES = ['*', 'Cluster', 'Namespaced'];

/** `validateRuleWithOperations` and `validateRule` (subresources allowed), shared with the admission policies' rules. */
export function validateRule(rule: Record<string, unknown>, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const ops = arr(rule.operations).map(str);
  if (ops.length === 0) errors.push(required(`${field}.operations`));
  if (ops.length > 1 && ops.includes('*'))
    errors.push(invalid(`${field}.operations`, ops, "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errors.push(notSupported(`${field}.operations[${i}]`, op, OPERATIONS));
  });
  const groups = arr(rule.apiGroups).map(str);
  if (groups.length === 0) errors.push(required(`${field}.apiGroups`));
  if (groups.length > 1 && groups.includes('*'))
    errors.push(
      invalid(`${field}.apiGroups`, groups, "if '*' is present, must not specify other API groups"),
    );
  const versions = arr(rule.apiVersions).map(str);
  if (versions.length === 0) errors.push(required(`${field}.apiVersions`));
  if (versions.length > 1 && versions.includes('*'))
    errors.push(
      invalid(`${field}.apiVersions`, versions, "if '*' is present, must not specify other API versions"),
    );
  versions.forEach((v, i) => {
    if (v === '') errors.push(required(`${field}.apiVersions[${i}]`));
  });
  errors.push(...validateResources(arr(rule.resources).map(str), `${field}.resources`));
  if (rule.scope !== undefined && !SCOPES.includes(str(rule.scope)))
    errors.push(notSupported(`${field}.scope`, rule.scope, SCOPES));
  return errors;
}

const URL_FORM = '; desired format: https://host[/path]';

/** apiserver pkg/util/webhook/validation.go `ValidateWebhookURL` (https forced). */
function validateUrl(field: string, text: string): FieldError[] {
  let u: URL;
  try {
    u = new URL(text);
  } catch (err) {
    return [required(field, `url must be a valid URL: ${(err as Error).message}${URL_FORM}`)];
  }
  const errors: FieldError[] = [];
  const scheme = u.protocol.replace(/:$/, '');
  if (scheme !== 'https')
    errors.push(invalid(field, scheme, `'https' is the only allowed URL scheme${URL_FORM}`));
  if (u.host === '') errors.push(invalid(field, u.host, `host must be provided${URL_FORM}`));
  if (u.username !== '' || u.password !== '')
    errors.push(invalid(field, u.username, 'user information is not permitted in the URL'));
  if (u.hash.length > 1)
    errors.push(invalid(field, u.hash.slice(1), 'fragments are not permitted in the URL'));
  if (u.search.length > 1)
    errors.push(invalid(field, u.search.slice(1), 'query parameters are not permitted in the URL'));
  return errors;
}

/** `ValidateWebhookService`. */
function validateService(field: string, service: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  if (str(service.name) === '') errors.push(required(`${field}.name`, 'service name is required'));
  if (str(service.namespace) === '')
    errors.push(required(`${field}.namespace`, 'service namespace is required'));
  const portErrs = isValidPortNum(service.port);
  if (portErrs.length > 0)
    errors.push(invalid(`${field}.port`, service.port, `port is not valid: ${portErrs.join(', ')}`));
  const path = service.path;
  if (typeof path === 'string' && path !== '' && path !== '/' && !path.startsWith('/'))
    errors.push(invalid(`${field}.path`, path, "must start with a '/'"));
  return errors;
}

const REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** `validateAdmissionReviewVersions` (a recognized version required, as on create). */
function validateReviewVersions(versions: string[], field: string): FieldError[] {
  if (versions.length === 0) return [required(field, `must specify one of ${REVIEW_VERSIONS.join(', ')}`)];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errors.push(invalid(`${field}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errors.push(invalid(`${field}[${i}]`, v, msg));
  });
  if (!versions.some((v) => REVIEW_VERSIONS.includes(v)))
    errors.push(invalid(field, versions, `must include at least one of ${REVIEW_VERSIONS.join(', ')}`));
  return errors;
}

const FAILURE_POLICIES = ['Fail', 'Ignore'];

const MATCH_POLICIES = ['Equivalent', 'Exact'];

const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];

const ALL_SIDE_EFFECTS = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];

const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];

/** `validateValidatingWebhook` / `validateMutatingWebhook` (match conditions are not checked here). */
function validateWebhook(
  hook: Record<string, unknown>,
  field: string,
  mutating: boolean,
  requireNoSideEffects: boolean,
): FieldError[] {
  const errors = fullyQualifiedName(`${field}.name`, str(hook.name));
  objects(hook.rules).forEach((rule, i) => {
    errors.push(...validateRule(rule, `${field}.rules[${i}]`));
  });
  if (hook.failurePolicy !== undefined && !FAILURE_POLICIES.includes(str(hook.failurePolicy)))
    errors.push(notSupported(`${field}.failurePolicy`, hook.failurePolicy, FAILURE_POLICIES));
  if (hook.matchPolicy !== undefined && !MATCH_POLICIES.includes(str(hook.matchPolicy)))
    errors.push(notSupported(`${field}.matchPolicy`, hook.matchPolicy, MATCH_POLICIES));
  const sideEffects = requireNoSideEffects ? NO_SIDE_EFFECTS : ALL_SIDE_EFFECTS;
  if (hook.sideEffects === undefined || hook.sideEffects === null)
    errors.push(required(`${field}.sideEffects`, `must specify one of ${sideEffects.join(', ')}`));
  else if (!sideEffects.includes(str(hook.sideEffects)))
    errors.push(notSupported(`${field}.sideEffects`, hook.sideEffects, sideEffects));
  const timeout = hook.timeoutSeconds;
  if (typeof timeout === 'number' && (timeout > 30 || timeout < 1))
    errors.push(
      invalid(`${field}.timeoutSeconds`, timeout, 'the timeout value must be between 1 and 30 seconds'),
    );
  errors.push(...validateLabelSelector(hook.namespaceSelector, `${field}.namespaceSelector`));
  errors.push(...validateLabelSelector(hook.objectSelector, `${field}.objectSelector`));
  if (
    mutating &&
    hook.reinvocationPolicy !== undefined &&
    !REINVOCATION_POLICIES.includes(str(hook.reinvocationPolicy))
  )
    errors.push(notSupported(`${field}.reinvocationPolicy`, hook.reinvocationPolicy, REINVOCATION_POLICIES));
  const cc = rec(hook.clientConfig);
  const hasUrl = typeof cc.url === 'string';
  const hasService = isObject(cc.service);
  if (hasUrl === hasService)
    errors.push(required(`${field}.clientConfig`, 'exactly one of url or service is required'));
  else if (hasUrl) errors.push(...validateUrl(`${field}.clientConfig.url`, str(cc.url)));
  else errors.push(...validateService(`${field}.clientConfig.service`, rec(cc.service)));
  return errors;
}

/** True when every webhook of `old` declares no side effects (`validatingHasNoSideEffects`). */
function hasNoSideEffects(old: KubeObject): boolean {
  return objects(old.webhooks).every((h) => NO_SIDE_EFFECTS.includes(str(h.sideEffects)));
}

function validateConfiguration(
  obj: KubeObject,
  old: KubeObject | undefined,
  mutating: boolean,
): FieldError[] {
  const errors = validateObjectMeta(obj);
  // An update keeps accepting what the stored object already had (ValidateXWebhookConfigurationUpdate).
  const requireNoSideEffects = old === undefined || hasNoSideEffects(old);
  const names = new Set<string>();
  objects(obj.webhooks).forEach((hook, i) => {
    const field = `webhooks[${i}]`;
    errors.push(...validateWebhook(hook, field, mutating, requireNoSideEffects));
    errors.push(
      ...validateReviewVersions(
        arr(hook.admissionReviewVersions).map(str),
        `${field}.admissionReviewVersions`,
      ),
    );
    const name = str(hook.name);
    if (name !== '') {
      if (names.has(name)) errors.push(duplicate(`${field}.name`, name));
      names.add(name);
    }
  });
  return errors;
}

/** `ValidateValidatingWebhookConfiguration` (and its update form). */
export function validateValidatingWebhookConfiguration(obj: KubeObject, old?: KubeObject): FieldError[] {
  return validateConfiguration(obj, old, false);
}

/** `ValidateMutatingWebhookConfiguration` (and its update form). */
export function validateMutatingWebhookConfiguration(obj: KubeObject, old?: KubeObject): FieldError[] {
  return validateConfiguration(obj, old, true);
}
