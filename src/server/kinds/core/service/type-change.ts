/**
 * What a Service's update wipes when its type changes (pkg/registry/core/service/strategy.go
 * `dropTypeDependentFields`, run by PrepareForUpdate, so after the field manager recorded the
 * write): a field is cleared only when the new type has no use for it, the server may have set
 * it, and the write left it as it was. Storage releases what is cleared (the cluster IPs'
 * IPAddresses once the update is stored).
 */

import type { KubeObject } from '../../../../protocol/events.js';
import { objects, rec, sameJson, str } from '../../access.js';

function needsClusterIP(spec: Record<string, unknown>): boolean {
  return spec.type !== 'ExternalName';
}

function needsNodePort(spec: Record<string, unknown>): boolean {
  return spec.type === 'NodePort' || spec.type === 'LoadBalancer';
}

function needsHealthCheckNodePort(spec: Record<string, unknown>): boolean {
  return spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
}

/** `ExternallyAccessible`: a LoadBalancer, a NodePort, or a ClusterIP with external IPs. */
function externallyAccessible(spec: Record<string, unknown>): boolean {
  if (needsNodePort(spec)) return true;
  return spec.type === 'ClusterIP' && Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0;
}

function nodePorts(spec: Record<string, unknown>): number[] {
  return objects(spec.ports)
    .map((p) => p.nodePort)
    .filter((n): n is number => typeof n === 'number' && n !== 0)
    .sort((a, b) => a - b);
}

/** `dropTypeDependentFields` on a main update of `next` from `old`. */
export function dropTypeDependentFields(next: KubeObject, old: KubeObject, scope: string): void {
  if (scope !== 'main') return;
  const spec = rec(next.spec);
  const was = rec(old.spec);
  if (needsClusterIP(was) && !needsClusterIP(spec)) {
    if (str(spec.clusterIP) === str(was.clusterIP) && sameJson(spec.clusterIPs ?? [], was.clusterIPs ?? [])) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (sameJson(spec.ipFamilies ?? [], was.ipFamilies ?? [])) delete spec.ipFamilies;
    if (str(spec.ipFamilyPolicy) === str(was.ipFamilyPolicy)) delete spec.ipFamilyPolicy;
  }
  if (needsNodePort(was) && !needsNodePort(spec) && sameJson(nodePorts(spec), nodePorts(was))) {
    for (const port of objects(spec.ports)) delete port.nodePort;
  }
  if (needsHealthCheckNodePort(was) && !needsHealthCheckNodePort(spec)) {
    if (spec.healthCheckNodePort === was.healthCheckNodePort) delete spec.healthCheckNodePort;
  }
  if (was.type === 'LoadBalancer' && spec.type !== 'LoadBalancer') {
    if (typeof spec.allocateLoadBalancerNodePorts === 'boolean') {
      if (spec.allocateLoadBalancerNodePorts === was.allocateLoadBalancerNodePorts) {
        delete spec.allocateLoadBalancerNodePorts;
      }
    }
    if (sameJson(spec.loadBalancerClass ?? null, was.loadBalancerClass ?? null))
      delete spec.loadBalancerClass;
  }
  if (externallyAccessible(was) && !externallyAccessible(spec)) {
    if (str(spec.externalTrafficPolicy) === str(was.externalTrafficPolicy)) delete spec.externalTrafficPolicy;
  }
  // storage.go `defaultOnReadInternalTrafficPolicy`: an ExternalName shows none.
  if (spec.type === 'ExternalName') delete spec.internalTrafficPolicy;
  if (spec.type !== 'LoadBalancer' && next.status !== undefined) rec(next.status).loadBalancer = {};
}
