/**
 * The ResourceSlice (resource.k8s.io/v1, cluster-scoped): the devices' taints' time added
 * (pkg/apis/resource/v1/defaults.go `SetDefaults_DeviceTaint`), validation
 * (pkg/apis/resource/validation `ValidateResourceSlice`, `ValidateResourceSliceUpdate`: driver,
 * pool, exactly one of nodeName, nodeSelector, allNodes and perDeviceNodeSelection, devices or
 * shared counters, each device's name, attributes, taints and node selection; the pool's name,
 * driver and node are fixed), its strategy (pkg/registry/resource/resourceslice/strategy.go:
 * generation 1 at create, bumped by a spec change; the fields of features off in 1.37 dropped),
 * field selectors (spec.nodeName, spec.driver, spec.pool.name) and the columns (printers.go
 * `printResourceSlice`).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { arr, isObject, objects, rec, sameJson, specOf, str } from '../access.js';
import { translateTimestampSince } from '../age.js';
import { builtinKind } from '../builtin.js';
import { validateNodeSelector } from '../core/volume/node-selector.js';
import { tooMany } from '../declarative.js';
import { GoRendered, goJsonMarshal } from '../field-value.js';
import type { FieldError, ResourceKind } from '../types.js';
import { duplicate, invalid, required, tooLong, validateObjectMeta } from '../validation.js';
import { isDNS1123Subdomain } from '../validation-names.js';
import { validateBindingParameters, validateCapacityPolicy, validateVersionValue } from './device-extras.js';
import { timeAddedNow, validateDeviceTaint } from './devicetaint.js';
import { driverNameHandwritten, validateDNSLabel, validatePoolName, validateQualifiedName } from './names.js';

/** `ResourceSliceMaxDevices`, and with taints, counters or list attributes. */
const MAX_DEVICES = 128;
const MAX_DEVICES_ADVANCED = 64;
const MAX_ATTRIBUTES_AND_CAPACITIES = 32;
const MAX_VALUE_LENGTH = 64;

/** The slice as the v1 type writes it (driver, pool and its counts have no omitempty), taints timed. */
export function defaultResourceSlice(obj: KubeObject, now: number = Date.now()): void {
  const spec = rec(obj.spec);
  obj.spec = spec;
  if (!('driver' in spec)) spec.driver = '';
  const pool = rec(spec.pool);
  spec.pool = pool;
  if (!('name' in pool)) pool.name = '';
  if (!('generation' in pool)) pool.generation = 0;
  if (!('resourceSliceCount' in pool)) pool.resourceSliceCount = 0;
  const added = timeAddedNow(now);
  for (const device of objects(spec.devices)) {
    for (const taint of objects(device.taints)) {
      if (taint.timeAdded === undefined || taint.timeAdded === null) taint.timeAdded = added;
    }
  }
}

/** The strategy's `dropDisabledFields`: features off by default in 1.37, unless the old slice used them. */
export function dropDisabledSliceFields(spec: Record<string, unknown>, old?: Record<string, unknown>): void {
  const devices = objects(spec.devices);
  const oldDevices = objects(old?.devices);
  if (old?.partitionTypeAttribute === undefined) delete spec.partitionTypeAttribute;
  if (arr(old?.skipNodeOperations).length === 0) delete spec.skipNodeOperations;
  if (!oldDevices.some((d) => Object.keys(rec(d.nodeAllocatableResources)).length > 0)) {
    for (const d of devices) delete d.nodeAllocatableResources;
  }
  if (
    !oldDevices.some((d) => objects(d.consumesCounters).some((c) => arr(c.compatibilityGroups).length > 0))
  ) {
    for (const d of devices) for (const c of objects(d.consumesCounters)) delete c.compatibilityGroups;
  }
  const listValues = ['bools', 'ints', 'strings', 'versions'];
  const usesLists = oldDevices.some((d) =>
    Object.values(rec(d.attributes)).some((a) => listValues.some((k) => rec(a)[k] !== undefined)),
  );
  if (!usesLists) {
    for (const d of devices)
      for (const a of Object.values(rec(d.attributes))) for (const k of listValues) delete rec(a)[k];
  }
}

