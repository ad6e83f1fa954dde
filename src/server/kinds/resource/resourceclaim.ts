/**
 * The ResourceClaim (resource.k8s.io/v1, namespaced, with /status): the spec's defaults and
 * validation (claim-spec.ts), its strategy (pkg/registry/resource/resourceclaim/strategy.go: the
 * status emptied on create and kept on a main update, a fixed spec, /status keeping the spec and
 * metadata), the status rules (pkg/apis/resource/validation `validateResourceClaimStatusUpdate`:
 * consumers need an allocation and their resource, name and uid; an allocation's results name
 * the claim's requests, a driver, pool and device; an allocation stays as written) and the State
 * column (printers.go `resourceClaimState`).
 */

import { isIP } from 'node:net';
import type { KubeObject } from '../../../protocol/events.js';
import { arr, isObject, objects, rec, sameJson, specOf, statusOf, str } from '../access.js';
import { translateTimestampSince } from '../age.js';
import { builtinKind } from '../builtin.js';
import { validateNodeSelector } from '../core/volume/node-selector.js';
import { immutable, maxItems, tooMany } from '../declarative.js';
import { goStruct } from '../field-value.js';
import { validateConditions } from '../policy/conditions.js';
import type { FieldError, ResourceKind } from '../types.js';
import {
  duplicate,
  forbidden,
  invalid,
  notSupported,
  required,
  tooLong,
  validateObjectMeta,
} from '../validation.js';
import {
  asJson,
  defaultClaimSpec,
  defaultTolerations,
  dropDisabledClaimFields,
  type SplitErrors,
  validateDeviceClaim,
  validateDeviceConfiguration,
  validateNameRefs,
  validateRequestNameRef,
  validateToleration,
} from './claim-spec.js';
import { validateBindingParameters } from './device-extras.js';
import {
  driverNameDeclarative,
  driverNameHandwritten,
  poolNameDeclarative,
  resetMetaForStatus,
  validateDNSLabel,
  validatePoolName,
} from './names.js';

/** `resource.ResourceClaimReservedForMaxSize` and `AllocationResultsMaxSize`. */
const MAX_RESERVED_FOR = 256;
const MAX_RESULTS = 32;
/** The sources of an allocation's configuration, as the message lists them. */
const CONFIG_SOURCES = ['FromClaim', 'FromClass'];

/** The claim as the v1 type writes it (`spec`, `status` always there) with its defaults. */
export function defaultResourceClaim(obj: KubeObject): void {
  const spec = rec(obj.spec);
  obj.spec = spec;
  defaultClaimSpec(spec);
  const status = rec(obj.status);
  obj.status = status;
  const allocation = rec(status.allocation);
  for (const r of objects(rec(allocation.devices).results)) defaultTolerations(r.tolerations);
  // AllocatedDeviceStatus.conditions has no omitempty.
  for (const d of objects(status.devices)) if (!('conditions' in d)) d.conditions = null;
}

/** `ValidateResourceClaim` (create) and `ValidateResourceClaimUpdate` (a fixed spec). */
export function validateResourceClaim(obj: KubeObject, old?: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  if (old) {
    if (!sameJson(specOf(obj), specOf(old))) errors.push(immutable('spec'));
    return errors;
  }
  const { hand, dv } = validateDeviceClaim(specOf(obj).devices, 'spec.devices');
  return [...errors, ...hand, ...dv];
}

/** The request names a claim declares, for the status' references. */
function namesOf(obj: KubeObject): Map<string, Set<string> | null> {
  const names = new Map<string, Set<string> | null>();
  for (const r of objects(rec(specOf(obj).devices).requests)) {
    const subs = objects(r.firstAvailable);
    names.set(str(r.name), subs.length === 0 ? null : new Set(subs.map((s) => str(s.name))));
  }
  return names;
}

