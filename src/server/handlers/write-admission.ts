/**
 * The admission of one write request (admission/): who asks (the authenticated user, as
 * kube-apiserver's request context carries it), with which options, and where the hooks'
 * warnings go. Undefined, at the cost of a kind check, when no built-in plugin, hook or
 * webhook is concerned.
 */
import type { AdmissionUserInfo, GroupVersionKind } from '../admission/types.js';
import type { UserInfo } from '../http/auth.js';
import { WarningRecorder } from '../http/warnings.js';
import type { DeleteOptions, WriteAdmission } from '../registry/object-storage.js';
import type { RequestScope } from './request-scope.js';

/** What a write adds to its admission beyond its scope's kind, namespace and name. */
export interface AdmissionTarget {
  subresource?: string;
  dryRun: boolean;
  /** Options beyond dryRun: a delete's propagationPolicy and preconditions. */
  options?: Record<string, unknown>;
  /** The kind objects are seen as (autoscaling/v1 Scale for `/scale`). */
  objectKind?: GroupVersionKind;
}

/** The admission of a write, or undefined when none is configured. */
export function writeAdmission(scope: RequestScope, target: AdmissionTarget): WriteAdmission | undefined {
  const { query, res } = scope;
  const admission = scope.server.admission;
  if (!admission?.activeFor(scope.kind)) return undefined;
  let warnings: WarningRecorder | undefined;
  const options: Record<string, unknown> = { ...target.options };
  for (const key of ['fieldManager', 'fieldValidation']) {
    const v = query.get(key);
    if (v !== null && target.options === undefined) options[key] = v;
  }
  return admission.forWrite({
    kind: scope.kind,
    subresource: target.subresource,
    namespace: scope.namespace,
    name: scope.name,
    userInfo: userInfoOf(scope.user),
    dryRun: target.dryRun,
    options,
    objectKind: target.objectKind,
    warn: (text) => {
      warnings ??= new WarningRecorder(res);
      warnings.add(text);
    },
  });
}

/** Where a write's kind warnings go: one recorder for the answer's `Warning` headers. */
export function warnTo(scope: RequestScope): (text: string) => void {
  let warnings: WarningRecorder | undefined;
  return (text) => {
    warnings ??= new WarningRecorder(scope.res);
    warnings.add(text);
  };
}

/** authentication/v1 UserInfo of the request's user; `system:anonymous` when none authenticated it. */
function userInfoOf(user: UserInfo | undefined): AdmissionUserInfo {
  if (!user) return { username: 'system:anonymous', groups: ['system:unauthenticated'] };
  return { username: user.name, ...(user.uid && { uid: user.uid }), groups: [...user.groups] };
}

/** The DeleteOptions fields admission's `options` carries (besides dryRun). */
export function deleteOptionFields(opts: DeleteOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (opts.propagationPolicy) out.propagationPolicy = opts.propagationPolicy;
  if (opts.preconditions) out.preconditions = opts.preconditions;
  return out;
}
