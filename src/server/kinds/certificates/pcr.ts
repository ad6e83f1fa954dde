/**
 * The PodCertificateRequest (certificates.k8s.io/v1): a kubelet's request for a pod's
 * certificate. Its strategies (pkg/registry/certificates/podcertificaterequest/strategy.go): a
 * create starts with an empty status, a main update keeps the status, /status keeps the spec and
 * the metadata (metav1.ResetObjectMetaForStatus); validation is pcr-validation.ts; the field
 * selectors are storage.go `getAttrs`'s and the columns printers.go `printPodCertificateRequest`'s.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { objects, rec, specOf, str } from '../access.js';
import { builtinKind } from '../builtin.js';
import { formatLabels } from '../columns.js';
import type { ResourceKind } from '../types.js';
import { validatePcrStatusUpdate } from './pcr-status-validation.js';
import { validatePcrCreate, validatePcrUpdate } from './pcr-validation.js';

/** certificates/v1 `SetObjectDefaults_PodCertificateRequest`: a day's expiration at most. */
export function defaultPcr(obj: KubeObject): void {
  const spec = specOf(obj);
  if (spec.maxExpirationSeconds === undefined || spec.maxExpirationSeconds === null)
    spec.maxExpirationSeconds = 86400;
  obj.spec = spec;
}

/** The metadata a status write may not change (metav1.ResetObjectMetaForStatus). */
const STATUS_RESET_META = ['labels', 'annotations', 'finalizers', 'ownerReferences'];

/** `StatusStrategy.PrepareForUpdate`: the spec and the metadata stay as stored. */
export function preparePcrStatusUpdate(obj: KubeObject, old: KubeObject): void {
  const meta = rec(obj.metadata);
  const oldMeta = rec(old.metadata);
  for (const key of STATUS_RESET_META) {
    if (oldMeta[key] === undefined) delete meta[key];
    else meta[key] = structuredClone(oldMeta[key]);
  }
  obj.status = rec(obj.status);
}

/** printers.go: the last of Issued, Denied and Failed among the conditions, else Pending. */
export function pcrState(obj: KubeObject): string {
  let state = 'Pending';
  for (const c of objects(rec(obj.status).conditions)) {
    if (c.type === 'Issued' || c.type === 'Denied' || c.type === 'Failed') state = str(c.type);
  }
  return state;
}

/** The PodCertificateRequest's entry in the served kinds. */
export const podCertificateRequestKind: ResourceKind = builtinKind(
  'certificates.k8s.io',
  'v1',
  'podcertificaterequests',
  {
    fields: {
      'spec.signerName': (o) => str(specOf(o).signerName),
      'spec.podName': (o) => str(specOf(o).podName),
      'spec.nodeName': (o) => str(specOf(o).nodeName),
    },
    defaults: defaultPcr,
    // The strategy wants a PUT to name the version it replaces.
    allowUnconditionalUpdate: false,
    validate: (obj, old) => (old ? validatePcrUpdate(obj, old) : validatePcrCreate(obj)),
    prepareForStatusUpdate: preparePcrStatusUpdate,
    // The status strategy compares notBefore with the server's clock (ValidateUpdate's s.clock).
    validateStatusUpdate: (obj, old) => validatePcrStatusUpdate(obj, old, Date.now()),
    cells: {
      PodName: (o) => str(specOf(o).podName),
      ServiceAccountName: (o) => str(specOf(o).serviceAccountName),
      NodeName: (o) => str(specOf(o).nodeName),
      SignerName: (o) => str(specOf(o).signerName),
      State: pcrState,
      UnverifiedUserAnnotations: (o) => formatLabels(specOf(o).unverifiedUserAnnotations),
    },
  },
);
