/**
 * Whether a webhook is called for a write (k8s.io/apiserver/pkg/admission/plugin/webhook/generic
 * webhook.go `ShouldCallHook`): its namespaceSelector, its objectSelector, then its rules, at the
 * request's own resource or, with matchPolicy Equivalent, at an equivalent one.
 */
import type { KubeObject } from '../../protocol/events.js';
import { type LabelSelector, matchesLabels } from '../../protocol/labels.js';
import type { AdmissionAttributes, Invocation } from './attributes.js';
import type { GroupVersionResource } from './types.js';
import type { Webhook, WebhookRule } from './webhooks.js';

/** pkg/admission/plugin/webhook/predicates/rules/rules.go `exactOrWildcard`. */
function exactOrWildcard(requested: string, items: readonly string[]): boolean {
  return items.some((i) => i === '*' || i === requested);
}

/**
 * rules.go `Matcher.scope`: Namespaced matches a namespaced resource's requests (never the
 * Namespace object itself, which is cluster-scoped), Cluster matches cluster-scoped resources.
 */
function scopeMatches(
  rule: WebhookRule,
  attrs: AdmissionAttributes,
  resource: GroupVersionResource,
): boolean {
  const isNamespaceObject = resource.group === '' && resource.resource === 'namespaces';
  if (rule.scope === 'Namespaced') return !isNamespaceObject && attrs.namespaced;
  if (rule.scope === 'Cluster') return isNamespaceObject || !attrs.namespaced;
  return true;
}

/**
 * rules.go `Matcher.Matches`: scope, operation (`*` or the operation), group, version, and
 * resource: `pods` (no subresource), `pods/status`, `pods/*`, `*` (every resource, no
 * subresource), `*\/status`, `*\/*` (everything).
 */
export function ruleMatches(
  rule: WebhookRule,
  attrs: AdmissionAttributes,
  resource: GroupVersionResource = attrs.resource,
): boolean {
  if (!scopeMatches(rule, attrs, resource)) return false;
  if (!rule.operations.some((op) => op === '*' || op === attrs.operation)) return false;
  if (!exactOrWildcard(resource.group, rule.apiGroups)) return false;
  if (!exactOrWildcard(resource.version, rule.apiVersions)) return false;
  return rule.resources.some((r) => {
    const slash = r.indexOf('/');
    const [res, sub] = slash < 0 ? [r, ''] : [r.slice(0, slash), r.slice(slash + 1)];
    return (res === '*' || res === resource.resource) && (sub === '*' || sub === attrs.subresource);
  });
}

/** Another version of the same group and resource (the EquivalentResourceMapper's answer here). */
export interface EquivalentResource {
  resource: GroupVersionResource;
  invocation: Invocation;
}

/**
 * The invocation of `hook` for `attrs`, or undefined when its rules match neither the request's
 * resource nor (matchPolicy Equivalent) an equivalent one; rules are tried in order, the
 * request's own resource first (webhook.go `ShouldCallHook`).
 */
export function matchRules(
  hook: Webhook,
  attrs: AdmissionAttributes,
  equivalents: () => readonly EquivalentResource[],
): Invocation | undefined {
  if (hook.rules.some((r) => ruleMatches(r, attrs))) return { kind: attrs.kind, resource: attrs.resource };
  if (hook.matchPolicy !== 'Equivalent') return undefined;
  for (const rule of hook.rules) {
    for (const eq of equivalents()) {
      if (ruleMatches(rule, attrs, eq.resource)) return eq.invocation;
    }
  }
  return undefined;
}

function labelsOf(obj: KubeObject | undefined): Record<string, string> | undefined {
  return obj?.metadata?.labels as Record<string, string> | undefined;
}

/**
 * predicates/object/matcher.go `MatchObjectSelector`: an empty selector matches; otherwise the
 * new object's labels or the old object's labels must match.
 */
export function objectSelectorMatches(selector: LabelSelector, attrs: AdmissionAttributes): boolean {
  if (selector.requirements.length === 0 && !selector.nothing) return true;
  const matches = (o: KubeObject | undefined) => o !== undefined && matchesLabels(selector, labelsOf(o));
  return matches(attrs.object) || matches(attrs.oldObject);
}

/**
 * predicates/namespace/matcher.go `MatchNamespaceSelector`: a cluster-scoped object that is not a
 * Namespace always matches; an empty selector matches; else the namespace's labels decide (a
 * Namespace's own on its create and update, `GetNamespaceLabels`). `namespaceLabels` reads the
 * stored namespace and throws when it cannot be found.
 */
export async function namespaceSelectorMatches(
  selector: LabelSelector,
  attrs: AdmissionAttributes,
  namespaceLabels: (name: string) => Promise<Record<string, string> | undefined>,
): Promise<boolean> {
  const isNamespaceResource = attrs.resource.group === '' && attrs.resource.resource === 'namespaces';
  if (attrs.namespace === '' && !isNamespaceResource) return true;
  if (selector.requirements.length === 0 && !selector.nothing) return true;
  let labels: Record<string, string> | undefined;
  if (
    isNamespaceResource &&
    attrs.subresource === '' &&
    (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE')
  )
    labels = labelsOf(attrs.object);
  else labels = await namespaceLabels(attrs.namespace);
  return matchesLabels(selector, labels);
}