/** `ResourceSliceMaxCounterSets` and `ResourceSliceMaxDeviceCounterConsumptionsPerDevice`. */
const MAX_COUNTER_SETS = 8;
const MAX_CONSUMPTIONS = 2;

/**
 * `validateCounterSet` and `validateDeviceCounterConsumption`, all declarative: a set's name (a DNS
 * label), counters present and named as DNS labels (checked in key order).
 */
function validateCounters(name: unknown, counters: unknown, namePath: string, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const n = str(name);
  if (n === '') errors.push(required(namePath));
  else errors.push(...validateDNSLabel(n, namePath));
  const keys = Object.keys(rec(counters)).sort();
  if (keys.length === 0) errors.push(required(`${path}.counters`));
  for (const key of keys) errors.push(...validateDNSLabel(key, `${path}.counters`));
  return errors;
}

/** A list of counter sets (or consumptions) keyed by `key`: its size, duplicates and items, declarative. */
function validateCounterList(list: unknown, path: string, key: string, max: number): FieldError[] {
  const items = objects(list);
  if (items.length > max) return [tooMany(path, items.length, max)];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const k = str(item[key]);
    if (seen.has(k)) {
      const shown = new GoRendered(
        `{${goJsonMarshal(key)}:${goJsonMarshal(k)},"counters":${goJsonMarshal(item.counters ?? null)}}`,
      );
      errors.push(duplicate(`${path}[${i}]`, shown));
    }
    seen.add(k);
  });
  items.forEach((item, i) => {
    errors.push(...validateCounters(item[key], item.counters, `${path}[${i}].${key}`, `${path}[${i}]`));
  });
  return errors;
}

/** The members of a device attribute's union, in the order declarative validation names them. */
const ATTRIBUTE_MEMBERS = ['int', 'bool', 'string', 'version', 'ints', 'bools', 'strings', 'versions'];

/**
 * `validateDeviceAttribute`: strings short enough, lists not empty (handwritten); exactly one
 * value (`+k8s:unionMember`, declarative, into `dv`).
 */
function validateAttribute(attribute: Record<string, unknown>, path: string, dv: FieldError[]): FieldError[] {
  const errors: FieldError[] = [];
  const set = ATTRIBUTE_MEMBERS.filter((k) => attribute[k] !== undefined && attribute[k] !== null);
  if (typeof attribute.version === 'string') {
    errors.push(...validateVersionValue(attribute.version, `${path}.version`));
    if (attribute.version.length > MAX_VALUE_LENGTH)
      errors.push(tooLong(`${path}.version`, MAX_VALUE_LENGTH));
  }
  for (const key of ['string', 'bools', 'ints', 'strings', 'versions']) {
    if (!set.includes(key)) continue;
    if (key === 'string' && str(attribute[key]).length > MAX_VALUE_LENGTH)
      errors.push(tooLong(`${path}.string`, MAX_VALUE_LENGTH));
    if (Array.isArray(attribute[key]) && attribute[key].length === 0)
      errors.push(invalid(`${path}.${key}`, attribute[key], 'must not be empty if specified'));
  }
  const members = ATTRIBUTE_MEMBERS.map((m) => `\`${m}\``).join(', ');
  if (set.length === 0) dv.push(invalid(path, '', `must specify one of: ${members}`));
  else if (set.length > 1)
    dv.push(invalid(path, `{${set.join(', ')}}`, `must specify exactly one of: ${members}`));
  return errors;
}

