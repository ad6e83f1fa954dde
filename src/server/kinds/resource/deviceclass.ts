/**
 * The DeviceClass (resource.k8s.io/v1, cluster-scoped): validation (pkg/apis/resource/validation
 * `ValidateDeviceClass`, `ValidateDeviceClassUpdate`: CEL selectors, opaque configuration, the
 * extended resource name; selectors and config left unchanged are not compiled again; the name's
 * format is declarative), its strategy (pkg/registry/resource/deviceclass/strategy.go: generation
 * 1 at create, bumped by a spec change; extendedResourceName kept, DRAExtendedResource being GA)
 * and the columns (printers.go `printDeviceClass`).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { arr, objects, rec, sameJson, specOf } from '../access.js';
import { translateTimestampSince } from '../age.js';
import { builtinKind } from '../builtin.js';
import { maxItems } from '../declarative.js';
import type { FieldError, ResourceKind } from '../types.js';
import { invalid, validateObjectMeta } from '../validation.js';
import { isQualifiedName } from '../validation-names.js';
import { LIMITS, type SplitErrors, validateDeviceConfiguration, validateSelectors } from './claim-spec.js';

/** The class as the v1 type writes it: `spec` is always there. */
export function defaultDeviceClass(obj: KubeObject): void {
  obj.spec = rec(obj.spec);
}

/**
 * `+k8s:format=k8s-extended-resource-name` (validate.ExtendedResourceName): a domain-prefixed
 * name, not in kubernetes.io, not a quota's `requests.` name, a label key once so prefixed.
 */
function extendedResourceNameErrors(name: string, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!name.includes('/'))
    errors.push(invalid(path, name, "a name must be a domain-prefixed path, such as 'example.com/my-prop'"));
  else if (name.includes('kubernetes.io/'))
    errors.push(invalid(path, name, 'must not have "kubernetes.io/" domain'));
  if (name.startsWith('requests.')) errors.push(invalid(path, name, 'must not have "requests." prefix'));
  for (const msg of isQualifiedName(`requests.${name}`)) errors.push(invalid(path, name, msg));
  return errors;
}

/** `ValidateDeviceClass`, and on an update `ValidateDeviceClassUpdate`. */
export function validateDeviceClass(obj: KubeObject, old?: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const oldSpec = old ? specOf(old) : undefined;
  const meta = validateObjectMeta(obj);
  const isNameFormat = (e: FieldError) => e.field === 'metadata.name' && e.type === 'FieldValueInvalid';
  const out: SplitErrors = { hand: meta.filter((e) => !isNameFormat(e)), dv: meta.filter(isNameFormat) };
  const selectorsStored =
    oldSpec !== undefined && sameJson(spec.selectors ?? null, oldSpec.selectors ?? null);
  if (!selectorsStored) validateSelectors(spec.selectors, 'spec.selectors', out);
  const configStored = oldSpec !== undefined && sameJson(spec.config ?? null, oldSpec.config ?? null);
  if (arr(spec.config).length > LIMITS.config)
    out.dv.push(...maxItems(spec.config, 'spec.config', LIMITS.config));
  else {
    objects(spec.config).forEach((c, i) => {
      const scratch: SplitErrors = { hand: [], dv: [] };
      validateDeviceConfiguration(c, `spec.config[${i}]`, scratch);
      // Unchanged parameters were accepted once: only their presence and form is checked again.
      out.hand.push(
        ...(configStored ? scratch.hand.filter((e) => e.type !== 'FieldValueTooLong') : scratch.hand),
      );
      out.dv.push(...scratch.dv);
    });
  }
  const ext = spec.extendedResourceName;
  if (typeof ext === 'string') out.dv.push(...extendedResourceNameErrors(ext, 'spec.extendedResourceName'));
  return [...out.hand, ...out.dv];
}

/** The strategy's generation: 1 at create, bumped when the spec changes. */
export function prepareDeviceClassUpdate(obj: KubeObject, old: KubeObject): void {
  const meta = obj.metadata ?? {};
  obj.metadata = meta;
  const generation = old.metadata?.generation ?? 0;
  meta.generation = sameJson(specOf(obj), specOf(old)) ? generation : generation + 1;
}

/** The DeviceClass's entry in the served kinds. */
export const deviceClassKind: ResourceKind = builtinKind('resource.k8s.io', 'v1', 'deviceclasses', {
  defaults: defaultDeviceClass,
  prepareForCreate: (obj) => {
    obj.metadata = { ...obj.metadata, generation: 1 };
  },
  prepareForUpdate: prepareDeviceClassUpdate,
  validate: validateDeviceClass,
  cells: {
    Age: (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
  },
});
