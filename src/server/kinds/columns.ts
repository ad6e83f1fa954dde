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
import { type PodSummary, podSummary, readinessGates } from './core/pod/status.js';
import type { TableColumn, TypeField } from './types.js';

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

type ColumnExtra = Partial<Pick<TableColumn, 'priority' | 'format' | 'description' | 'fieldDoc'>>;

function col(
  name: string,
  type: TableColumn['type'],
  cell: TableColumn['cell'],
  extra: ColumnExtra = {},
): TableColumn {
  return { name, type, priority: extra.priority ?? 0, cell, ...extra };
}

function wide(name: string, cell: TableColumn['cell'], extra: ColumnExtra = {}): TableColumn {
  return col(name, 'string', cell, { priority: 1, ...extra });
}

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/**
 * printers.go's `T{}.SwaggerDoc()["field"]` column description: the doc of field `field` of the
 * type `type` (OpenAPI name), in the served release's words.
 */
export function swaggerDoc(type: string, field: string): { fieldDoc: TypeField } {
  return { fieldDoc: { type, field } };
}

/** {@link swaggerDoc} of a core/v1 type (printers.go `apiv1.T{}`). */
const core = (type: string, field: string) => swaggerDoc(`io.k8s.api.core.v1.${type}`, field);
/** {@link swaggerDoc} of an apps/v1 type (printers.go `appsv1.T{}`). */
const apps = (type: string, field: string) => swaggerDoc(`io.k8s.api.apps.v1.${type}`, field);

/** The Name column every printer starts with (or, for Events, ends with) describes ObjectMeta's name. */
export const nameColumnDoc: TypeField = swaggerDoc(`${META}.ObjectMeta`, 'name').fieldDoc;

/** The Age column, ObjectMeta's creationTimestamp as printers.go describes it. */
export const ageColumn: TableColumn = col(
  'Age',
  'string',
  (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
  swaggerDoc(`${META}.ObjectMeta`, 'creationTimestamp'),
);

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
  { description: 'Names of each container in the template.' },
);
const imagesCol = wide(
  'Images',
  (o) =>
    templateContainers(o)
      .map((c) => str(c.image))
      .join(','),
  { description: 'Images referenced by each container in the template.' },
);

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
  ageColumn,
  // The printer reads podIPs[0]; the v1 conversion keeps podIP in step, so either will do.
  wide(
    'IP',
    (o) => orNone(str(objects(status(o).podIPs)[0]?.ip) || str(status(o).podIP)),
    core('PodStatus', 'podIP'),
  ),
  wide('Node', (o) => orNone(str(spec(o).nodeName)), core('PodSpec', 'nodeName')),
  wide(
    'Nominated Node',
    (o) => orNone(str(status(o).nominatedNodeName)),
    core('PodStatus', 'nominatedNodeName'),
  ),
  wide('Readiness Gates', (o) => readinessGates(o), core('PodSpec', 'readinessGates')),
];

/** Deployments: `READY UP-TO-DATE AVAILABLE AGE`, wide `CONTAINERS IMAGES SELECTOR`. */
export const deploymentColumns: TableColumn[] = [
  col('Ready', 'string', (o) => `${num(status(o).readyReplicas)}/${num(spec(o).replicas)}`, {
    description: 'Number of the pod with ready state',
  }),
  col(
    'Up-to-date',
    'string',
    (o) => num(status(o).updatedReplicas),
    apps('DeploymentStatus', 'updatedReplicas'),
  ),
  col(
    'Available',
    'string',
    (o) => num(status(o).availableReplicas),
    apps('DeploymentStatus', 'availableReplicas'),
  ),
  ageColumn,
  containersCol,
  imagesCol,
  // printDeployment uses the selector's plain String(): "" when empty, `<invalid>` when malformed.
  wide(
    'Selector',
    (o) => labelSelectorText(spec(o).selector) ?? '<invalid>',
    apps('DeploymentSpec', 'selector'),
  ),
];

/** ReplicaSets: `DESIRED CURRENT READY AGE`, wide `CONTAINERS IMAGES SELECTOR`. */
export const replicaSetColumns: TableColumn[] = [
  col('Desired', 'integer', (o) => num(spec(o).replicas), apps('ReplicaSetSpec', 'replicas')),
  col('Current', 'integer', (o) => num(status(o).replicas), apps('ReplicaSetStatus', 'replicas')),
  col('Ready', 'integer', (o) => num(status(o).readyReplicas), apps('ReplicaSetStatus', 'readyReplicas')),
  ageColumn,
  containersCol,
  imagesCol,
  wide('Selector', (o) => formatSelectorCell(spec(o).selector), apps('ReplicaSetSpec', 'selector')),
];

/** StatefulSets: `READY AGE`, wide `CONTAINERS IMAGES`. */
export const statefulSetColumns: TableColumn[] = [
  col('Ready', 'string', (o) => `${num(status(o).readyReplicas)}/${num(spec(o).replicas)}`, {
    description: 'Number of the pod with ready state',
  }),
  ageColumn,
  containersCol,
  imagesCol,
];