/** `validateDevice`, as far as this serves: name, attributes, capacity names, taints, node selection. */
function validateDevice(
  device: Record<string, unknown>,
  path: string,
  perDevice: boolean,
  dv: FieldError[],
): FieldError[] {
  const errors = validateDNSLabel(str(device.name), `${path}.name`);
  const attributes = rec(device.attributes);
  const capacity = rec(device.capacity);
  const total = Object.keys(attributes).length + Object.keys(capacity).length;
  if (total > MAX_ATTRIBUTES_AND_CAPACITIES) {
    errors.push(
      invalid(
        path,
        total,
        `the total number of attributes and capacities must not exceed ${MAX_ATTRIBUTES_AND_CAPACITIES}`,
      ),
    );
  }
  for (const [key, value] of Object.entries(attributes)) {
    errors.push(...validateQualifiedName(key, `${path}.attributes`));
    errors.push(...validateAttribute(rec(value), `${path}.attributes[${key}]`, dv));
  }
  const multiple = device.allowMultipleAllocations === true;
  for (const [key, value] of Object.entries(capacity)) {
    errors.push(...validateQualifiedName(key, `${path}.capacity`));
    errors.push(...validateCapacityPolicy(value, multiple, `${path}.capacity[${key}]`));
  }
  objects(device.taints).forEach((t, i) => {
    const out = { hand: [] as FieldError[], dv: [] as FieldError[] };
    validateDeviceTaint(t, undefined, `${path}.taints[${i}]`, out);
    errors.push(...out.hand);
    dv.push(...out.dv);
  });
  dv.push(
    ...validateCounterList(
      device.consumesCounters,
      `${path}.consumesCounters`,
      'counterSet',
      MAX_CONSUMPTIONS,
    ),
  );
  const set: string[] = [];
  if (perDevice) {
    if (typeof device.nodeName === 'string') {
      if (device.nodeName !== '') {
        set.push('`nodeName`');
        for (const msg of isDNS1123Subdomain(device.nodeName))
          errors.push(invalid(`${path}.nodeName`, device.nodeName, msg));
      } else errors.push(invalid(`${path}.nodeName`, '', 'must not be empty'));
    }
    if (isObject(device.nodeSelector)) {
      set.push('`nodeSelector`');
      errors.push(...validateNodeSelector(device.nodeSelector, `${path}.nodeSelector`));
    }
    if (typeof device.allNodes === 'boolean') {
      if (device.allNodes) set.push('`allNodes`');
      else errors.push(invalid(`${path}.allNodes`, false, 'must be either unset or set to true'));
    }
    const message =
      'exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec';
    if (set.length === 0) errors.push(required(path, message));
    else if (set.length > 1) errors.push(invalid(path, `{${set.join(', ')}}`, message));
  } else if (device.nodeName != null || device.nodeSelector != null || device.allNodes != null) {
    errors.push(
      invalid(
        path,
        null,
        '`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec',
      ),
    );
  }
  const [binding, bindingDv] = validateBindingParameters(device, path);
  errors.push(...binding);
  dv.push(...bindingDv);
  return errors;
}

