/**
 * What kube-apiserver's Service REST storage allocates beside cluster IPs
 * (those are cluster-ips.ts's, over ServiceCIDRs and IPAddress objects): node
 * ports from 30000-32767 for NodePort and LoadBalancer Services, found by
 * reading the Services that exist, so a deleted Service frees its ports.
 * Updates keep what was allocated (PatchAllocatedValues): an apply that leaves
 * the cluster IP or a node port out does not lose it.
 */
import type { KubeObject } from '../../../../protocol/events.js';
import { objects, rec, str } from '../../access.js';
import type { FieldError } from '../../types.js';
import { invalid } from '../../validation.js';
import { initIpFamilies } from './cluster-ips.js';

const NODE_PORT_MIN = 30000;
const NODE_PORT_MAX = 32767;

/** The first address of the range: kube-apiserver's own `kubernetes` Service in `default` holds it. */
export const KUBERNETES_SERVICE_IP = '10.96.0.1';

/** The service range (--service-cluster-ip-range, kubeadm's default): the default ServiceCIDR's one CIDR. */
export const SERVICE_CIDR = '10.96.0.0/12';

/** The node ports `services` hold, leaving out the Service `except` (namespace/name) that is being updated. */
export function nodePortsOf(services: KubeObject[], except?: string): Set<number> {
  const used = new Set<number>();
  for (const svc of services) {
    if (except && `${svc.metadata?.namespace}/${svc.metadata?.name}` === except) continue;
    for (const port of objects(rec(svc.spec).ports)) {
      if (typeof port.nodePort === 'number' && port.nodePort > 0) used.add(port.nodePort);
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
  // beginUpdate: patchAllocatedValues, then normalizeClusterIPs and initIPFamilyFields.
  keepNodePortsAndIp(spec, old);
  initIpFamilies(next, current);
}

function keepNodePortsAndIp(spec: Record<string, unknown>, old: Record<string, unknown>): void {
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
 * Fills in node ports where `obj` (defaulted) leaves them empty, and checks those it asks for:
 * inside the range and not taken. Returns the field errors of a 422; `used` grows by what was
 * handed out.
 */
export function allocateNodePorts(
  obj: KubeObject,
  used: Set<number>,
  random: () => number = Math.random,
): FieldError[] {
  const errors: FieldError[] = [];
  const spec = rec(obj.spec);
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
        } else if (used.has(wanted)) {
          errors.push(invalid(`spec.ports[${i}].nodePort`, wanted, 'provided port is already allocated'));
        } else {
          used.add(wanted);
        }
        return;
      }
      const free = freeNodePort(used, random);
      if (free === undefined) {
        errors.push(invalid(`spec.ports[${i}].nodePort`, 0, 'range is full'));
      } else {
        port.nodePort = free;
        used.add(free);
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

function freeNodePort(used: Set<number>, random: () => number): number | undefined {
  return freeNumber(NODE_PORT_MIN, NODE_PORT_MAX, (port) => used.has(port), random);
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
