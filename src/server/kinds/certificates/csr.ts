/**
 * The CertificateSigningRequest (certificates.k8s.io/v1): its strategies
 * (pkg/registry/certificates/certificates/strategy.go: the requesting user recorded at create, a
 * spec fixed from then on, /status writing the certificate and /approval the Approved and Denied
 * conditions, each stamping the conditions' times), validation (csr-validation.ts), its
 * `spec.signerName` field selector and Table columns (printers.go
 * `printCertificateSigningRequest`). No defaults: certificates/v1 registers none.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { objects, rec, specOf, str } from '../access.js';
import { humanDuration } from '../age.js';
import { builtinKind } from '../builtin.js';
import { ageColumn, orNone } from '../columns.js';
import type { RequestUser, ResourceKind } from '../types.js';
import { validateCsrCreate, validateCsrStatusUpdate, validateCsrUpdate } from './csr-validation.js';

/**
 * `csrStrategy.PrepareForCreate`: whatever the body says of its requester is replaced by the
 * request's user (name, uid, groups, extra), and the status starts empty: nobody creates a
 * request already approved.
 */
export function prepareCsrCreate(obj: KubeObject, user?: RequestUser): void {
  const spec = specOf(obj);
  delete spec.username;
  delete spec.uid;
  delete spec.groups;
  delete spec.extra;
  if (user) {
    if (user.name) spec.username = user.name;
    if (user.uid) spec.uid = user.uid;
    if (user.groups.length > 0) spec.groups = [...user.groups];
    const extra = Object.entries(user.extra ?? {});
    if (extra.length > 0) spec.extra = Object.fromEntries(extra.map(([k, v]) => [k, [...v]]));
  }
  obj.spec = spec;
  obj.status = {};
}

/** `csrStrategy.PrepareForUpdate`: the spec never changes after create (the status is kept by the caller). */
export function prepareCsrUpdate(obj: KubeObject, old: KubeObject): void {
  if (old.spec === undefined) delete obj.spec;
  else obj.spec = structuredClone(old.spec);
}

/**
 * The status strategies' PrepareForUpdate (the spec is already the old one's): /status keeps the
 * Approved and Denied conditions as they were where it neither adds nor removes one (a change in
 * their number fails validation); /approval takes only the conditions, the rest of the status
 * stays.
 */
export function prepareCsrStatusUpdate(obj: KubeObject, old: KubeObject, subresource: string): void {
  const status = rec(obj.status);
  const oldStatus = rec(old.status);
  // A condition's times are Go structs: the field manager sees a missing one as there (null), and
  // so records the writer as its owner; stampCsrConditions fills it in afterwards.
  for (const c of objects(status.conditions)) {
    c.lastUpdateTime ??= null;
    c.lastTransitionTime ??= null;
  }
  if (subresource === 'approval') {
    const conditions = status.conditions;
    const next: Record<string, unknown> = { ...oldStatus };
    if (conditions === undefined) delete next.conditions;
    else next.conditions = conditions;
    obj.status = next;
    return;
  }
  const conditions = objects(status.conditions);
  const oldConditions = objects(oldStatus.conditions);
  for (const type of ['Approved', 'Denied']) {
    const at = conditions.flatMap((c, i) => (c.type === type ? [i] : []));
    const was = oldConditions.filter((c) => c.type === type);
    if (at.length !== was.length) continue;
    at.forEach((index, n) => {
      conditions[index] = structuredClone(was[n]);
    });
  }
  // The status is a struct: an update without one writes it empty.
  obj.status = conditions.length > 0 ? { ...status, conditions } : status;
}

/**
 * `populateConditionTimestamps`, the part of both status strategies the field manager does not
 * see: a condition without lastUpdateTime gets now; one without lastTransitionTime keeps that of
 * an old condition of the same type and status, or gets now.
 */
export function stampCsrConditions(obj: KubeObject, old: KubeObject, scope: string, now: number): void {
  if (scope !== 'status' && scope !== 'approval') return;
  const conditions = objects(rec(obj.status).conditions);
  const stamp = new Date(now).toISOString().replace(/\.\d+Z$/, 'Z');
  const oldConditions = objects(rec(old.status).conditions);
  for (const c of conditions) {
    if (!c.lastUpdateTime) c.lastUpdateTime = stamp;
    if (!c.lastTransitionTime) {
      const same = oldConditions.find(
        (o) => o.type === c.type && o.status === c.status && o.lastTransitionTime,
      );
      c.lastTransitionTime = same ? same.lastTransitionTime : stamp;
    }
  }
}

/** printers.go `extractCSRStatus`: Denied over Approved over Pending, then Failed and Issued. */
export function csrCondition(obj: KubeObject): string {
  const types = new Set(objects(rec(obj.status).conditions).map((c) => str(c.type)));
  let text = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) text += ',Failed';
  if (str(rec(obj.status).certificate) !== '') text += ',Issued';
  return text;
}

/** The CertificateSigningRequest's entry in the served kinds. */
export const certificateSigningRequestKind: ResourceKind = builtinKind(
  'certificates.k8s.io',
  'v1',
  'certificatesigningrequests',
  {
    subresources: ['status', 'approval'],
    fields: { 'spec.signerName': (o) => str(specOf(o).signerName) },
    prepareForCreate: prepareCsrCreate,
    prepareForUpdate: prepareCsrUpdate,
    prepareForStatusUpdate: prepareCsrStatusUpdate,
    afterFieldManager: stampCsrConditions,
    validate: (obj, old) => (old ? validateCsrUpdate(obj, old) : validateCsrCreate(obj)),
    validateStatusUpdate: validateCsrStatusUpdate,
    cells: {
      Age: ageColumn.cell,
      SignerName: (o) => orNone(str(specOf(o).signerName)),
      Requestor: (o) => str(specOf(o).username),
      RequestedDuration: (o) => {
        const seconds = specOf(o).expirationSeconds;
        return typeof seconds === 'number' ? humanDuration(seconds * 1000) : '<none>';
      },
      Condition: csrCondition,
    },
  },
);
