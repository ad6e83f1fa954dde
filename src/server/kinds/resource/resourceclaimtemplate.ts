/**
 * The ResourceClaimTemplate (resource.k8s.io/v1, namespaced): its claim spec's defaults and
 * validation (claim-spec.ts, under `spec.spec`), the template metadata's labels and annotations
 * (pkg/apis/resource/validation `ValidateResourceClaimTemplate`), a fixed spec
 * (`ValidateResourceClaimTemplateUpdate`: the handwritten immutability error, which prints the
 * internal struct as encoding/json writes it) and the columns (printers.go
 * `printResourceClaimTemplate`). The strategy (pkg/registry/resource/resourceclaimtemplate)
 * drops the disabled features' fields.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject, objects, rec, sameJson, specOf, str } from '../access.js';
import { translateTimestampSince } from '../age.js';
import { builtinKind } from '../builtin.js';
import { type GoRendered, goStruct } from '../field-value.js';
import type { FieldError, ResourceKind } from '../types.js';
import { invalid, validateAnnotations, validateLabels, validateObjectMeta } from '../validation.js';
import { defaultClaimSpec, dropDisabledClaimFields, validateDeviceClaim } from './claim-spec.js';

/** The template as the v1 type writes it (`spec.metadata` and `spec.spec` always there) with its defaults. */
export function defaultResourceClaimTemplate(obj: KubeObject): void {
  const spec = rec(obj.spec);
  obj.spec = spec;
  spec.metadata = rec(spec.metadata);
  const claimSpec = rec(spec.spec);
  spec.spec = claimSpec;
  defaultClaimSpec(claimSpec);
}

const list = (v: unknown, item: (x: Record<string, unknown>) => unknown): unknown =>
  Array.isArray(v) ? objects(v).map(item) : null;
const orNull = (v: unknown) => (v === undefined ? null : v);

const goToleration = (t: Record<string, unknown>) =>
  goStruct([
    ['Key', str(t.key)],
    ['Operator', str(t.operator)],
    ['Value', str(t.value)],
    ['Effect', str(t.effect)],
    ['TolerationSeconds', orNull(t.tolerationSeconds)],
  ]);
const goSelector = (s: Record<string, unknown>) =>
  goStruct([['CEL', isObject(s.cel) ? goStruct([['Expression', str(s.cel.expression)]]) : null]]);
const goCapacity = (c: unknown) =>
  isObject(c) ? goStruct([['Requests', isObject(c.requests) ? c.requests : null]]) : null;

function goRequestBody(r: Record<string, unknown>, sub: boolean): GoRendered {
  return goStruct([
    ...(sub ? ([['Name', str(r.name)]] as const) : []),
    ['DeviceClassName', str(r.deviceClassName)],
    ['Selectors', list(r.selectors, goSelector)],
    ['AllocationMode', str(r.allocationMode)],
    ['Count', typeof r.count === 'number' ? r.count : 0],
    ...(sub ? [] : ([['AdminAccess', orNull(r.adminAccess)]] as const)),
    ['Tolerations', list(r.tolerations, goToleration)],
    ['Capacity', goCapacity(r.capacity)],
    [
      'DerivedAttributes',
      list(r.derivedAttributes, (d) =>
        goStruct([
          ['Name', str(d.name)],
          ['Expression', str(d.expression)],
        ]),
      ),
    ],
  ]);
}

/** The internal ResourceClaimSpec as encoding/json writes it (Go field names, no omitempty). */
function goClaimSpec(spec: Record<string, unknown>): GoRendered {
  const devices = rec(spec.devices);
  return goStruct([
    [
      'Devices',
      goStruct([
        [
          'Requests',
          list(devices.requests, (r) =>
            goStruct([
              ['Name', str(r.name)],
              ['Exactly', isObject(r.exactly) ? goRequestBody(r.exactly, false) : null],
              ['FirstAvailable', list(r.firstAvailable, (s) => goRequestBody(s, true))],
            ]),
          ),
        ],
        [
          'Constraints',
          list(devices.constraints, (c) =>
            goStruct([
              ['Requests', Array.isArray(c.requests) ? c.requests : null],
              ['MatchAttribute', orNull(c.matchAttribute)],
              ['DistinctAttribute', orNull(c.distinctAttribute)],
            ]),
          ),
        ],
        [
          'Config',
          list(devices.config, (c) =>
            goStruct([
              ['Requests', Array.isArray(c.requests) ? c.requests : null],
              [
                'Opaque',
                isObject(c.opaque)
                  ? goStruct([
                      ['Driver', str(c.opaque.driver)],
                      ['Parameters', orNull(c.opaque.parameters)],
                    ])
                  : null,
              ],
            ]),
          ),
        ],
      ]),
    ],
  ]);
}

/**
 * The internal ResourceClaimTemplateSpec as encoding/json writes it: the embedded ObjectMeta's
 * fields inline under their json names (omitempty), then `Spec`.
 */
export function goTemplateSpec(spec: Record<string, unknown>): GoRendered {
  const meta = rec(spec.metadata);
  const inline = Object.entries(meta).filter(
    ([k, v]) => v !== undefined && v !== null && v !== '' && k !== 'creationTimestamp',
  );
  return goStruct([...inline, ['Spec', goClaimSpec(rec(spec.spec))]]);
}

/** `ValidateResourceClaimTemplate`, and on an update `ValidateResourceClaimTemplateUpdate`. */
export function validateResourceClaimTemplate(obj: KubeObject, old?: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const errors = validateObjectMeta(obj);
  const meta = rec(spec.metadata);
  errors.push(...validateLabels(meta.labels, 'spec.metadata.labels'));
  errors.push(...validateAnnotations(meta.annotations, 'spec.metadata.annotations'));
  const { hand, dv } = validateDeviceClaim(rec(spec.spec).devices, 'spec.spec.devices');
  errors.push(...hand);
  if (old && !sameJson(spec, specOf(old)))
    errors.push(invalid('spec', goTemplateSpec(spec), 'field is immutable'));
  return [...errors, ...dv];
}

/** The ResourceClaimTemplate's entry in the served kinds. */
export const resourceClaimTemplateKind: ResourceKind = builtinKind(
  'resource.k8s.io',
  'v1',
  'resourceclaimtemplates',
  {
    defaults: defaultResourceClaimTemplate,
    prepareForCreate: (obj) => dropDisabledClaimFields(rec(specOf(obj).spec)),
    prepareForUpdate: (obj, old) => dropDisabledClaimFields(rec(specOf(obj).spec), rec(specOf(old).spec)),
    validate: validateResourceClaimTemplate,
    cells: {
      Age: (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
    },
  },
);
