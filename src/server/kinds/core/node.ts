/**
 * The Node (core/v1): its defaults (pkg/apis/core/v1/defaults.go and the Go zero values its JSON
 * carries), validation (pkg/apis/core/validation `ValidateNode`), Table columns (printers.go
 * `printNode`), selectable fields, and the TaintNodesByCondition admission plugin
 * (plugin/pkg/admission/nodetaint, `Plugin.Admit`, on by default): a Node is created with the
 * `node.kubernetes.io/not-ready:NoSchedule` taint, so nothing is scheduled onto it before it
 * reports Ready; the node lifecycle controller takes the taint off then. Creates of the main
 * resource only, and a taint of the same key and effect already there is kept as it is
 * (`Taint.MatchTaint`).
 */

import type { KubeObject } from '../../../protocol/events.js';
import {
  child,
  isObject,
  type JsonObject,
  objects,
  rec,
  setIfAbsent,
  specOf,
  statusOf,
  str,
  stringMap,
} from '../access.js';
import { ageColumn, col, orNone, typeDocs, wide } from '../columns.js';
import { boolField, type FieldGetter } from '../selectable-fields.js';
import type { FieldError, ResourceKind, TableColumn } from '../types.js';
import { invalid, notSupported, required, validateObjectMeta } from '../validation.js';
import { isQualifiedName, isValidLabelValue } from '../validation-names.js';

/** NodeSystemInfo's fields without `omitempty` (k8s.io/api core/v1 types.go). */
export const NODE_INFO_FIELDS = [
  'machineID',
  'systemUUID',
  'bootID',
  'kernelVersion',
  'osImage',
  'containerRuntimeVersion',
  'kubeletVersion',
  'kubeProxyVersion',
  'operatingSystem',
  'architecture',
];

/**
 * SetDefaults_NodeStatus (allocatable = capacity when unset), the podCIDR/podCIDRs mirror, and
 * the Go zero values a Node's JSON always carries: `spec` and `status` (structs), and in status
 * `daemonEndpoints.kubeletEndpoint.Port` and every `nodeInfo` string (no `omitempty`).
 */
export function defaultNode(obj: KubeObject): void {
  child(obj as JsonObject, 'spec');
  const zeroStatus = child(obj as JsonObject, 'status');
  const endpoint = zeroStatus && child(child(zeroStatus, 'daemonEndpoints') ?? {}, 'kubeletEndpoint');
  if (endpoint) setIfAbsent(endpoint, 'Port', 0);
  const info = zeroStatus && child(zeroStatus, 'nodeInfo');
  if (info) for (const field of NODE_INFO_FIELDS) setIfAbsent(info, field, '');
  const spec = rec(obj.spec);
  const cidrs = Array.isArray(spec.podCIDRs) ? spec.podCIDRs : [];
  if (str(spec.podCIDR) !== '' && cidrs.length === 0) spec.podCIDRs = [spec.podCIDR];
  else if (str(spec.podCIDR) === '' && typeof cidrs[0] === 'string') spec.podCIDR = cidrs[0];
  const status = rec(obj.status);
  if (isObject(status.capacity) && (status.allocatable === undefined || status.allocatable === null)) {
    status.allocatable = { ...status.capacity };
  }
}

const TAINT_EFFECTS = ['NoExecute', 'NoSchedule', 'PreferNoSchedule'];

/** `ValidateNode`: the name, and taints (key, value, effect). */
export function validateNode(obj: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  objects(rec(obj.spec).taints).forEach((taint, i) => {
    const path = `spec.taints[${i}]`;
    for (const msg of isQualifiedName(str(taint.key))) errors.push(invalid(`${path}.key`, taint.key, msg));
    for (const msg of isValidLabelValue(str(taint.value)))
      errors.push(invalid(`${path}.value`, taint.value, msg));
    const effect = str(taint.effect);
    if (effect === '') errors.push(required(`${path}.effect`));
    else if (!TAINT_EFFECTS.includes(effect))
      errors.push(notSupported(`${path}.effect`, effect, TAINT_EFFECTS));
  });
  return errors;
}

/** Column docs of core/v1 types (printers.go `apiv1.T{}`). */
const core = typeDocs('io.k8s.api.core.v1');

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
  const ready = objects(statusOf(o).conditions).findLast((c) => c.type === 'Ready');
  if (ready) parts.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  else parts.push('Unknown');
  if (specOf(o).unschedulable === true) parts.push('SchedulingDisabled');
  return parts.join(',');
}

function nodeAddress(o: KubeObject, type: string): string {
  return str(objects(statusOf(o).addresses).find((a) => a.type === type)?.address) || '<none>';
}

function nodeInfo(o: KubeObject, key: string): string {
  return str(rec(statusOf(o).nodeInfo)[key]) || '<unknown>';
}

/** Nodes: `STATUS ROLES AGE VERSION`, wide `INTERNAL-IP EXTERNAL-IP OS-IMAGE KERNEL-VERSION CONTAINER-RUNTIME`. */
export const nodeColumns: TableColumn[] = [
  col('Status', 'string', nodeStatus, { description: 'The status of the node' }),
  col('Roles', 'string', nodeRoles, { description: 'The roles of the node' }),
  ageColumn,
  col(
    'Version',
    'string',
    (o) => str(rec(statusOf(o).nodeInfo).kubeletVersion),
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

/** `v1.TaintNodeNotReady`. */
export const NOT_READY_TAINT_KEY = 'node.kubernetes.io/not-ready';

export function taintNewNode(obj: KubeObject): void {
  const spec = child(obj as Record<string, unknown>, 'spec');
  if (!spec) return;
  const taints = spec.taints;
  // A non-list is the client's error, which validation reports.
  if (taints !== undefined && taints !== null && !Array.isArray(taints)) return;
  const held = objects(taints);
  if (held.some((t) => str(t.key) === NOT_READY_TAINT_KEY && str(t.effect) === 'NoSchedule')) return;
  spec.taints = [
    ...(Array.isArray(taints) ? taints : []),
    { key: NOT_READY_TAINT_KEY, effect: 'NoSchedule' },
  ];
}

/** Nodes: `spec.unschedulable`. */
export const nodeFields: Record<string, FieldGetter> = {
  'spec.unschedulable': boolField('spec.unschedulable'),
};

/** The Node's entry in the served kinds. */
export const nodeKind: ResourceKind = {
  group: '',
  version: 'v1',
  kind: 'Node',
  plural: 'nodes',
  singular: 'node',
  namespaced: false,
  shortNames: ['no'],
  categories: [],
  fields: nodeFields,
  subresources: ['status', 'proxy'],
  generationFields: [],
  defaults: defaultNode,
  admitCreate: taintNewNode,
  validate: validateNode,
  columns: nodeColumns,
  withAdmissionPluginsOff: (disabled) =>
    disabled.has('TaintNodesByCondition') ? { admitCreate: undefined } : undefined,
};
