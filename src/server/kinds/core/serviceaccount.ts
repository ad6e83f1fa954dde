/**
 * The ServiceAccount (core/v1): no defaults (core/v1 defines no SetDefaults_ServiceAccount), its
 * strategy's cleaning of secret references (pkg/registry/core/serviceaccount/strategy.go),
 * validation (pkg/apis/core/validation `ValidateServiceAccount`, `ValidateServiceAccountUpdate`:
 * the metadata only) and Table columns (printers.go `printServiceAccount`: Name and Age).
 *
 * Not served here: the strategy's warning on the deprecated
 * `kubernetes.io/enforce-mountable-secrets` annotation (the kinds carry no warnings), the token
 * controller, and the ServiceAccount admission plugin's lookup of a pod's account (see
 * core/pod/defaults.ts: the plugin names `default` and looks nothing up, since no controller here
 * makes the `default` account a lookup would need).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject } from '../access.js';
import { ageColumn } from '../columns.js';
import type { FieldError, ResourceKind } from '../types.js';
import { validateObjectMeta } from '../validation.js';

/**
 * The strategy's `cleanSecretReferences` (PrepareForCreate and PrepareForUpdate): a secret
 * reference keeps only its name, since the secrets are the account's own namespace's.
 */
export function cleanSecretReferences(obj: KubeObject): void {
  if (!Array.isArray(obj.secrets)) return;
  obj.secrets = obj.secrets.map((ref) =>
    isObject(ref) && typeof ref.name === 'string' && ref.name !== '' ? { name: ref.name } : {},
  );
}

/**
 * `ValidateServiceAccount`: the metadata, the name a DNS subdomain (`ValidateServiceAccountName`);
 * `ValidateServiceAccountUpdate` adds only the generic metadata update rules.
 */
export function validateServiceAccount(obj: KubeObject): FieldError[] {
  return validateObjectMeta(obj);
}

/** The ServiceAccount's entry in the served kinds. */
export const serviceAccountKind: ResourceKind = {
  group: '',
  version: 'v1',
  kind: 'ServiceAccount',
  plural: 'serviceaccounts',
  singular: 'serviceaccount',
  namespaced: true,
  shortNames: ['sa'],
  categories: [],
  fields: {},
  subresources: ['token'],
  generationFields: [],
  defaults: cleanSecretReferences,
  validate: validateServiceAccount,
  columns: [ageColumn],
};
