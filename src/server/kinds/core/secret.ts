/**
 * The Secret (core/v1): its defaults and the v1 conversion of `stringData`
 * (pkg/apis/core/v1), validation (pkg/apis/core/validation `ValidateSecret`,
 * `ValidateSecretUpdate`), Table columns and selectable fields.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { child, isObject, rec, str } from '../access.js';
import { ageColumn, col, typeDocs } from '../columns.js';
import { type FieldGetter, pathField } from '../selectable-fields.js';
import type { FieldError, ResourceKind, TableColumn } from '../types.js';
import { invalid, required, tooLong, validateObjectMeta } from '../validation.js';
import { isConfigMapKey } from '../validation-names.js';
import { base64Size, MAX_DATA_SIZE, validateImmutableData } from './data.js';

/**
 * SetDefaults_Secret (type Opaque) and the v1 conversion of `stringData`:
 * its entries overwrite `data` (base64-encoded) and the field itself is never
 * stored or returned, which is why `kubectl get -o yaml` never shows it.
 */
export function defaultSecret(obj: KubeObject): void {
  if (obj.type === undefined || obj.type === null || obj.type === '') obj.type = 'Opaque';
  if (obj.stringData === undefined) return;
  if (isObject(obj.stringData) && Object.keys(obj.stringData).length > 0) {
    const data = child(obj, 'data');
    if (!data) return;
    for (const [key, value] of Object.entries(obj.stringData)) {
      data[key] = Buffer.from(str(value), 'utf8').toString('base64');
    }
  }
  delete obj.stringData;
}

/** `ValidateSecret`: key names, 1 MiB, and the keys each built-in type requires. */
export function validateSecret(obj: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  const data = rec(obj.data);
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    for (const msg of isConfigMapKey(key)) errors.push(invalid(`data[${key}]`, key, msg));
    size += base64Size(value);
  }
  if (size > MAX_DATA_SIZE) errors.push(tooLong('data', MAX_DATA_SIZE));
  const has = (key: string) => Object.hasOwn(data, key);
  switch (str(obj.type)) {
    case 'kubernetes.io/service-account-token':
      if (str(rec(obj.metadata?.annotations)['kubernetes.io/service-account.name']) === '') {
        errors.push(required('metadata.annotations[kubernetes.io/service-account.name]'));
      }
      break;
    case 'kubernetes.io/dockercfg':
      if (!has('.dockercfg')) errors.push(required('data[.dockercfg]'));
      break;
    case 'kubernetes.io/dockerconfigjson':
      if (!has('.dockerconfigjson')) errors.push(required('data[.dockerconfigjson]'));
      break;
    case 'kubernetes.io/basic-auth':
      // Either may be empty, but one must be present.
      if (!has('username') && !has('password')) {
        errors.push(required('data[username]'), required('data[password]'));
      }
      break;
    case 'kubernetes.io/ssh-auth':
      if (base64Size(data['ssh-privatekey']) === 0) errors.push(required('data[ssh-privatekey]'));
      break;
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) errors.push(required('data[tls.crt]'));
      if (!has('tls.key')) errors.push(required('data[tls.key]'));
      break;
  }
  return errors;
}

/** `ValidateSecretUpdate`: the type is fixed at creation, and immutable data stays. */
export function validateSecretUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errors = validateImmutableData(obj, old, ['data']);
  if (str(obj.type) !== str(old.type)) errors.unshift(invalid('type', obj.type ?? '', 'field is immutable'));
  return errors;
}

/** Column docs of core/v1 types (printers.go `apiv1.T{}`). */
const core = typeDocs('io.k8s.api.core.v1');

/** Secrets: `TYPE DATA AGE`. */
export const secretColumns: TableColumn[] = [
  col('Type', 'string', (o) => str(o.type), core('Secret', 'type')),
  col('Data', 'string', (o) => Object.keys(rec(o.data)).length, core('Secret', 'data')),
  ageColumn,
];

/** Secrets: `type` (how kubelets and controllers find service-account tokens). */
export const secretFields: Record<string, FieldGetter> = { type: pathField('type') };

/** The Secret's entry in the served kinds. */
export const secretKind: ResourceKind = {
  group: '',
  version: 'v1',
  kind: 'Secret',
  plural: 'secrets',
  singular: 'secret',
  namespaced: true,
  shortNames: [],
  categories: [],
  fields: secretFields,
  subresources: [],
  generationFields: [],
  defaults: defaultSecret,
  validate: validateSecret,
  validateUpdate: validateSecretUpdate,
  columns: secretColumns,
};
