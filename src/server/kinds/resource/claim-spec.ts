/**
 * A ResourceClaimSpec, which ResourceClaims and ResourceClaimTemplates share: its defaults
 * (pkg/apis/resource/v1/defaults.go `SetDefaults_ExactDeviceRequest`, `SetDefaults_DeviceSubRequest`:
 * ExactCount of one device, tolerations' `Equal` operator), the fields a disabled feature drops
 * (pkg/api/resourceclaimspec `DropDisabledFields`: derivedAttributes, DRADerivedAttributes being
 * off in 1.37) and its validation (pkg/apis/resource/validation `validateDeviceClaim`).
 *
 * Validation returns two lists: the handwritten errors declarative validation leaves alone, and
 * the declarative ones (zz_generated.validations.go: list sizes and uniqueness, enums, the
 * tolerations' keys, attribute names, the config's driver), which kube-apiserver reports after
 * them, in the type's field order. CEL selectors are checked in cel.ts.
 */

import { arr, isObject, objects, rec, str } from '../access.js';
import { maxItems } from '../declarative.js';
import { GoRendered } from '../field-value.js';
import type { FieldError } from '../types.js';
import { duplicate, invalid, notSupported, required, tooLong } from '../validation.js';
import { validateCELExpression } from './cel.js';
import {
  driverNameDeclarative,
  fullyQualifiedNameDeclarative,
  validateDNSLabel,
  validateDNSSubdomain,
  validateLabelName,
  validateLabelValue,
} from './names.js';

/** The limits of pkg/apis/resource/types.go. */
export const LIMITS = {
  requests: 32,
  firstAvailable: 8,
  selectors: 32,
  constraints: 32,
  config: 32,
  parameters: 10 * 1024,
} as const;

const EFFECTS = ['NoExecute', 'NoSchedule', 'None'];
const OPERATORS = ['Equal', 'Exists'];
const ALLOCATION_MODES = ['All', 'ExactCount'];

/** The two lists a validation gives: handwritten errors first, declarative ones after. */
export interface SplitErrors {
  hand: FieldError[];
  dv: FieldError[];
}

/** `SetDefaults_ExactDeviceRequest` and `SetDefaults_DeviceSubRequest`, with the tolerations' operator. */
function defaultRequest(req: Record<string, unknown>): void {
  if (req.allocationMode === undefined || req.allocationMode === null || req.allocationMode === '')
    req.allocationMode = 'ExactCount';
  if (
    req.allocationMode === 'ExactCount' &&
    (req.count === undefined || req.count === null || req.count === 0)
  )
    req.count = 1;
  defaultTolerations(req.tolerations);
}

/** A toleration without an operator tolerates `Equal`ly. */
export function defaultTolerations(tolerations: unknown): void {
  for (const t of objects(tolerations)) {
    if (t.operator === undefined || t.operator === null || t.operator === '') t.operator = 'Equal';
  }
}

/**
 * The defaults of a claim spec, and its fields as the v1 type writes them: `devices` and
 * `devices.requests` have no omitempty (`requests: null` when none were sent).
 */
export function defaultClaimSpec(spec: Record<string, unknown>): void {
  if (!isObject(spec.devices)) spec.devices = {};
  const devices = rec(spec.devices);
  if (!('requests' in devices)) devices.requests = null;
  for (const request of objects(devices.requests)) {
    if (isObject(request.exactly)) defaultRequest(request.exactly);
    for (const sub of objects(request.firstAvailable)) defaultRequest(sub);
  }
}

/** `dropDisabledDRADerivedAttributesFields`: DRADerivedAttributes is off unless the old spec used them. */
export function dropDisabledClaimFields(spec: Record<string, unknown>, old?: Record<string, unknown>): void {
  const uses = (s: Record<string, unknown> | undefined) =>
    objects(rec(s?.devices).requests).some(
      (r) =>
        arr(rec(r.exactly).derivedAttributes).length > 0 ||
        objects(r.firstAvailable).some((sub) => arr(sub.derivedAttributes).length > 0),
    );
  if (uses(old)) return;
  for (const r of objects(rec(spec.devices).requests)) {
    if (isObject(r.exactly)) delete r.exactly.derivedAttributes;
    for (const sub of objects(r.firstAvailable)) delete sub.derivedAttributes;
  }
}

