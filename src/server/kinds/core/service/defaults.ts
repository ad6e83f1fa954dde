/**
 * The Service's defaults (pkg/apis/core/v1/defaults.go `SetDefaults_Service`), plus what the
 * service REST storage settles on every write of a single-stack IPv4 cluster.
 */

import type { KubeObject } from '../../../../protocol/events.js';
import { child, objects, rec, setDefault, setIfAbsent, str } from '../../access.js';

/**
 * SetDefaults_Service, plus what the service REST storage settles on every
 * write of a single-stack IPv4 cluster: `clusterIP`/`clusterIPs` mirrored and
 * the IP family fields. Allocating the cluster IP itself (and node ports) is
 * the storage layer's job, not defaulting.
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
    const ips = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [];
    if (str(spec.clusterIP) !== '' && ips.length === 0) spec.clusterIPs = [spec.clusterIP];
    else if (str(spec.clusterIP) === '' && typeof ips[0] === 'string') spec.clusterIP = ips[0];
    if (type !== 'ExternalName') {
      setIfAbsent(spec, 'ipFamilyPolicy', 'SingleStack');
      setIfAbsent(spec, 'ipFamilies', ['IPv4']);
    }
  }
  const status = child(obj, 'status');
  if (status) setIfAbsent(status, 'loadBalancer', {});
}