/** A DaemonSet's count column: the status field `field`, described by its doc. */
function daemonSetCount(name: string, field: string): TableColumn {
  return col(name, 'integer', (o) => num(status(o)[field]), apps('DaemonSetStatus', field));
}

/** DaemonSets: `DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE`, wide `CONTAINERS IMAGES SELECTOR`. */
export const daemonSetColumns: TableColumn[] = [
  daemonSetCount('Desired', 'desiredNumberScheduled'),
  daemonSetCount('Current', 'currentNumberScheduled'),
  daemonSetCount('Ready', 'numberReady'),
  daemonSetCount('Up-to-date', 'updatedNumberScheduled'),
  daemonSetCount('Available', 'numberAvailable'),
  col(
    'Node Selector',
    'string',
    (o) => formatLabels(rec(rec(spec(o).template).spec).nodeSelector),
    core('PodSpec', 'nodeSelector'),
  ),
  ageColumn,
  containersCol,
  imagesCol,
  wide('Selector', (o) => formatSelectorCell(spec(o).selector), apps('DaemonSetSpec', 'selector')),
];

/** Namespaces: `STATUS AGE`. */
export const namespaceColumns: TableColumn[] = [
  col('Status', 'string', (o) => str(status(o).phase), { description: 'The status of the namespace' }),
  ageColumn,
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
  ageColumn,
  col(
    'Version',
    'string',
    (o) => str(rec(status(o).nodeInfo).kubeletVersion),
    core('NodeSystemInfo', 'kubeletVersion'),
  ),
  wide('Internal-IP', (o) => nodeAddress(o, 'InternalIP'), core('NodeStatus', 'addresses')),
  wide('External-IP', (o) => nodeAddress(o, 'ExternalIP'), core('NodeStatus', 'addresses')),
  wide('OS-Image', (o) => nodeInfo(o, 'osImage'), core('NodeSystemInfo', 'osImage')),
  wide('Kernel-Version', (o) => nodeInfo(o, 'kernelVersion'), core('NodeSystemInfo', 'kernelVersion')),
  wide(
    'Container-Runtime',
    (o) => nodeInfo(o, 'containerRuntimeVersion'),
    core('NodeSystemInfo', 'containerRuntimeVersion'),
  ),
];

/** ConfigMaps: `DATA AGE` (DATA counts data and binaryData keys). */
export const configMapColumns: TableColumn[] = [
  col(
    'Data',
    'string',
    (o) => Object.keys(rec(o.data)).length + Object.keys(rec(o.binaryData)).length,
    core('ConfigMap', 'data'),
  ),
  ageColumn,
];

/** Secrets: `TYPE DATA AGE`. */
export const secretColumns: TableColumn[] = [
  col('Type', 'string', (o) => str(o.type), core('Secret', 'type')),
  col('Data', 'string', (o) => Object.keys(rec(o.data)).length, core('Secret', 'data')),
  ageColumn,
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
  col('Type', 'string', (o) => str(spec(o).type), core('ServiceSpec', 'type')),
  col(
    'Cluster-IP',
    'string',
    (o) => {
      const ips = spec(o).clusterIPs;
      return str(Array.isArray(ips) ? ips[0] : undefined) || str(spec(o).clusterIP) || '<none>';
    },
    core('ServiceSpec', 'clusterIP'),
  ),
  col('External-IP', 'string', serviceExternalIP, core('ServiceSpec', 'externalIPs')),
  col('Port(s)', 'string', servicePorts, core('ServiceSpec', 'ports')),
  ageColumn,
  wide('Selector', (o) => formatLabels(spec(o).selector), core('ServiceSpec', 'selector')),
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
  col('Last Seen', 'string', (o, now) => eventTimes(o, now).last, core('Event', 'lastTimestamp')),
  col('Type', 'string', (o) => str(o.type), core('Event', 'type')),
  col('Reason', 'string', (o) => str(o.reason), core('Event', 'reason')),
  col(
    'Object',
    'string',
    (o) => {
      const involved = rec(o.involvedObject);
      const kind = str(involved.kind).toLowerCase();
      return str(involved.name) ? `${kind}/${str(involved.name)}` : kind;
    },
    core('Event', 'involvedObject'),
  ),
  wide('Subobject', (o) => str(rec(o.involvedObject).fieldPath), core('ObjectReference', 'fieldPath')),
  wide('Source', eventSource, core('Event', 'source')),
  col('Message', 'string', (o) => str(o.message).trim(), core('Event', 'message')),
  wide('First Seen', (o, now) => eventTimes(o, now).first, core('Event', 'firstTimestamp')),
  wide('Count', (o, now) => eventTimes(o, now).count, core('Event', 'count')),
  col('Name', 'string', (o) => str(o.metadata?.name), {
    priority: 1,
    format: 'name',
    fieldDoc: nameColumnDoc,
  }),
];

/** Leases: `HOLDER AGE`. */
export const leaseColumns: TableColumn[] = [
  col(
    'Holder',
    'string',
    (o) => str(spec(o).holderIdentity),
    swaggerDoc('io.k8s.api.coordination.v1.LeaseSpec', 'holderIdentity'),
  ),
  ageColumn,
];
