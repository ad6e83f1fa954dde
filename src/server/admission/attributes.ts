/**
 * What admission knows about one write (k8s.io/apiserver/pkg/admission `Attributes`), and the
 * admission/v1 AdmissionRequest made from it for one hook
 * (pkg/admission/plugin/webhook/request/admissionreview.go `CreateV1AdmissionReview`).
 */
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../protocol/events.js';
import type {
  AdmissionOperation,
  AdmissionRequest,
  AdmissionUserInfo,
  GroupVersionKind,
  GroupVersionResource,
} from './types.js';

/** One admission call's attributes. */
export interface AdmissionAttributes {
  /** The kind of `object`/`oldObject` (autoscaling/v1 Scale for `/scale`). */
  kind: GroupVersionKind;
  /** The resource the request names (its group/version, `deployments`). */
  resource: GroupVersionResource;
  /** Whether the resource is namespaced (the rules' `scope`). */
  namespaced: boolean;
  subresource: string;
  name: string;
  /** The request's namespace; a Namespace's own name on its update and delete (RequestInfo). */
  namespace: string;
  operation: AdmissionOperation;
  userInfo: AdmissionUserInfo;
  object: KubeObject | undefined;
  oldObject: KubeObject | undefined;
  dryRun: boolean;
  /** The operation's options object (CreateOptions, UpdateOptions, DeleteOptions). */
  options: Record<string, unknown> | undefined;
}

/** What one hook is called with: the attributes, possibly at an equivalent resource's version. */
export interface Invocation {
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  /** Rewrites an object to the invocation's version, and back (matchPolicy Equivalent). */
  toVersion?: (obj: KubeObject) => KubeObject;
  fromVersion?: (obj: KubeObject) => KubeObject;
}

/**
 * `CreateV1AdmissionReview`'s request. `object` and `oldObject` are encoded as JSON null when
 * absent (runtime.RawExtension's MarshalJSON), the other optional fields are `omitempty`.
 */
export function admissionRequest(
  attrs: AdmissionAttributes,
  invocation: Invocation,
  object: KubeObject | undefined,
): AdmissionRequest {
  const request: AdmissionRequest = {
    uid: randomUUID(),
    kind: invocation.kind,
    resource: invocation.resource,
    operation: attrs.operation,
    userInfo: attrs.userInfo,
    dryRun: attrs.dryRun,
  };
  if (attrs.subresource) request.subResource = attrs.subresource;
  request.requestKind = attrs.kind;
  request.requestResource = attrs.resource;
  if (attrs.subresource) request.requestSubResource = attrs.subresource;
  if (attrs.name) request.name = attrs.name;
  if (attrs.namespace) request.namespace = attrs.namespace;
  const convert = invocation.toVersion ?? ((o: KubeObject) => o);
  request.object = object === undefined ? (null as never) : convert(object);
  request.oldObject = attrs.oldObject === undefined ? (null as never) : convert(attrs.oldObject);
  if (attrs.options) request.options = attrs.options;
  return request;
}

/** `meta.k8s.io/v1` options of an operation, as the request carried them (dryRun, fieldManager, ...). */
export function operationOptions(
  operation: AdmissionOperation,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  const kind =
    operation === 'CREATE' ? 'CreateOptions' : operation === 'UPDATE' ? 'UpdateOptions' : 'DeleteOptions';
  const out: Record<string, unknown> = { kind, apiVersion: 'meta.k8s.io/v1' };
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = v;
  return out;
}