/** `validateSelectorSlice` (the size is declarative). */
export function validateSelectors(selectors: unknown, path: string, out: SplitErrors): void {
  if (Array.isArray(selectors) && selectors.length > LIMITS.selectors) {
    out.dv.push(...maxItems(selectors, path, LIMITS.selectors));
    return;
  }
  arr(selectors).forEach((s, i) => {
    const cel = rec(s).cel;
    if (!isObject(cel)) out.hand.push(required(`${path}[${i}].cel`));
    else out.hand.push(...validateCELExpression(str(cel.expression), `${path}[${i}].cel.expression`));
  });
}

/** `validateDeviceToleration`: value rules by hand; key, operator and effect declarative. */
export function validateToleration(t: Record<string, unknown>, path: string, out: SplitErrors): void {
  const key = str(t.key);
  const op = str(t.operator);
  if (op === 'Exists' && str(t.value) !== '')
    out.hand.push(invalid(`${path}.value`, str(t.value), 'must be empty for operator `Exists`'));
  if (op === 'Equal') out.hand.push(...validateLabelValue(str(t.value), `${path}.value`));
  if (key !== '') out.dv.push(...validateLabelName(key, `${path}.key`));
  if (op === '') out.dv.push(required(`${path}.operator`));
  else if (!OPERATORS.includes(op)) out.dv.push(notSupported(`${path}.operator`, op, OPERATORS));
  const effect = str(t.effect);
  if (effect !== '' && !EFFECTS.includes(effect))
    out.dv.push(notSupported(`${path}.effect`, effect, EFFECTS));
}

/** `validateDeviceAllocationMode`. */
function validateAllocationMode(req: Record<string, unknown>, path: string, out: SplitErrors): void {
  const mode = str(req.allocationMode);
  const count = typeof req.count === 'number' ? req.count : 0;
  if (mode === 'All') {
    if (count !== 0)
      out.hand.push(invalid(`${path}.count`, count, "must not be specified when allocationMode is 'All'"));
  } else if (mode === 'ExactCount') {
    if (count <= 0) out.hand.push(invalid(`${path}.count`, count, 'must be greater than zero'));
  } else {
    out.dv.push(notSupported(`${path}.allocationMode`, mode, ALLOCATION_MODES));
  }
}

/** The body of an exact request or a subrequest (`validateExactDeviceRequest`, `validateDeviceSubRequest`). */
function validateRequestBody(
  req: Record<string, unknown>,
  path: string,
  sub: boolean,
  out: SplitErrors,
): void {
  const className = str(req.deviceClassName);
  // A subrequest's class name is declarative; an exact request's is not.
  const classErrors =
    className === ''
      ? [required(`${path}.deviceClassName`)]
      : validateDNSSubdomain(className, `${path}.deviceClassName`);
  const classOut = sub ? out.dv : out.hand;
  if (!sub) classOut.push(...classErrors);
  validateSelectors(req.selectors, `${path}.selectors`, out);
  if (sub) classOut.push(...classErrors);
  validateAllocationMode(req, path, out);
  objects(req.tolerations).forEach((t, i) => {
    validateToleration(t, `${path}.tolerations[${i}]`, out);
  });
}

/** Duplicate items of a list keyed by `key` (`validateSet`'s uniqueness, declarative here). */
function duplicates(
  list: unknown[],
  path: string,
  key: (item: unknown) => string,
  shown: (item: unknown) => unknown,
): FieldError[] {
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  list.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) errors.push(duplicate(`${path}[${i}]`, shown(item)));
    else seen.add(k);
  });
  return errors;
}

/** A list item as the duplicate error prints it: the versioned struct marshalled. */
export const asJson = (item: unknown) => new GoRendered(JSON.stringify(item));

