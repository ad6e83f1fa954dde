/**
 * The field selectors each kind supports beyond metadata.name and
 * metadata.namespace (which the server handles for every kind), read the way
 * kube-apiserver's `ToSelectableFields` functions read them: every supported
 * field always has a value, "" when absent, so `spec.nodeName=` selects the
 * pods no node has taken yet. A field not listed for a kind is a 400.
 */

import type { KubeObject } from '../../protocol/events.js';
import { getPath, objects, rec, str } from './access.js';

/** Reads one selectable field of an object. */
export type FieldGetter = (obj: KubeObject) => string;

/** A string field at a dotted path; absent (or not a string) reads as "", as in kube's `fields.Set`. */
export function pathField(path: string): FieldGetter {
  return (obj) => str(getPath(obj, path));
}

/** A boolean field as Go's `strconv.FormatBool` prints it; absent is "false". */
export function boolField(path: string): FieldGetter {
  return (obj) => String(getPath(obj, path) === true);
}

/** An integer field as `strconv.Itoa` prints it; absent is "0". */
export function intField(path: string): FieldGetter {
  return (obj) => {
    const value = getPath(obj, path);
    return typeof value === 'number' && Number.isInteger(value) ? String(value) : '0';
  };
}

/**
 * kube's PodToSelectableFields (pkg/registry/core/pod/strategy.go). The
 * scheduler lists `spec.nodeName=` and kubelets `spec.nodeName=<node>`.
 */
export const podFields: Record<string, FieldGetter> = {
  'spec.nodeName': pathField('spec.nodeName'),
  'spec.restartPolicy': pathField('spec.restartPolicy'),
  'spec.schedulerName': pathField('spec.schedulerName'),
  'spec.serviceAccountName': pathField('spec.serviceAccountName'),
  'spec.hostNetwork': boolField('spec.hostNetwork'),
  'status.phase': pathField('status.phase'),
  // kube reads podIPs[0]; defaulting keeps podIP in step with it.
  'status.podIP': (o) => str(objects(rec(o.status).podIPs)[0]?.ip) || str(rec(o.status).podIP),
  'status.nominatedNodeName': pathField('status.nominatedNodeName'),
};

/** kube's event `ToSelectableFields` (pkg/registry/core/event/strategy.go); `source` falls back to the reporting controller. */
export const eventFields: Record<string, FieldGetter> = {
  'involvedObject.kind': pathField('involvedObject.kind'),
  'involvedObject.namespace': pathField('involvedObject.namespace'),
  'involvedObject.name': pathField('involvedObject.name'),
  'involvedObject.uid': pathField('involvedObject.uid'),
  'involvedObject.apiVersion': pathField('involvedObject.apiVersion'),
  'involvedObject.resourceVersion': pathField('involvedObject.resourceVersion'),
  'involvedObject.fieldPath': pathField('involvedObject.fieldPath'),
  reason: pathField('reason'),
  reportingComponent: pathField('reportingComponent'),
  source: (o) => str(rec(o.source).component) || str(o.reportingComponent),
  type: pathField('type'),
};

/** Secrets: `type` (how kubelets and controllers find service-account tokens). */
export const secretFields: Record<string, FieldGetter> = { type: pathField('type') };

/** Namespaces: `status.phase`. */
export const namespaceFields: Record<string, FieldGetter> = { 'status.phase': pathField('status.phase') };

/** Nodes: `spec.unschedulable`. */
export const nodeFields: Record<string, FieldGetter> = {
  'spec.unschedulable': boolField('spec.unschedulable'),
};

/** ReplicaSets: `status.replicas`. */
export const replicaSetFields: Record<string, FieldGetter> = {
  'status.replicas': intField('status.replicas'),
};

/** Services: `spec.clusterIP` and `spec.type` (kube-apiserver 1.30+). */
export const serviceFields: Record<string, FieldGetter> = {
  'spec.clusterIP': pathField('spec.clusterIP'),
  'spec.type': pathField('spec.type'),
};