/** `validateResourceSliceSpec`. */
function validateSpec(spec: Record<string, unknown>, old: Record<string, unknown> | undefined): FieldError[] {
  const errors = driverNameHandwritten(spec.driver, 'spec.driver');
  const pool = rec(spec.pool);
  errors.push(...validatePoolName(str(pool.name), 'spec.pool.name'));
  const count = typeof pool.resourceSliceCount === 'number' ? pool.resourceSliceCount : 0;
  if (count <= 0) errors.push(invalid('spec.pool.resourceSliceCount', count, 'must be greater than zero'));
  const generation = typeof pool.generation === 'number' ? pool.generation : 0;
  if (generation < 0)
    errors.push(invalid('spec.pool.generation', generation, 'must be greater than or equal to zero'));
  if (old) {
    const oldPool = str(rec(old.pool).name);
    if (str(pool.name) !== oldPool)
      errors.push(invalid('spec.pool.name', str(pool.name), 'field is immutable'));
    if (str(spec.driver) !== str(old.driver))
      errors.push(invalid('spec.driver', str(spec.driver), 'field is immutable'));
    if (!sameJson(spec.nodeName ?? null, old.nodeName ?? null))
      errors.push(invalid('spec.nodeName', spec.nodeName ?? null, 'field is immutable'));
  }
  const set: string[] = [];
  if (typeof spec.nodeName === 'string') {
    if (spec.nodeName !== '') {
      set.push('`nodeName`');
      for (const msg of isDNS1123Subdomain(spec.nodeName))
        errors.push(invalid('spec.nodeName', spec.nodeName, msg));
    } else errors.push(invalid('spec.nodeName', '', 'must be either unset or set to a non-empty string'));
  }
  if (isObject(spec.nodeSelector)) {
    set.push('`nodeSelector`');
    errors.push(...validateNodeSelector(spec.nodeSelector, 'spec.nodeSelector'));
    const terms = spec.nodeSelector.nodeSelectorTerms;
    if (arr(terms).length !== 1) {
      errors.push(
        invalid(
          'spec.nodeSelector.nodeSelectorTerms',
          terms ?? null,
          'must have exactly one node selector term',
        ),
      );
    }
  }
  for (const key of ['allNodes', 'perDeviceNodeSelection']) {
    if (typeof spec[key] !== 'boolean') continue;
    if (spec[key]) set.push(`\`${key}\``);
    else errors.push(invalid(`spec.${key}`, false, 'must be either unset or set to true'));
  }
  const message =
    'exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required';
  if (set.length === 0) errors.push(required('spec', message));
  else if (set.length > 1)
    errors.push(invalid('spec', `{${set.join(', ')}}`, `${message}, but multiple fields are set`));
  if (Array.isArray(spec.sharedCounters) && Array.isArray(spec.devices))
    errors.push(invalid('spec', '', 'only one of `sharedCounters` or `devices` is allowed'));
  const devices = objects(spec.devices);
  const advanced = devices.some((d) => arr(d.taints).length > 0 || arr(d.consumesCounters).length > 0);
  const max = advanced ? MAX_DEVICES_ADVANCED : MAX_DEVICES;
  if (devices.length > max) {
    errors.push({
      type: 'FieldValueTooMany',
      field: 'spec.devices',
      message: `Too many: ${devices.length}: must have at most ${max} items`,
    });
    return errors;
  }
  const names = new Set<string>();
  const dv: FieldError[] = [];
  devices.forEach((d, i) => {
    errors.push(...validateDevice(d, `spec.devices[${i}]`, spec.perDeviceNodeSelection === true, dv));
  });
  devices.forEach((d, i) => {
    const name = str(d.name);
    if (names.has(name)) errors.push(duplicate(`spec.devices[${i}]`, name));
    names.add(name);
  });
  dv.push(...validateCounterList(spec.sharedCounters, 'spec.sharedCounters', 'name', MAX_COUNTER_SETS));
  return [...errors, ...dv];
}

/** `ValidateResourceSlice`, and on an update `ValidateResourceSliceUpdate`. */
export function validateResourceSlice(obj: KubeObject, old?: KubeObject): FieldError[] {
  return [
    ...(old ? [] : validateObjectMeta(obj)),
    ...validateSpec(specOf(obj), old ? specOf(old) : undefined),
  ];
}

/** The strategy's PrepareForUpdate: a spec change bumps the generation. */
export function prepareResourceSliceUpdate(obj: KubeObject, old: KubeObject): void {
  dropDisabledSliceFields(specOf(obj), specOf(old));
  const meta = obj.metadata ?? {};
  obj.metadata = meta;
  const copy = structuredClone(obj);
  defaultResourceSlice(copy);
  const generation = old.metadata?.generation ?? 0;
  meta.generation = sameJson(specOf(copy), specOf(old)) ? generation : generation + 1;
}

const nodeNameOf = (o: KubeObject) => str(specOf(o).nodeName);

/** The ResourceSlice's entry in the served kinds. */
export const resourceSliceKind: ResourceKind = builtinKind('resource.k8s.io', 'v1', 'resourceslices', {
  fields: {
    'spec.nodeName': nodeNameOf,
    'spec.driver': (o) => str(specOf(o).driver),
    'spec.pool.name': (o) => str(rec(specOf(o).pool).name),
  },
  defaults: (obj) => defaultResourceSlice(obj),
  prepareForCreate: (obj) => {
    obj.metadata = { ...obj.metadata, generation: 1 };
    dropDisabledSliceFields(specOf(obj));
  },
  prepareForUpdate: prepareResourceSliceUpdate,
  validate: validateResourceSlice,
  cells: {
    Node: nodeNameOf,
    Driver: (o) => str(specOf(o).driver),
    Pool: (o) => str(rec(specOf(o).pool).name),
    Age: (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
  },
});
