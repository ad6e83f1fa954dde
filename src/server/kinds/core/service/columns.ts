/**
 * The Service's Table columns (pkg/printers/internalversion/printers.go `printService`): `TYPE
 * CLUSTER-IP EXTERNAL-IP PORT(S) AGE`, wide `SELECTOR`.
 */

import type { KubeObject } from '../../../../protocol/events.js';
import { num, objects, rec, specOf, statusOf, str } from '../../access.js';
import { ageColumn, col, formatLabels, orNone, typeDocs, wide } from '../../columns.js';
import type { TableColumn } from '../../types.js';

/** Column docs of core/v1 types (printers.go `apiv1.T{}`). */
const core = typeDocs('io.k8s.api.core.v1');

/** `getServiceExternalIP` (wide form: load balancer addresses are never clipped). */
function serviceExternalIP(o: KubeObject): string {
  const s = specOf(o);
  const externalIPs = Array.isArray(s.externalIPs)
    ? s.externalIPs.filter((ip) => typeof ip === 'string')
    : [];
  switch (s.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const ingress = objects(rec(statusOf(o).loadBalancer).ingress);
      const lb = [
        ...new Set(ingress.map((i) => str(i.ip) || str(i.hostname)).filter((a) => a !== '')),
      ].sort();
      const all = [...lb, ...externalIPs];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return str(s.externalName);
    default:
      return '<unknown>';
  }
}

/** `makePortString`: `80/TCP`, `80:30080/TCP` with a node port. */
function servicePorts(o: KubeObject): string {
  const text = objects(specOf(o).ports)
    .map((p) => {
      const nodePort = num(p.nodePort);
      return nodePort > 0
        ? `${num(p.port)}:${nodePort}/${str(p.protocol)}`
        : `${num(p.port)}/${str(p.protocol)}`;
    })
    .join(',');
  return orNone(text);
}

/** Services: `TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE`, wide `SELECTOR`. */
export const serviceColumns: TableColumn[] = [
  col('Type', 'string', (o) => str(specOf(o).type), core('ServiceSpec', 'type')),
  col(
    'Cluster-IP',
    'string',
    (o) => {
      const ips = specOf(o).clusterIPs;
      return str(Array.isArray(ips) ? ips[0] : undefined) || str(specOf(o).clusterIP) || '<none>';
    },
    core('ServiceSpec', 'clusterIP'),
  ),
  col('External-IP', 'string', serviceExternalIP, core('ServiceSpec', 'externalIPs')),
  col('Port(s)', 'string', servicePorts, core('ServiceSpec', 'ports')),
  ageColumn,
  wide('Selector', (o) => formatLabels(specOf(o).selector), core('ServiceSpec', 'selector')),
];
