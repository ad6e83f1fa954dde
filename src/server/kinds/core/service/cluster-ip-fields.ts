/**
 * The Service's cluster IP fields as its REST storage settles and checks them before allocating
 * (pkg/registry/core/service/storage/storage.go `normalizeClusterIPs`; alloc.go
 * `initIPFamilyFields`, which runs pkg/apis/core/validation `ValidateServiceClusterIPsRelatedFields`
 * first and answers its errors alone): clusterIP and clusterIPs in step, each address valid
 * (`IsValidIPForLegacyField`: an address stored before keeps passing), 'None' first and alone,
 * at most two, one a family.
 */

import type { KubeObject } from '../../../../protocol/events.js';
import { rec, sameJson, str } from '../../access.js';
import type { FieldError } from '../../types.js';
import { invalid, required } from '../../validation.js';

/**
 * `normalizeClusterIPs`: on a create, a clusterIP alone gives clusterIPs (not the other way:
 * a client sending the plural must send both); on an update, a client that left clusterIPs out
 * keeps the old ones, one clearing clusterIP clears them, one changing it changes them.
 */
export function normalizeClusterIPs(svc: KubeObject, old?: KubeObject): void {
  const spec = rec(svc.spec);
  const plural = () => (Array.isArray(spec.clusterIPs) ? spec.clusterIPs : []);
  const ip = str(spec.clusterIP);
  if (!old) {
    if (ip !== '' && plural().length === 0) spec.clusterIPs = [ip];
    return;
  }
  const was = rec(old.spec);
  const wasIp = str(was.clusterIP);
  const wasIps = Array.isArray(was.clusterIPs) ? was.clusterIPs : [];
  if (wasIps.length > 0 && plural().length === 0 && wasIp === ip) spec.clusterIPs = wasIps;
  if (wasIp === ip || !sameJson(wasIps, plural())) return;
  // clusterIP changed, clusterIPs as they were: cleared along, or following it.
  if (wasIp !== '' && ip === '') delete spec.clusterIPs;
  else spec.clusterIPs = [ip];
}

/** `ValidateServiceClusterIPsRelatedFields`, as far as the cluster IP fields go. */
export function validateClusterIPFields(svc: KubeObject, old?: KubeObject): FieldError[] {
  const spec = rec(svc.spec);
  if (spec.type === 'ExternalName') return [];
  const ips = (Array.isArray(spec.clusterIPs) ? spec.clusterIPs : []).map((v) => str(v));
  const path = 'spec.clusterIPs';
  const errors: FieldError[] = [];
  if (str(spec.clusterIP) !== '') {
    if (ips.length === 0) errors.push(required(path, ''));
    else if (ips[0] !== spec.clusterIP) errors.push(invalid(path, ips, 'first value must match `clusterIP`'));
  } else if (ips.length > 0) {
    errors.push(invalid(path, ips, 'must be empty when `clusterIP` is not specified'));
  }
  const existing = (Array.isArray(rec(old?.spec).clusterIPs) ? rec(old?.spec).clusterIPs : []) as unknown[];
  let bad = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) {
        bad = true;
        errors.push(invalid(path, ips, "'None' must be the first and only value"));
      }
      return;
    }
    const found = legacyIpErrors(ip, existing.includes(ip)).map((m) => invalid(`${path}[${i}]`, ip, m));
    bad ||= found.length > 0;
    errors.push(...found);
  });
  if (ips.length > 2) errors.push(invalid(path, ips, 'may only hold up to 2 values'));
  if (bad) return errors;
  if (ips.length > 1 && new Set(ips.map((ip) => ip.includes(':'))).size !== 2) {
    errors.push(invalid(path, ips, 'may specify no more than one IP for each IP family'));
  }
  return errors;
}

/**
 * `IsValidIPForLegacyField`: Go's sloppy parse must accept it; unless it was stored before, no
 * IPv4 octet with a leading 0 and no IPv4-mapped IPv6 form.
 */
function legacyIpErrors(ip: string, storedBefore: boolean): string[] {
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/i.exec(ip);
  const v4 = ip.includes(':') ? undefined : ip;
  if (v4 !== undefined) {
    const parts = v4.split('.');
    if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) {
      return ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
    }
    if (!storedBefore && parts.some((p) => p.length > 1 && p.startsWith('0')))
      return ['must not have leading 0s'];
    return [];
  }
  if (!isIPv6(ip)) return ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
  if (!storedBefore && mapped) return ['must not be an IPv4-mapped IPv6 address'];
  return [];
}

/** Go's IPv6 text: eight groups of up to four hex digits, one `::` at most, an IPv4 tail allowed. */
function isIPv6(text: string): boolean {
  let body = text;
  let groups = 8;
  const tail = /(\d{1,3}(\.\d{1,3}){3})$/.exec(text);
  if (tail) {
    if (tail[1].split('.').some((p) => Number(p) > 255)) return false;
    body = text.slice(0, tail.index);
    if (!body.endsWith(':')) return false;
    if (!body.endsWith('::')) body = body.slice(0, -1);
    groups = 6;
  }
  const halves = body.split('::');
  if (halves.length > 2) return false;
  const parts = halves.map((h) => (h === '' ? [] : h.split(':')));
  if (parts.flat().some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  const count = parts.flat().length;
  return halves.length === 2 ? count < groups : count === groups;
}
