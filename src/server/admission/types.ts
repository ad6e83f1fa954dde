/**
 * The admission.k8s.io/v1 shapes: the AdmissionRequest kube-apiserver sends a webhook
 * (k8s.io/api/admission/v1 types.go, filled by
 * k8s.io/apiserver/pkg/admission/plugin/webhook/request/admissionreview.go
 * `CreateV1AdmissionReview`), the answer a hook gives, and the in-process hooks of
 * {@link AdmissionHooks}.
 */
import type { KubeObject } from '../../protocol/events.js';

/** A group, version and kind (`metav1.GroupVersionKind`). */
export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** A group, version and resource (`metav1.GroupVersionResource`). */
export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/** The user a request came from (authentication/v1 `UserInfo`). */
export interface AdmissionUserInfo {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** The operations admission sees (`admission.Operation`). */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** admission/v1 `AdmissionRequest`. */
export interface AdmissionRequest {
  /** Unique per call; a webhook's response must echo it. */
  uid: string;
  /** The kind of the object as the hook sees it (after matchPolicy Equivalent, the rule's version). */
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  /** `status`, `scale`, ...; absent on the main resource. */
  subResource?: string;
  /** The kind, resource and subresource the client's request named. */
  requestKind?: GroupVersionKind;
  requestResource?: GroupVersionResource;
  requestSubResource?: string;
  /** The object's name; empty on a create that uses generateName. */
  name?: string;
  /** The namespace; for a Namespace object, its own name (RequestInfo's rule). */
  namespace?: string;
  operation: AdmissionOperation;
  userInfo: AdmissionUserInfo;
  /** The new object (CREATE, UPDATE); absent on DELETE. */
  object?: KubeObject;
  /** The stored object (UPDATE, DELETE). */
  oldObject?: KubeObject;
  /** True for `dryRun=All`: a hook with side effects must not act. */
  dryRun: boolean;
  /** The CreateOptions, UpdateOptions, PatchOptions or DeleteOptions of the request. */
  options?: Record<string, unknown>;
}

/** One JSON Patch (RFC 6902) operation. */
export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

/** The Status part of a denial (`metav1.Status` as a hook fills it). */
export interface AdmissionStatus {
  /** HTTP code; below 400 (or absent) becomes 400, as kube-apiserver sanitizes it. */
  code?: number;
  message?: string;
  reason?: string;
}

/** What an in-process hook answers (admission/v1 `AdmissionResponse`, without uid). */
export interface AdmissionAnswer {
  allowed: boolean;
  /** Why a denial was made; becomes the Status the client gets. */
  status?: AdmissionStatus;
  /** A mutating hook's change: JSON Patch operations on `request.object`. */
  patch?: JsonPatchOperation[];
  /** Texts sent back in `Warning` headers (kubectl prints `Warning: ...`). */
  warnings?: string[];
}

/** A hook: sync or async. */
export type AdmissionHook = (request: AdmissionRequest) => AdmissionAnswer | Promise<AdmissionAnswer>;

/**
 * In-process admission, run where kube-apiserver runs its admission webhooks: `mutate` as the
 * first mutating webhook (before any MutatingWebhookConfiguration's), `validate` as the first
 * validating one. They are named {@link IN_PROCESS_MUTATING_NAME} and
 * {@link IN_PROCESS_VALIDATING_NAME} in denial messages, as a webhook's name would be. Like
 * webhooks, they are not called for writes of the admissionregistration.k8s.io configurations.
 */
export interface AdmissionHooks {
  /** Sees CREATE, UPDATE and DELETE (DELETE: no object, so a patch there is an error, as upstream). */
  mutate?: AdmissionHook;
  /** Sees every write after mutation, defaulting and schema validation, just before storage. */
  validate?: AdmissionHook;
}

/** The webhook name an in-process `mutate` hook's denials carry. */
export const IN_PROCESS_MUTATING_NAME = 'mutate.in-process.watchmark';
/** The webhook name an in-process `validate` hook's denials carry. */
export const IN_PROCESS_VALIDATING_NAME = 'validate.in-process.watchmark';
