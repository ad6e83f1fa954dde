/**
 * A CertificateSigningRequest's validation (pkg/apis/certificates/validation
 * `ValidateCertificateSigningRequestCreate`, `...Update`, `...StatusUpdate`, `...ApprovalUpdate`):
 * the PEM request parsed and its signature checked, usages, the signer name, the requested
 * duration, the conditions (Approved, Denied and Failed only True, Approved and Denied never
 * together, no repeated types) and the issued certificate. Each update path may change only its
 * part: /approval the Approved and Denied conditions, /status the certificate, once. Problems an
 * old object already had are tolerated on its updates (`getValidationOptions`).
 */

import { X509Certificate } from 'node:crypto';
import type { KubeObject } from '../../../protocol/events.js';
import { checkRequestSignature, parseCertificateRequest } from '../../pki/csr.js';
import { decodePem } from '../../pki/pem.js';
import { arr, objects, rec, sameJson, str } from '../access.js';
import type { FieldError } from '../types.js';
import { duplicate, forbidden, invalid, notSupported, required, validateObjectMeta } from '../validation.js';
import { validateSignerName } from './signer-name.js';

/** The key usages a request may ask for (`allValidUsages`), sorted as Go's `sets.List` gives them. */
export const CSR_USAGES = [
  'any',
  'cert sign',
  'client auth',
  'code signing',
  'content commitment',
  'crl sign',
  'data encipherment',
  'decipher only',
  'digital signature',
  'email protection',
  'encipher only',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'key agreement',
  'key encipherment',
  'microsoft sgc',
  'netscape sgc',
  'ocsp signing',
  's/mime',
  'server auth',
  'signing',
  'timestamping',
];

/** The signer of requests made through certificates.k8s.io/v1beta1, refused by v1. */
export const LEGACY_UNKNOWN_SIGNER = 'kubernetes.io/legacy-unknown';

/** The condition types that may only be True. */
const TRUE_ONLY_TYPES = new Set(['Approved', 'Denied', 'Failed']);

/** What an update path may change, and what it tolerates because the old object had it. */
interface CsrValidationOptions {
  allowSettingApprovalConditions: boolean;
  allowSettingCertificate: boolean;
  allowLegacySignerName: boolean;
  allowDuplicateConditionTypes: boolean;
  allowEmptyConditionType: boolean;
  allowArbitraryCertificate: boolean;
  allowUnknownUsages: boolean;
  allowDuplicateUsages: boolean;
}

const conditionsOf = (csr: KubeObject) => objects(rec(csr.status).conditions);
const usagesOf = (csr: KubeObject) => arr(rec(csr.spec).usages).map(str);
const certificateOf = (csr: KubeObject) => str(rec(csr.status).certificate);

function hasRepeats(values: string[]): boolean {
  return new Set(values).size !== values.length;
}

/** `getValidationOptions`: the tolerances an update earns from what the old object already holds. */
function optionsFor(csr: KubeObject, old: KubeObject | undefined): CsrValidationOptions {
  const oldTypes = old ? conditionsOf(old).map((c) => str(c.type)) : [];
  return {
    allowSettingApprovalConditions: false,
    allowSettingCertificate: false,
    allowLegacySignerName: old !== undefined && str(rec(old.spec).signerName) === LEGACY_UNKNOWN_SIGNER,
    allowDuplicateConditionTypes: hasRepeats(oldTypes),
    allowEmptyConditionType: oldTypes.includes(''),
    allowArbitraryCertificate:
      old !== undefined &&
      (certificateOf(csr) === certificateOf(old) || certificateError(certificateOf(old)) !== undefined),
    allowUnknownUsages: old !== undefined && usagesOf(old).some((u) => !CSR_USAGES.includes(u)),
    allowDuplicateUsages: old !== undefined && hasRepeats(usagesOf(old)),
  };
}

