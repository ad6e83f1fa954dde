/**
 * The ConfigMap (core/v1): validation (pkg/apis/core/validation `ValidateConfigMap`,
 * `ValidateConfigMapUpdate`) and Table columns. Its only default (an empty `data` map) never
 * shows on the wire, so it has none here.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { rec, str } from '../access.js';
import { ageColumn, col, typeDocs } from '../columns.js';
import type { FieldError, ResourceKind, TableColumn } from '../types.js';
import { invalid, tooLong, validateObjectMeta } from '../validation.js';
import { isConfigMapKey } from '../validation-names.js';
import { base64Size, MAX_DATA_SIZE, validateImmutableData } from './data.js';

/** `ValidateConfigMap`: config-key names, no key in both bags, 1 MiB in total. */
export function validateConfigMap(obj: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  const data = rec(obj.data);
  const binary = rec(obj.binaryData);
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    for (const msg of isConfigMapKey(key)) errors.push(invalid(`data[${key}]`, key, msg));
    if (Object.hasOwn(binary, key)) {
      errors.push(invalid(`data[${key}]`, key, 'duplicate of key present in binaryData'));
    }
    size += Buffer.byteLength(str(value));
  }
  for (const [key, value] of Object.entries(binary)) {
    for (const msg of isConfigMapKey(key)) errors.push(invalid(`binaryData[${key}]`, key, msg));
    if (Object.hasOwn(data, key)) {
      errors.push(invalid(`binaryData[${key}]`, key, 'duplicate of key present in data'));
    }
    size += base64Size(value);
  }
  // kube reports the whole object with an empty path here.
  if (size > MAX_DATA_SIZE) errors.push(tooLong('', MAX_DATA_SIZE));
  return errors;
}

/** Column docs of core/v1 types (printers.go `apiv1.T{}`). */
const core = typeDocs('io.k8s.api.core.v1');

/** ConfigMaps: `DATA AGE` (DATA counts data and binaryData keys). */
export const configMapColumns: TableColumn[] = [
  col(
    'Data',
    'string',
    (o) => Object.keys(rec(o.data)).length + Object.keys(rec(o.binaryData)).length,
    core('ConfigMap', 'data'),
  ),
  ageColumn,
];

/** The ConfigMap's entry in the served kinds. */
export const configMapKind: ResourceKind = {
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  plural: 'configmaps',
  singular: 'configmap',
  namespaced: true,
  shortNames: ['cm'],
  categories: [],
  fields: {},
  subresources: [],
  generationFields: [],
  validate: validateConfigMap,
  validateUpdate: (obj, old) => validateImmutableData(obj, old, ['data', 'binaryData']),
  columns: configMapColumns,
};
