/**
 * A PodCertificateRequest's /status validation (pkg/apis/certificates/validation
 * `ValidatePodCertificateRequestStatusUpdate`): metav1 conditions ending in one terminal state
 * (Issued, Denied, Failed), after which the status is fixed; a denial or failure carries nothing
 * else; an issued chain's leaf was issued to the requested key, with the times it encodes.
 */

import { createPublicKey, type KeyObject, X509Certificate } from 'node:crypto';
import type { KubeObject } from '../../../protocol/events.js';
import { parseCertificateRequest } from '../../pki/csr.js';
import { decodePem } from '../../pki/pem.js';
import { rec, sameJson, str } from '../access.js';
import { validateConditions } from '../policy/conditions.js';
import type { FieldError } from '../types.js';
import { invalid, notSupported, required, tooLong } from '../validation.js';
import { invalidOmitted } from './pcr-validation.js';

const MAX_CHAIN_SIZE = 100 * 1024;
const TERMINAL = ['Issued', 'Denied', 'Failed'];

const conditionsOf = (o: KubeObject) =>
  Array.isArray(rec(o.status).conditions) ? (rec(o.status).conditions as Array<Record<string, unknown>>) : [];
const hasTrue = (o: KubeObject, type: string) =>
  conditionsOf(o).some((c) => c.type === type && c.status === 'True');

/** `ValidatePodCertificateRequestStatusUpdate`; `now` is the server's time (ms) for the notBefore check. */
export function validatePcrStatusUpdate(obj: KubeObject, old: KubeObject, now: number): FieldError[] {
  const errors: FieldError[] = [];
  let known = 0;
  conditionsOf(obj).forEach((c, i) => {
    // validation.go joins its own `formatIndex` as a path segment: `status.conditions.[0]`.
    const dotted = `status.conditions.[${i}]`;
    const type = str(c.type);
    if (TERMINAL.includes(type)) {
      known++;
      if (known > 1) {
        errors.push(
          invalid(
            `${dotted}.type`,
            type,
            'There may be at most one condition with type "Issued", "Denied", or "Failed"',
          ),
        );
      }
      if (c.status !== 'True') errors.push(notSupported(`${dotted}.status`, str(c.status), ['True']));
    } else errors.push(notSupported(`${dotted}.type`, type, TERMINAL));
  });
  errors.push(...validateConditions(rec(obj.status).conditions, 'status.conditions'));
  if (errors.length > 0) return errors;
  const status = rec(obj.status);
  if (TERMINAL.some((t) => hasTrue(old, t))) {
    return sameJson(status, rec(old.status))
      ? []
      : [invalidOmitted('status', 'immutable after PodCertificateRequest is issued, denied, or failed')];
  }
  if (hasTrue(obj, 'Denied') || hasTrue(obj, 'Failed')) {
    const others = Object.keys(status).filter(
      (k) => k !== 'conditions' && status[k] !== undefined && status[k] !== null,
    );
    return others.length === 0
      ? []
      : [
          invalidOmitted(
            'status',
            'non-condition status fields must be empty when denying or failing the PodCertificateRequest',
          ),
        ];
  }
  if (hasTrue(obj, 'Issued')) return validateIssued(obj, old, now);
  return sameJson(status, rec(old.status))
    ? []
    : [
        invalidOmitted(
          'status',
          'status is immutable unless transitioning to "Issued", "Denied", or "Failed"',
        ),
      ];
}

/** The requested key of a stored request: its stub request's, or its PKIX key. */
function requestedKey(old: KubeObject): KeyObject | FieldError {
  const spec = rec(old.spec);
  const stub = str(spec.stubPKCS10Request);
  if (stub !== '') {
    try {
      const key = parseCertificateRequest(Buffer.from(stub, 'base64')).publicKey;
      if (key) return key;
    } catch {
      // answered below
    }
    return invalidOmitted('spec.stubPKCS10Request', 'must be a valid PKCS#10 CSR');
  }
  try {
    return createPublicKey({
      key: Buffer.from(str(spec.pkixPublicKey), 'base64'),
      format: 'der',
      type: 'spki',
    });
  } catch {
    return invalidOmitted('spec.pkixPublicKey', 'must be a valid PKIX-serialized public key');
  }
}

