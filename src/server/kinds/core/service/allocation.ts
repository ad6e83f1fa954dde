/**
 * What kube-apiserver's Service REST storage allocates: a cluster IP from the
 * service CIDR (10.96.0.0/12 here, kubeadm's and kind's default; 10.96.0.1 is
 * kept for the `kubernetes` Service) and node ports from 30000-32767 for
 * NodePort and LoadBalancer Services. Allocations are found by reading the
 * Services that exist, so a deleted Service frees its IP and ports. Updates
 * keep what was allocated (PatchAllocatedValues): an apply that leaves the
 * cluster IP out does not lose it.
 */
import type { KubeObject } from '../../../../protocol/events.js';
import { objects, rec, str } from '../../access.js';
import type { FieldError } from '../../types.js';
import { invalid } from '../../validation.js';

const CIDR_BASE = 10 * 2 ** 24 + 96 * 2 ** 16;
const CIDR_BITS = 12;
const CIDR_SIZE = 2 ** (32 - CIDR_BITS);
/** The network address, 10.96.0.1 (the `kubernetes` Service) and the broadcast address are never handed out. */
const FIRST_FREE = 2;
const NODE_PORT_MIN = 30000;
const NODE_PORT_MAX = 32767;

/** The first address of the range: kube-apiserver's own `kubernetes` Service in `default` holds it. */
export const KUBERNETES_SERVICE_IP = '10.96.0.1';

/** The service CIDR, for messages. */
export const SERVICE_CIDR = `10.96.0.0/${CIDR_BITS}`;

/** Cluster IPs and node ports in use. */
export interface Allocations {
  ips: Set<string>;
  nodePorts: Set<number>;
}

/** What `services` hold, leaving out the Service `except` (namespace/name) that is being updated. */
export function allocationsOf(services: KubeObject[], except?: string): Allocations {
  const used: Allocations = { ips: new Set(), nodePorts: new Set() };
  for (const svc of services) {
    if (except && `${svc.metadata?.namespace}/${svc.metadata?.name}` === except) continue;
    const spec = rec(svc.spec);
    for (const ip of Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [spec.clusterIP]) {
      if (typeof ip === 'string' && ip !== '' && ip !== 'None') used.ips.add(ip);
    }
    for (const port of objects(spec.ports)) {
      if (typeof port.nodePort === 'number' && port.nodePort > 0) used.nodePorts.add(port.nodePort);
    }
  }
  return used;
}

/**
 * On an update: the cluster IP and the node ports `current` holds carry over
 * to `next` where `next` leaves them empty (node ports matched by port and
 * protocol), as long as the type still has them.
 */
export function keepAllocated(next: KubeObject, current: KubeObject): void {
  const spec = rec(next.spec);
  const old = rec(current.spec);
  if (spec.type !== 'ExternalName' && old.type !== 'ExternalName') {
    if (str(spec.clusterIP) === '' && str(old.clusterIP) !== '') {
      spec.clusterIP = old.clusterIP;
      spec.clusterIPs = old.clusterIPs ?? [old.clusterIP];
    }
  }
  if (needsNodePorts(spec)) {
    const oldPorts = objects(old.ports);
    for (const port of objects(spec.ports)) {
      if (typeof port.nodePort === 'number' && port.nodePort > 0) continue;
      const was = oldPorts.find(
        (p) => p.port === port.port && (p.protocol ?? 'TCP') === (port.protocol ?? 'TCP'),
      );
      if (typeof was?.nodePort === 'number' && was.nodePort > 0) port.nodePort = was.nodePort;
    }
  }
}

/**
 * Fills in a cluster IP and node ports where `obj` (defaulted) leaves them
 * empty, and checks those it asks for: inside the range and not taken.
 * Returns the field errors of a 422; `used` grows by what was handed out.
 */
