/**
 * The admission webhooks' configurations' defaults (pkg/apis/admissionregistration/v1/defaults.go).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject, objects, rec } from '../access.js';

/** defaults.go `SetDefaults_ValidatingWebhook` / `SetDefaults_MutatingWebhook` and `SetDefaults_Rule`. */
function defaultWebhook(hook: Record<string, unknown>, mutating: boolean): void {
  hook.failurePolicy ??= 'Fail';
  hook.matchPolicy ??= 'Equivalent';
  hook.namespaceSelector ??= {};
  hook.objectSelector ??= {};
  hook.timeoutSeconds ??= 10;
  if (mutating) hook.reinvocationPolicy ??= 'Never';
  for (const rule of objects(hook.rules)) rule.scope ??= '*';
  const service = rec(hook.clientConfig).service;
  // `SetDefaults_ServiceReference`: port 443.
  if (isObject(service)) service.port ??= 443;
}

/** Defaults of a ValidatingWebhookConfiguration. */
export function defaultValidatingWebhookConfiguration(obj: KubeObject): void {
  for (const hook of objects(obj.webhooks)) defaultWebhook(hook, false);
}

/** Defaults of a MutatingWebhookConfiguration. */
export function defaultMutatingWebhookConfiguration(obj: KubeObject): void {
  for (const hook of objects(obj.webhooks)) defaultWebhook(hook, true);
}