/** The v1 struct field order of the request types (k8s.io/api resource/v1 types.go). */
const FIELD_ORDER: Readonly<Record<string, readonly string[]>> = {
  request: ['name', 'exactly', 'firstAvailable'],
  exactly: [
    'deviceClassName',
    'selectors',
    'allocationMode',
    'count',
    'adminAccess',
    'tolerations',
    'capacity',
    'derivedAttributes',
  ],
  sub: [
    'name',
    'deviceClassName',
    'selectors',
    'allocationMode',
    'count',
    'tolerations',
    'capacity',
    'derivedAttributes',
  ],
  toleration: ['key', 'operator', 'value', 'effect', 'tolerationSeconds'],
};

/** `obj` with its known fields in `order` (unknown ones, which decoding dropped, left out). */
function ordered(
  obj: unknown,
  order: readonly string[],
  nested: Record<string, (v: unknown) => unknown> = {},
): unknown {
  const o = rec(obj);
  const out: Record<string, unknown> = {};
  for (const k of order) if (k in o) out[k] = nested[k] ? nested[k](o[k]) : o[k];
  return out;
}

const tolerations = (v: unknown) =>
  Array.isArray(v) ? v.map((t) => ordered(t, FIELD_ORDER.toleration!)) : v;

/** A request as encoding/json writes the v1 DeviceRequest: the duplicate error's value. */
function requestJson(r: unknown): GoRendered {
  return asJson(
    ordered(r, FIELD_ORDER.request!, {
      exactly: (e) => ordered(e, FIELD_ORDER.exactly!, { tolerations }),
      firstAvailable: (f) => (Array.isArray(f) ? f.map((x) => subRequestJson(x)) : f),
    }),
  );
}

const subRequestJson = (s: unknown) => ordered(s, FIELD_ORDER.sub!, { tolerations });

/** The request and subrequest names a claim declares (`gatherRequestNames`). */
function requestNames(requests: Record<string, unknown>[]): Map<string, Set<string> | null> {
  const names = new Map<string, Set<string> | null>();
  for (const r of requests) {
    const subs = objects(r.firstAvailable);
    names.set(str(r.name), subs.length === 0 ? null : new Set(subs.map((s) => str(s.name))));
  }
  return names;
}

/** `validateRequestNameRef`: `request` or `request/subrequest`, declared in the claim. */
export function validateRequestNameRef(
  name: string,
  path: string,
  names: Map<string, Set<string> | null>,
): FieldError[] {
  const message =
    "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";
  const segments = name.split('/');
  if (segments.length > 2) return [invalid(path, name, message)];
  const errors = segments.flatMap((s) => validateDNSLabel(s, path));
  const subs = names.get(segments[0] ?? '');
  const found =
    names.has(segments[0] ?? '') && (segments.length === 1 || (subs?.has(segments[1] ?? '') ?? false));
  if (!found) errors.push(invalid(path, name, message));
  return errors;
}

/** A list of request names (`constraints[].requests`, `config[].requests`): size and uniqueness declarative. */
export function validateNameRefs(
  list: unknown,
  path: string,
  names: Map<string, Set<string> | null>,
  out: SplitErrors,
): void {
  if (Array.isArray(list) && list.length > LIMITS.requests) {
    out.dv.push(...maxItems(list, path, LIMITS.requests));
    return;
  }
  const refs = arr(list).map(str);
  refs.forEach((n, i) => {
    out.hand.push(...validateRequestNameRef(n, `${path}[${i}]`, names));
  });
  out.dv.push(
    ...duplicates(
      refs,
      path,
      (x) => str(x),
      (x) => x,
    ),
  );
}

/** `validateDeviceConfiguration` + `validateOpaqueConfiguration`: the driver declarative, the parameters an object. */
export function validateDeviceConfiguration(
  config: Record<string, unknown>,
  path: string,
  out: SplitErrors,
): void {
  if (!isObject(config.opaque)) {
    out.hand.push(required(`${path}.opaque`));
    return;
  }
  const opaque = config.opaque;
  const params = opaque.parameters;
  const p = `${path}.opaque.parameters`;
  if (params === undefined || params === null) out.hand.push(required(p));
  else if (JSON.stringify(params).length > LIMITS.parameters) out.hand.push(tooLong(p, LIMITS.parameters));
  else if (!isObject(params)) out.hand.push(invalid(p, '<value omitted>', 'must be a valid JSON object'));
  out.dv.push(...driverNameDeclarative(opaque.driver, `${path}.opaque.driver`));
}