/** `validateDeviceRequestAllocationResult` of each result, the driver and pool declarative. */
function validateAllocation(allocation: Record<string, unknown>, obj: KubeObject, out: SplitErrors): void {
  const path = 'status.allocation.devices.results';
  const results = rec(allocation.devices).results;
  if (arr(results).length > MAX_RESULTS) {
    out.dv.push(...maxItems(results, path, MAX_RESULTS));
  } else {
    const names = namesOf(obj);
    objects(results).forEach((r, i) => {
      const at = `${path}[${i}]`;
      out.hand.push(...validateRequestNameRef(str(r.request), `${at}.request`, names));
      out.dv.push(...driverNameDeclarative(r.driver, `${at}.driver`));
      out.dv.push(...poolNameDeclarative(str(r.pool), `${at}.pool`));
      out.hand.push(...validateDNSLabel(str(r.device), `${at}.device`));
      const [binding, bindingDv] = validateBindingParameters(r, at);
      out.hand.push(...binding);
      out.dv.push(...bindingDv);
      objects(r.tolerations).forEach((t, j) => {
        validateToleration(t, `${at}.tolerations[${j}]`, out);
      });
    });
  }
  const configPath = 'status.allocation.devices.config';
  const config = rec(allocation.devices).config;
  if (arr(config).length > 2 * MAX_RESULTS) out.dv.push(...maxItems(config, configPath, 2 * MAX_RESULTS));
  else {
    const names = namesOf(obj);
    objects(config).forEach((c, i) => {
      const at = `${configPath}[${i}]`;
      // validateAllocationConfigSource: declarative (+k8s:required, +k8s:enum).
      const source = str(c.source);
      if (source === '') out.dv.push(required(`${at}.source`));
      else if (!CONFIG_SOURCES.includes(source))
        out.dv.push(notSupported(`${at}.source`, source, CONFIG_SOURCES));
      validateNameRefs(c.requests, `${at}.requests`, names, out);
      validateDeviceConfiguration(c, at, out);
    });
  }
  if (isObject(allocation.nodeSelector)) {
    out.hand.push(...validateNodeSelector(allocation.nodeSelector, 'status.allocation.nodeSelector'));
  }
}

/** `resource.NetworkDeviceData*` limits and `AllocatedDeviceStatusDataMaxLength`. */
const MAX_INTERFACE_NAME = 256;
const MAX_HARDWARE_ADDRESS = 128;
const MAX_IPS = 16;
const MAX_DEVICE_CONDITIONS = 8;
const MAX_DATA = 10 * 1024;

/** The key a device is known by in an allocation and in the status: driver, pool, device, share. */
const deviceKey = (d: Record<string, unknown>) =>
  JSON.stringify([str(d.driver), str(d.pool), str(d.device), str(d.shareID)]);

