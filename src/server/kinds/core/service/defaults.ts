/**
 * The Service's defaults (pkg/apis/core/v1/defaults.go `SetDefaults_Service`). What the service
 * REST storage settles after the field manager (clusterIP and clusterIPs in step, the IP family
 * fields) is cluster-ips.ts's `initIpFamilies`.
 */

import type { KubeObject } from '../../../../protocol/events.js';
import { child, objects, rec, setDefault, setIfAbsent } from '../../access.js';

/**
 * SetDefaults_Service. The cluster IPs, their families and node ports are the storage layer's
 * (registry/service-allocation.ts), not defaulting's: they are set after the field manager ran.
 */
export function defaultService(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  if (spec) {
    setDefault(spec, 'sessionAffinity', 'None');
    if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
    if (spec.sessionAffinity === 'ClientIP') {
      const timeout = rec(rec(spec.sessionAffinityConfig).clientIP).timeoutSeconds;
      if (timeout === undefined || timeout === null) {
        spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
      }
    }
    setDefault(spec, 'type', 'ClusterIP');
    for (const port of objects(spec.ports)) {
      setDefault(port, 'protocol', 'TCP');
      if (
        port.targetPort === undefined ||
        port.targetPort === null ||
        port.targetPort === 0 ||
        port.targetPort === ''
      ) {
        port.targetPort = port.port;
      }
    }
    const type = spec.type;
    const external = Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0;
    if (type === 'NodePort' || type === 'LoadBalancer' || (type === 'ClusterIP' && external)) {
      setDefault(spec, 'externalTrafficPolicy', 'Cluster');
    }
    if (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP') {
      setIfAbsent(spec, 'internalTrafficPolicy', 'Cluster');
    }
    if (type === 'LoadBalancer') setIfAbsent(spec, 'allocateLoadBalancerNodePorts', true);
  }
  const status = child(obj, 'status');
  if (status) setIfAbsent(status, 'loadBalancer', {});
}