/** The issued chain of a request turning Issued: leaf, key, times and lifetime. */
function validateIssued(obj: KubeObject, old: KubeObject, now: number): FieldError[] {
  const status = rec(obj.status);
  const chainField = 'status.certificateChain';
  const chain = str(status.certificateChain);
  if (Buffer.byteLength(chain) > MAX_CHAIN_SIZE) return [tooLong(chainField, MAX_CHAIN_SIZE)];
  const leafBlock = decodePem(Buffer.from(chain));
  if (!leafBlock)
    return [invalid(chainField, chain, 'issued certificate chain must contain at least one certificate')];
  if (leafBlock.block.type !== 'CERTIFICATE') {
    return [
      invalid(chainField, chain, 'issued certificate chain must consist entirely of CERTIFICATE PEM blocks'),
    ];
  }
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(leafBlock.block.bytes);
  } catch {
    return [invalid(chainField, chain, 'leaf certificate does not parse as valid X.509')];
  }
  const errors: FieldError[] = [];
  const wanted = requestedKey(old);
  if ('field' in wanted) return [...errors, wanted];
  if (!wanted.equals(leaf.publicKey)) {
    return [
      ...errors,
      invalid(chainField, chain, 'leaf certificate was not issued to the requested public key'),
    ];
  }
  if (!status.notBefore)
    errors.push(required('status.notBefore', 'must be present and consistent with the issued certificate'));
  if (!status.notAfter)
    errors.push(required('status.notAfter', 'must be present and consistent with the issued certificate'));
  if (!status.beginRefreshAt) {
    errors.push(
      required('status.beginRefreshAt', 'must be present and in the range [notbefore+10min, notafter-10min]'),
    );
  }
  if (errors.length > 0) return errors;
  const notBefore = Date.parse(str(status.notBefore));
  const notAfter = Date.parse(str(status.notAfter));
  const refresh = Date.parse(str(status.beginRefreshAt));
  const leafNotBefore = Date.parse(leaf.validFrom);
  const leafNotAfter = Date.parse(leaf.validTo);
  if (notBefore !== leafNotBefore) {
    return [
      invalidOmitted('status.notBefore', 'must be set to the NotBefore time encoded in the leaf certificate'),
    ];
  }
  if (!(notBefore > now - 5 * 60_000 && notBefore < now + 5 * 60_000)) {
    return [
      invalidOmitted('status.notBefore', "must be set to within 5 minutes of kube-apiserver's current time"),
    ];
  }
  if (notAfter !== leafNotAfter) {
    return [
      invalidOmitted('status.notAfter', 'must be set to the NotAfter time encoded in the leaf certificate'),
    ];
  }
  const lifetime = leafNotAfter - leafNotBefore;
  if (lifetime < 3600_000) return [invalidOmitted(chainField, 'leaf certificate lifetime must be >= 1 hour')];
  const max = Number(rec(obj.spec).maxExpirationSeconds);
  if (lifetime > max * 1000) {
    return [
      invalidOmitted(chainField, `leaf certificate lifetime must be <= spec.maxExpirationSeconds (${max})`),
    ];
  }
  if (refresh < notBefore + 600_000) {
    return [invalidOmitted('status.beginRefreshAt', 'must be at least 10 minutes after status.notBefore')];
  }
  if (refresh > notAfter - 600_000) {
    return [invalidOmitted('status.beginRefreshAt', 'must be at least 10 minutes before status.notAfter')];
  }
  for (let rest = leafBlock.rest, next = decodePem(rest); next; rest = next.rest, next = decodePem(rest)) {
    if (next.block.type !== 'CERTIFICATE') {
      return [
        invalid(chainField, chain, 'issued certificate chain must consist entirely of CERTFICATE PEM blocks'),
      ];
    }
    try {
      new X509Certificate(next.block.bytes);
    } catch {
      return [invalid(chainField, chain, 'intermediate certificate does not parse as valid X.509')];
    }
  }
  return [];
}