/** validation.IsValidInterfaceAddress: an address with its prefix length, in CIDR form. */
function isInterfaceAddress(value: string): boolean {
  const [ip = '', bits, ...rest] = value.split('/');
  if (bits === undefined || rest.length > 0 || !/^\d{1,3}$/.test(bits)) return false;
  const family = isIP(ip);
  return family !== 0 && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * `validateDeviceStatus` of each of `status.devices`: a driver, pool and device the allocation
 * holds, conditions, data an object, network data (the sizes and duplicates declarative).
 */
function validateDeviceStatuses(status: Record<string, unknown>, out: SplitErrors): void {
  const allocated = new Set(objects(rec(rec(status.allocation).devices).results).map(deviceKey));
  const devices = objects(status.devices);
  const itemsDv: FieldError[] = [];
  const seen = new Set<string>();
  const dupes: FieldError[] = [];
  devices.forEach((d, i) => {
    const at = `status.devices[${i}]`;
    out.hand.push(...driverNameHandwritten(d.driver, `${at}.driver`));
    out.hand.push(...validatePoolName(str(d.pool), `${at}.pool`));
    out.hand.push(...validateDNSLabel(str(d.device), `${at}.device`));
    if (!allocated.has(deviceKey(d))) {
      const id = goStruct([
        ['Driver', str(d.driver)],
        ['Pool', str(d.pool)],
        ['Device', str(d.device)],
        ['ShareID', str(d.shareID)],
      ]);
      out.hand.push(invalid(at, id, 'must be an allocated device in the claim'));
    }
    const conditions = arr(d.conditions);
    if (conditions.length > MAX_DEVICE_CONDITIONS) {
      out.hand.push(tooMany(`${at}.conditions`, conditions.length, MAX_DEVICE_CONDITIONS));
    }
    out.hand.push(...validateConditions(d.conditions, `${at}.conditions`));
    if (d.data !== undefined && d.data !== null) {
      if (JSON.stringify(d.data).length > MAX_DATA) out.hand.push(tooLong(`${at}.data`, MAX_DATA));
      else if (!isObject(d.data))
        out.hand.push(invalid(`${at}.data`, '<value omitted>', 'must be a valid JSON object'));
    }
    const net = rec(d.networkData);
    if (str(net.interfaceName).length > MAX_INTERFACE_NAME)
      itemsDv.push(tooLong(`${at}.networkData.interfaceName`, MAX_INTERFACE_NAME));
    if (str(net.hardwareAddress).length > MAX_HARDWARE_ADDRESS)
      itemsDv.push(tooLong(`${at}.networkData.hardwareAddress`, MAX_HARDWARE_ADDRESS));
    const ips = arr(net.ips).map(str);
    if (ips.length > MAX_IPS) itemsDv.push(tooMany(`${at}.networkData.ips`, ips.length, MAX_IPS));
    else {
      const ipSeen = new Set<string>();
      ips.forEach((ip, j) => {
        const ipPath = `${at}.networkData.ips[${j}]`;
        if (!isInterfaceAddress(ip)) {
          out.hand.push(
            invalid(ipPath, ip, 'must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)'),
          );
        }
        if (ipSeen.has(ip)) itemsDv.push(duplicate(ipPath, ip));
        ipSeen.add(ip);
      });
    }
    const key = deviceKey(d);
    if (seen.has(key)) {
      const shown = asJson({
        driver: str(d.driver),
        pool: str(d.pool),
        device: str(d.device),
        ...(d.shareID !== undefined ? { shareID: d.shareID } : {}),
        conditions: d.conditions ?? null,
        ...(d.data !== undefined ? { data: d.data } : {}),
        ...(d.networkData !== undefined ? { networkData: d.networkData } : {}),
      });
      dupes.push(duplicate(at, shown));
    }
    seen.add(key);
  });
  out.dv.push(...dupes, ...itemsDv);
}

/** `ValidateResourceClaimStatusUpdate`. */
export function validateResourceClaimStatus(obj: KubeObject, old: KubeObject): FieldError[] {
  const status = statusOf(obj);
  const oldStatus = statusOf(old);
  const out: SplitErrors = { hand: [], dv: [] };
  const reservedFor = status.reservedFor;
  if (arr(reservedFor).length > MAX_RESERVED_FOR) {
    out.dv.push(...maxItems(reservedFor, 'status.reservedFor', MAX_RESERVED_FOR));
  } else {
    const uids = new Set<string>();
    objects(reservedFor).forEach((ref, i) => {
      const at = `status.reservedFor[${i}]`;
      if (str(ref.resource) === '') out.hand.push(required(`${at}.resource`));
      if (str(ref.name) === '') out.hand.push(required(`${at}.name`));
      if (str(ref.uid) === '') out.hand.push(required(`${at}.uid`));
      const uid = str(ref.uid);
      // The declarative uniqueness check prints the whole reference, as the v1 struct marshals.
      const shown = asJson({
        ...(str(ref.apiGroup) !== '' ? { apiGroup: ref.apiGroup } : {}),
        resource: str(ref.resource),
        name: str(ref.name),
        uid,
      });
      if (uids.has(uid)) out.dv.push(duplicate(at, shown));
      uids.add(uid);
    });
  }
  validateDeviceStatuses(status, out);
  const allocated = isObject(status.allocation);
  if (arr(reservedFor).length > 0) {
    if (!allocated) {
      out.hand.push(forbidden('status.reservedFor', 'may not be specified when `allocated` is not set'));
    } else if (obj.metadata?.deletionTimestamp) {
      const before = new Set(objects(oldStatus.reservedFor).map((r) => JSON.stringify(r)));
      if (objects(reservedFor).some((r) => !before.has(JSON.stringify(r)))) {
        out.hand.push(
          forbidden(
            'status.reservedFor',
            'new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set',
          ),
        );
      }
    }
  }
  if (allocated && isObject(oldStatus.allocation)) {
    if (!sameJson(status.allocation, oldStatus.allocation)) {
      out.dv.push(invalid('status.allocation', null, 'field cannot be modified once set'));
    }
  } else if (allocated) {
    validateAllocation(rec(status.allocation), obj, out);
  }
  return [...out.hand, ...out.dv];
}

/** printers.go `resourceClaimState`: deleted, pending, allocated, reserved. */
export function resourceClaimState(obj: KubeObject): string {
  const states: string[] = [];
  const deleted = Boolean(obj.metadata?.deletionTimestamp);
  if (deleted) states.push('deleted');
  const status = statusOf(obj);
  if (!isObject(status.allocation)) {
    if (!deleted) states.push('pending');
  } else {
    states.push('allocated');
    if (arr(status.reservedFor).length > 0) states.push('reserved');
  }
  return states.join(',');
}

/** The ResourceClaim's entry in the served kinds. */
export const resourceClaimKind: ResourceKind = builtinKind('resource.k8s.io', 'v1', 'resourceclaims', {
  defaults: defaultResourceClaim,
  prepareForCreate: (obj) => {
    obj.status = {};
    dropDisabledClaimFields(specOf(obj));
  },
  prepareForUpdate: (obj, old) => dropDisabledClaimFields(specOf(obj), specOf(old)),
  validate: validateResourceClaim,
  prepareForStatusUpdate: resetMetaForStatus,
  validateStatusUpdate: validateResourceClaimStatus,
  cells: {
    State: resourceClaimState,
    Age: (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
  },
});