/** `validateCSR`: the base64 request holds a PEM CERTIFICATE REQUEST whose signature verifies. */
function requestError(request: string): string | undefined {
  const found = decodePem(Buffer.from(request, 'base64'));
  if (found?.block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  try {
    checkRequestSignature(parseCertificateRequest(found.block.bytes));
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** `validateCertificate`: an issued certificate is CERTIFICATE PEM blocks only, each a parsable certificate. */
function certificateError(certificate: string): string | undefined {
  if (certificate === '') return undefined;
  let rest: Buffer = Buffer.from(certificate, 'base64');
  let blocks = 0;
  for (let found = decodePem(rest); found; found = decodePem(rest)) {
    const { block } = found;
    if (block.type !== 'CERTIFICATE')
      return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(block.type)}`;
    if (Object.keys(block.headers).length > 0) return 'no PEM block headers are permitted';
    blocks++;
    try {
      new X509Certificate(block.bytes);
    } catch {
      return 'x509: malformed certificate';
    }
    rest = found.rest;
  }
  return blocks === 0 ? 'must contain at least one CERTIFICATE PEM block' : undefined;
}

/** `validateConditions`. */
function validateConditions(csr: KubeObject, opts: CsrValidationOptions): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  conditionsOf(csr).forEach((c, i) => {
    const at = `status.conditions[${i}]`;
    const type = str(c.type);
    const status = str(c.status);
    if (!opts.allowEmptyConditionType && type === '') errors.push(required(`${at}.type`));
    const allowed = TRUE_ONLY_TYPES.has(type) ? ['True'] : ['False', 'True', 'Unknown'];
    if (status === '') errors.push(required(`${at}.status`));
    else if (!allowed.includes(status)) errors.push(notSupported(`${at}.status`, status, allowed));
    if (!opts.allowDuplicateConditionTypes) {
      if (seen.has(type)) errors.push(duplicate(`${at}.type`, type));
      seen.add(type);
    }
  });
  return errors;
}

/** `validateCertificateSigningRequest`: the object on its own. */
function validateObject(csr: KubeObject, opts: CsrValidationOptions): FieldError[] {
  // `ValidateCertificateRequestName`: any name will do.
  const errors = validateObjectMeta(csr, () => []);
  const spec = rec(csr.spec);
  const request = str(spec.request);
  const requestProblem = requestError(request);
  // A nil []byte marshals as null, an empty one as "".
  if (requestProblem) errors.push(invalid('spec.request', spec.request ?? null, requestProblem));
  const usages = usagesOf(csr);
  if (usages.length === 0) errors.push(required('spec.usages'));
  if (!opts.allowUnknownUsages) {
    usages.forEach((u, i) => {
      if (!CSR_USAGES.includes(u)) errors.push(notSupported(`spec.usages[${i}]`, u, CSR_USAGES));
    });
  }
  if (!opts.allowDuplicateUsages) {
    const seen = new Set<string>();
    usages.forEach((u, i) => {
      if (seen.has(u)) errors.push(duplicate(`spec.usages[${i}]`, u));
      seen.add(u);
    });
  }
  const signerName = str(spec.signerName);
  if (!opts.allowLegacySignerName && signerName === LEGACY_UNKNOWN_SIGNER) {
    errors.push(
      invalid('spec.signerName', signerName, 'the legacy signerName is not allowed via this API version'),
    );
  } else errors.push(...validateSignerName('spec.signerName', signerName));
  if (typeof spec.expirationSeconds === 'number' && spec.expirationSeconds < 600) {
    errors.push(
      invalid(
        'spec.expirationSeconds',
        spec.expirationSeconds,
        'may not specify a duration less than 600 seconds (10 minutes)',
      ),
    );
  }
  errors.push(...validateConditions(csr, opts));
  if (!opts.allowArbitraryCertificate) {
    const problem = certificateError(certificateOf(csr));
    if (problem) errors.push(invalid('status.certificate', '<certificate data>', problem));
  }
  return errors;
}

/** `ValidateCertificateSigningRequestCreate`. */
export function validateCsrCreate(csr: KubeObject): FieldError[] {
  return validateObject(csr, optionsFor(csr, undefined));
}

/** `validateCertificateSigningRequestUpdate` with the endpoint's rights. */
function validateUpdate(csr: KubeObject, old: KubeObject, opts: CsrValidationOptions): FieldError[] {
  const errors = validateObject(csr, opts);
  const ofType = (o: KubeObject, t: string) => conditionsOf(o).filter((c) => c.type === t);
  for (const t of ['Approved', 'Denied', 'Failed']) {
    if (ofType(csr, t).length < ofType(old, t).length) {
      errors.push(
        forbidden('status.conditions', `updates may not remove a condition of type ${JSON.stringify(t)}`),
      );
    }
  }
  if (!opts.allowSettingApprovalConditions) {
    for (const t of ['Approved', 'Denied']) {
      const now = ofType(csr, t);
      const before = ofType(old, t);
      if (now.length > before.length) {
        errors.push(
          forbidden('status.conditions', `updates may not add a condition of type ${JSON.stringify(t)}`),
        );
      } else if (now.length === before.length && !sameJson(now, before)) {
        errors.push(
          forbidden('status.conditions', `updates may not modify a condition of type ${JSON.stringify(t)}`),
        );
      }
    }
  }
  if (certificateOf(csr) !== certificateOf(old)) {
    if (!opts.allowSettingCertificate) {
      errors.push(forbidden('status.certificate', 'updates may not set certificate content'));
    } else if (certificateOf(old) !== '') {
      errors.push(forbidden('status.certificate', 'updates may not modify existing certificate content'));
    }
  }
  return errors;
}

/**
 * The declarative rule that takes the place of the handwritten "mutually exclusive" check
 * (k8s.io/api certificates/v1 `+k8s:zeroOrOneOfMember` on the Approved and Denied conditions,
 * pkg/apis/certificates/v1/zz_generated.validations.go, enforced at beta): a changed status holds
 * at most one of them. Declarative errors come after the handwritten ones
 * (apiserver rest.ValidateDeclarativelyWithMigrationChecks).
 */
function approvalUnion(csr: KubeObject, old: KubeObject): FieldError[] {
  if (sameJson(rec(csr.status), rec(old.status))) return [];
  const types = conditionsOf(csr).map((c) => c.type);
  if (!types.includes('Approved') || !types.includes('Denied')) return [];
  const members = ['conditions[{"type": "Approved"}]', 'conditions[{"type": "Denied"}]'];
  return [
    invalid(
      'status.conditions',
      `{${members.join(', ')}}`,
      `must specify at most one of: ${members.map((m) => `\`${m}\``).join(', ')}`,
    ),
  ];
}

/** `ValidateCertificateSigningRequestUpdate`: the main endpoint, which may change neither approval nor certificate. */
export function validateCsrUpdate(csr: KubeObject, old: KubeObject): FieldError[] {
  return [...validateUpdate(csr, old, optionsFor(csr, old)), ...approvalUnion(csr, old)];
}

/** `ValidateCertificateSigningRequestStatusUpdate` (/status) and `...ApprovalUpdate` (/approval). */
export function validateCsrStatusUpdate(csr: KubeObject, old: KubeObject, subresource: string): FieldError[] {
  const opts = optionsFor(csr, old);
  if (subresource === 'approval') opts.allowSettingApprovalConditions = true;
  else opts.allowSettingCertificate = true;
  return [...validateUpdate(csr, old, opts), ...approvalUnion(csr, old)];
}