/** `validateDeviceClaim` of `spec.devices` at `path`. */
export function validateDeviceClaim(devicesIn: unknown, path: string): SplitErrors {
  const out: SplitErrors = { hand: [], dv: [] };
  const devices = rec(devicesIn);
  const requests = objects(devices.requests);
  const names = requestNames(requests);
  const reqPath = `${path}.requests`;
  if (arr(devices.requests).length > LIMITS.requests) {
    out.dv.push(...maxItems(devices.requests, reqPath, LIMITS.requests));
  } else {
    const dv: FieldError[] = [];
    const itemsDv: FieldError[] = [];
    requests.forEach((r, i) => {
      const at = `${reqPath}[${i}]`;
      const item: SplitErrors = { hand: out.hand, dv: itemsDv };
      out.hand.push(...validateDNSLabel(str(r.name), `${at}.name`));
      const hasFirst = arr(r.firstAvailable).length > 0;
      const hasExactly = isObject(r.exactly);
      if (!hasFirst && !hasExactly) {
        out.hand.push(required(at, 'exactly one of `exactly` or `firstAvailable` is required'));
      } else if (hasFirst && hasExactly) {
        out.hand.push(
          invalid(
            at,
            null,
            'exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set',
          ),
        );
      } else if (hasFirst) {
        const subs = objects(r.firstAvailable);
        if (subs.length > LIMITS.firstAvailable) {
          itemsDv.push(...maxItems(r.firstAvailable, `${at}.firstAvailable`, LIMITS.firstAvailable));
        } else {
          const subDv: FieldError[] = [];
          subs.forEach((s, j) => {
            const sp = `${at}.firstAvailable[${j}]`;
            out.hand.push(...validateDNSLabel(str(s.name), `${sp}.name`));
            validateRequestBody(s, sp, true, { hand: out.hand, dv: subDv });
          });
          itemsDv.push(
            ...duplicates(
              subs,
              `${at}.firstAvailable`,
              (s) => str(rec(s).name),
              (s) => asJson(subRequestJson(s)),
            ),
            ...subDv,
          );
        }
      } else {
        validateRequestBody(rec(r.exactly), `${at}.exactly`, false, item);
      }
    });
    dv.push(...duplicates(requests, reqPath, (r) => str(rec(r).name), requestJson), ...itemsDv);
    out.dv.push(...dv);
  }
  const constraintsPath = `${path}.constraints`;
  if (arr(devices.constraints).length > LIMITS.constraints) {
    out.dv.push(...maxItems(devices.constraints, constraintsPath, LIMITS.constraints));
  } else {
    objects(devices.constraints).forEach((c, i) => {
      const at = `${constraintsPath}[${i}]`;
      validateNameRefs(c.requests, `${at}.requests`, names, out);
      if (typeof c.matchAttribute === 'string') {
        out.dv.push(...fullyQualifiedNameDeclarative(c.matchAttribute, `${at}.matchAttribute`));
      } else if (typeof c.distinctAttribute === 'string') {
        out.dv.push(...fullyQualifiedNameDeclarative(c.distinctAttribute, `${at}.distinctAttribute`));
      } else {
        out.hand.push(
          required(
            at,
            'exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set',
          ),
        );
      }
    });
  }
  const configPath = `${path}.config`;
  if (arr(devices.config).length > LIMITS.config) {
    out.dv.push(...maxItems(devices.config, configPath, LIMITS.config));
  } else {
    objects(devices.config).forEach((c, i) => {
      const at = `${configPath}[${i}]`;
      validateNameRefs(c.requests, `${at}.requests`, names, out);
      validateDeviceConfiguration(c, at, out);
    });
  }
  return out;
}