export function allocate(
  obj: KubeObject,
  used: Allocations,
  random: () => number = Math.random,
): FieldError[] {
  const errors: FieldError[] = [];
  const spec = rec(obj.spec);
  if (spec.type !== 'ExternalName') {
    const wanted = str(spec.clusterIP);
    if (wanted === '') {
      const ip = freeIp(used, random);
      if (ip === undefined) {
        errors.push(invalid('spec.clusterIPs', '', `range is full (${SERVICE_CIDR})`));
      } else {
        spec.clusterIP = ip;
        spec.clusterIPs = [ip];
        used.ips.add(ip);
      }
    } else if (wanted !== 'None') {
      const n = ipToInt(wanted);
      if (n === undefined || n - CIDR_BASE < 1 || n - CIDR_BASE >= CIDR_SIZE - 1) {
        errors.push(
          invalid(
            'spec.clusterIPs',
            wanted,
            `provided IP is not in the valid range. The range of valid IPs is ${SERVICE_CIDR}`,
          ),
        );
      } else if (used.ips.has(wanted)) {
        errors.push(invalid('spec.clusterIPs', wanted, 'provided IP is already allocated'));
      } else {
        used.ips.add(wanted);
      }
    }
  }
  if (needsNodePorts(spec)) {
    objects(spec.ports).forEach((port, i) => {
      const wanted = port.nodePort;
      if (typeof wanted === 'number' && wanted > 0) {
        if (wanted < NODE_PORT_MIN || wanted > NODE_PORT_MAX) {
          errors.push(
            invalid(
              `spec.ports[${i}].nodePort`,
              wanted,
              `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_MIN}-${NODE_PORT_MAX}`,
            ),
          );
        } else if (used.nodePorts.has(wanted)) {
          errors.push(invalid(`spec.ports[${i}].nodePort`, wanted, 'provided port is already allocated'));
        } else {
          used.nodePorts.add(wanted);
        }
        return;
      }
      const free = freeNodePort(used, random);
      if (free === undefined) {
        errors.push(invalid(`spec.ports[${i}].nodePort`, 0, 'range is full'));
      } else {
        port.nodePort = free;
        used.nodePorts.add(free);
      }
    });
  }
  return errors;
}

/** kube's `ValidateServiceUpdate` for the cluster IP: set once, except when the type changes to or from ExternalName. */
export function validateClusterIpUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = rec(obj.spec);
  const was = rec(old.spec);
  if (spec.type === 'ExternalName' || was.type === 'ExternalName') return [];
  const before = str(was.clusterIP);
  if (before === '' || str(spec.clusterIP) === before) return [];
  return [invalid('spec.clusterIPs[0]', str(spec.clusterIP), 'may not change once set')];
}

function needsNodePorts(spec: Record<string, unknown>): boolean {
  if (spec.type === 'NodePort') return true;
  return spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false;
}

/** A free address, picked at random as kube's allocator does. */
function freeIp(used: Allocations, random: () => number): string | undefined {
  const n = freeNumber(
    CIDR_BASE + FIRST_FREE,
    CIDR_BASE + CIDR_SIZE - 2,
    (n) => used.ips.has(intToIp(n)),
    random,
  );
  return n === undefined ? undefined : intToIp(n);
}

function freeNodePort(used: Allocations, random: () => number): number | undefined {
  return freeNumber(NODE_PORT_MIN, NODE_PORT_MAX, (port) => used.nodePorts.has(port), random);
}

/** A number in [min, max] that is not `taken`: random picks first, a scan when they keep hitting taken ones. */
function freeNumber(
  min: number,
  max: number,
  taken: (n: number) => boolean,
  random: () => number,
): number | undefined {
  for (let i = 0; i < 32; i++) {
    const n = min + Math.floor(random() * (max - min + 1));
    if (!taken(n)) return n;
  }
  for (let n = min; n <= max; n++) if (!taken(n)) return n;
  return undefined;
}

function ipToInt(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return undefined;
    n = n * 256 + Number(part);
  }
  return n;
}

function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}
