/**
 * The server-side Table columns `kubectl get` prints, per kind, as
 * pkg/printers/internalversion/printers.go defines them. kube-apiserver
 * always renders the wide cells too (kubectl hides priority-1 columns unless
 * `-o wide`), so every column here has a cell function. The Name column is
 * added by the table builder, except for Events, which place it last
 * (see `columnsIncludeName`).
 */

import type { KubeObject } from '../../protocol/events.js';
import {
  formatLabelSelector,
  isEverything,
  type LabelSelectorObject,
  labelSelectorFromObject,
  SelectorError,
} from '../../protocol/labels.js';
import { type JsonObject, num, objects, rec, str, stringMap } from './access.js';
import { translateTimestampSince } from './age.js';
import { type PodSummary, podSummary, readinessGates } from './pod-status.js';
import type { TableColumn } from './types.js';

/** `labels.FormatLabels`: `a=b,c=d` sorted by key, `<none>` when empty. */
export function formatLabels(labels: unknown): string {
  const map = stringMap(labels);
  const keys = Object.keys(map).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${map[k]}`).join(',');
}

/**
 * `metav1.LabelSelectorAsSelector(sel).String()`: the selector's text, ""
 * for an empty or absent one; undefined when it does not parse.
 */
export function labelSelectorText(selector: unknown): string | undefined {
  try {
    const parsed = labelSelectorFromObject(selector as LabelSelectorObject | undefined);
    return isEverything(parsed) ? '' : formatLabelSelector(parsed);
  } catch (err) {
    if (err instanceof SelectorError) return undefined;
    throw err;
  }
}

/** `metav1.FormatLabelSelector`: like {@link labelSelectorText} but `<none>` when empty and `<error>` when malformed. */
export function formatSelectorCell(selector: unknown): string {
  const text = labelSelectorText(selector);
  if (text === undefined) return '<error>';
  return text === '' ? '<none>' : text;
}

function col(
  name: string,
  type: TableColumn['type'],
  cell: TableColumn['cell'],
  extra: Partial<Pick<TableColumn, 'priority' | 'format' | 'description'>> = {},
): TableColumn {
  return { name, type, priority: extra.priority ?? 0, cell, ...extra };
}

function wide(name: string, cell: TableColumn['cell'], description?: string): TableColumn {
  return col(name, 'string', cell, { priority: 1, description });
}

const age = col('Age', 'string', (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now), {
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
});

function spec(o: KubeObject): JsonObject {
  return rec(o.spec);
}

function status(o: KubeObject): JsonObject {
  return rec(o.status);
}

/** `layoutContainerCells`: the template's container names and images, comma-joined. */
function templateContainers(o: KubeObject): JsonObject[] {
  return objects(rec(rec(spec(o).template).spec).containers);
}

const containersCol = wide(
  'Containers',
  (o) =>
    templateContainers(o)
      .map((c) => str(c.name))
      .join(','),
  'Names of each container in the template.',
);
const imagesCol = wide(
  'Images',
  (o) =>
    templateContainers(o)
      .map((c) => str(c.image))
      .join(','),
  'Images referenced by each container in the template.',
);
const selectorCol = wide('Selector', (o) => formatSelectorCell(spec(o).selector));

// One walk over the containers serves READY, STATUS and RESTARTS of a row.
const podSummaries = new WeakMap<KubeObject, { now: number; summary: PodSummary }>();
function summary(o: KubeObject, now: number): PodSummary {
  const cached = podSummaries.get(o);
  if (cached && cached.now === now) return cached.summary;
  const computed = podSummary(o, now);
  podSummaries.set(o, { now, summary: computed });
  return computed;
}

function orNone(value: string): string {
  return value === '' ? '<none>' : value;
}

/** Pods: `READY STATUS RESTARTS AGE`, wide `IP NODE NOMINATED NODE READINESS GATES`. */
export const podColumns: TableColumn[] = [
  col('Ready', 'string', (o, now) => summary(o, now).ready, {
    description: 'The aggregate readiness state of this pod for accepting traffic.',
  }),
  col('Status', 'string', (o, now) => summary(o, now).status, {
    description: 'The aggregate status of the containers in this pod.',
  }),
  col('Restarts', 'string', (o, now) => summary(o, now).restarts, {
    description:
      'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
  }),
  age,
  // The printer reads podIPs[0]; the v1 conversion keeps podIP in step, so either will do.
  wide('IP', (o) => orNone(str(objects(status(o).podIPs)[0]?.ip) || str(status(o).podIP))),
  wide('Node', (o) => orNone(str(spec(o).nodeName))),
  wide('Nominated Node', (o) => orNone(str(status(o).nominatedNodeName))),
  wide('Readiness Gates', (o) => readinessGates(o)),
];

/** Deployments: `READY UP-TO-DATE AVAILABLE AGE`, wide `CONTAINERS IMAGES SELECTOR`. */
export const deploymentColumns: TableColumn[] = [
  col('Ready', 'string', (o) => `${num(status(o).readyReplicas)}/${num(spec(o).replicas)}`, {
    description: 'Number of the pod with ready state',
  }),
  col('Up-to-date', 'string', (o) => num(status(o).updatedReplicas)),
  col('Available', 'string', (o) => num(status(o).availableReplicas)),
  age,
  containersCol,
  imagesCol,
  // printDeployment uses the selector's plain String(): "" when empty, `<invalid>` when malformed.
  wide('Selector', (o) => labelSelectorText(spec(o).selector) ?? '<invalid>'),
];

/** ReplicaSets: `DESIRED CURRENT READY AGE`, wide `CONTAINERS IMAGES SELECTOR`. */
export const replicaSetColumns: TableColumn[] = [
  col('Desired', 'integer', (o) => num(spec(o).replicas)),
  col('Current', 'integer', (o) => num(status(o).replicas)),
  col('Ready', 'integer', (o) => num(status(o).readyReplicas)),
  age,
  containersCol,
  imagesCol,
  selectorCol,
];

/** StatefulSets: `READY AGE`, wide `CONTAINERS IMAGES`. */
export const statefulSetColumns: TableColumn[] = [
  col('Ready', 'string', (o) => `${num(status(o).readyReplicas)}/${num(spec(o).replicas)}`, {
    description: 'Number of the pod with ready state',
  }),
  age,
  containersCol,
  imagesCol,
];

/** DaemonSets: `DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE`, wide `CONTAINERS IMAGES SELECTOR`. */
export const daemonSetColumns: TableColumn[] = [
  col('Desired', 'integer', (o) => num(status(o).desiredNumberScheduled)),
  col('Current', 'integer', (o) => num(status(o).currentNumberScheduled)),
  col('Ready', 'integer', (o) => num(status(o).numberReady)),
  col('Up-to-date', 'integer', (o) => num(status(o).updatedNumberScheduled)),
  col('Available', 'integer', (o) => num(status(o).numberAvailable)),
  col('Node Selector', 'string', (o) => formatLabels(rec(rec(spec(o).template).spec).nodeSelector)),
  age,
  containersCol,
  imagesCol,
  selectorCol,
];

/** Namespaces: `STATUS AGE`. */
export const namespaceColumns: TableColumn[] = [
  col('Status', 'string', (o) => str(status(o).phase), { description: 'The status of the namespace' }),
  age,
];

/** `findNodeRoles`: `node-role.kubernetes.io/<role>` keys and the `kubernetes.io/role` value, sorted. */
function nodeRoles(o: KubeObject): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(stringMap(o.metadata?.labels))) {
    if (key.startsWith('node-role.kubernetes.io/')) {
      const role = key.slice('node-role.kubernetes.io/'.length);
      if (role !== '') roles.add(role);
    } else if (key === 'kubernetes.io/role' && value !== '') roles.add(value);
  }
  return orNone([...roles].sort().join(','));
}

/** Ready / NotReady / Unknown from the Ready condition, plus SchedulingDisabled when cordoned. */
function nodeStatus(o: KubeObject): string {
  const parts: string[] = [];
  const ready = objects(status(o).conditions).findLast((c) => c.type === 'Ready');
  if (ready) parts.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  else parts.push('Unknown');
  if (spec(o).unschedulable === true) parts.push('SchedulingDisabled');
  return parts.join(',');
}

function nodeAddress(o: KubeObject, type: string): string {
  return str(objects(status(o).addresses).find((a) => a.type === type)?.address) || '<none>';
}

function nodeInfo(o: KubeObject, key: string): string {
  return str(rec(status(o).nodeInfo)[key]) || '<unknown>';
}

/** Nodes: `STATUS ROLES AGE VERSION`, wide `INTERNAL-IP EXTERNAL-IP OS-IMAGE KERNEL-VERSION CONTAINER-RUNTIME`. */
export const nodeColumns: TableColumn[] = [
  col('Status', 'string', nodeStatus, { description: 'The status of the node' }),
  col('Roles', 'string', nodeRoles, { description: 'The roles of the node' }),
  age,
  col('Version', 'string', (o) => str(rec(status(o).nodeInfo).kubeletVersion)),
  wide('Internal-IP', (o) => nodeAddress(o, 'InternalIP')),
  wide('External-IP', (o) => nodeAddress(o, 'ExternalIP')),
  wide('OS-Image', (o) => nodeInfo(o, 'osImage')),
  wide('Kernel-Version', (o) => nodeInfo(o, 'kernelVersion')),
  wide('Container-Runtime', (o) => nodeInfo(o, 'containerRuntimeVersion')),
];

/** ConfigMaps: `DATA AGE` (DATA counts data and binaryData keys). */
export const configMapColumns: TableColumn[] = [
  col('Data', 'string', (o) => Object.keys(rec(o.data)).length + Object.keys(rec(o.binaryData)).length),
  age,
];

/** Secrets: `TYPE DATA AGE`. */
export const secretColumns: TableColumn[] = [
  col('Type', 'string', (o) => str(o.type)),
  col('Data', 'string', (o) => Object.keys(rec(o.data)).length),
  age,
];

/** `getServiceExternalIP` (wide form: load balancer addresses are never clipped). */
function serviceExternalIP(o: KubeObject): string {
  const s = spec(o);
  const externalIPs = Array.isArray(s.externalIPs)
    ? s.externalIPs.filter((ip) => typeof ip === 'string')
    : [];
  switch (s.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const ingress = objects(rec(status(o).loadBalancer).ingress);
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
  const text = objects(spec(o).ports)
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
  col('Type', 'string', (o) => str(spec(o).type)),
  col('Cluster-IP', 'string', (o) => {
    const ips = spec(o).clusterIPs;
    return str(Array.isArray(ips) ? ips[0] : undefined) || str(spec(o).clusterIP) || '<none>';
  }),
  col('External-IP', 'string', serviceExternalIP),
  col('Port(s)', 'string', servicePorts),
  age,
  wide('Selector', (o) => formatLabels(spec(o).selector)),
];

/** An event's first and last sighting and count, as printEvent derives them (series and eventTime included). */
function eventTimes(o: KubeObject, now: number): { first: string; last: string; count: number } {
  const first = str(o.firstTimestamp)
    ? translateTimestampSince(o.firstTimestamp, now)
    : translateTimestampSince(o.eventTime, now);
  let last = str(o.lastTimestamp) ? translateTimestampSince(o.lastTimestamp, now) : first;
  let count = num(o.count);
  const series = o.series;
  if (series !== undefined && series !== null) {
    last = translateTimestampSince(rec(series).lastObservedTime, now);
    count = num(rec(series).count);
  } else if (count === 0) {
    // Singleton events of the events.k8s.io API carry no count.
    count = 1;
  }
  return { first, last, count };
}

/** `formatEventSource`: component (or reportingComponent), then `, host` (or reportingInstance) when known. */
function eventSource(o: KubeObject): string {
  const source = rec(o.source);
  const component = str(source.component) || str(o.reportingComponent);
  const host = str(source.host) || str(o.reportingInstance);
  return host === '' ? component : `${component}, ${host}`;
}

/**
 * Events: `LAST SEEN TYPE REASON OBJECT MESSAGE`, wide `SUBOBJECT SOURCE
 * FIRST SEEN COUNT NAME` (the Name column is last and wide-only here).
 */
export const eventColumns: TableColumn[] = [
  col('Last Seen', 'string', (o, now) => eventTimes(o, now).last),
  col('Type', 'string', (o) => str(o.type)),
  col('Reason', 'string', (o) => str(o.reason)),
  col('Object', 'string', (o) => {
    const involved = rec(o.involvedObject);
    const kind = str(involved.kind).toLowerCase();
    return str(involved.name) ? `${kind}/${str(involved.name)}` : kind;
  }),
  wide('Subobject', (o) => str(rec(o.involvedObject).fieldPath)),
  wide('Source', eventSource),
  col('Message', 'string', (o) => str(o.message).trim()),
  wide('First Seen', (o, now) => eventTimes(o, now).first),
  wide('Count', (o, now) => eventTimes(o, now).count),
  col('Name', 'string', (o) => str(o.metadata?.name), { priority: 1, format: 'name' }),
];

/** Leases: `HOLDER AGE`. */
export const leaseColumns: TableColumn[] = [col('Holder', 'string', (o) => str(spec(o).holderIdentity)), age];
