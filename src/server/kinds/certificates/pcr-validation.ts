/**
 * A PodCertificateRequest's validation (pkg/apis/certificates/validation
 * `ValidatePodCertificateRequestCreate`, `...Update`, `...StatusUpdate`): on create the pod,
 * service account and node it names, the signer and its expiration bounds, and the key, either a
 * stub PKCS#10 request or a PKIX public key with a proof of possession over the pod's UID; on
 * update a fixed spec; on /status conditions that end in one terminal state (Issued, Denied,
 * Failed), after which the status is fixed, and an issued chain whose leaf was issued to the
 * requested key with the times it encodes.
 */

import {
  createPublicKey,
  constants as cryptoConstants,
  type KeyObject,
  verify,
  X509Certificate,
} from 'node:crypto';
import type { KubeObject } from '../../../protocol/events.js';
import { checkRequestSignature, parseCertificateRequest } from '../../pki/csr.js';
import { decodePem } from '../../pki/pem.js';
import { rec, sameJson, str } from '../access.js';
import { validateConditions } from '../policy/conditions.js';
import type { FieldError } from '../types.js';
import {
  FieldErrorType,
  invalid,
  notSupported,
  required,
  tooLong,
  validateObjectMeta,
} from '../validation.js';
import { isDNS1123Subdomain } from '../validation-names.js';
import { isKubernetesSignerName, validateSignerName } from './signer-name.js';

const MAX_KEY_SIZE = 10 * 1024;
const MAX_CHAIN_SIZE = 100 * 1024;
const MIN_MAX_EXPIRATION = 3600;
const MAX_MAX_EXPIRATION = 91 * 24 * 3600;
const KUBERNETES_MAX_MAX_EXPIRATION = 24 * 3600;
const TERMINAL = ['Issued', 'Denied', 'Failed'];

/** `field.Invalid` with `field.OmitValueType{}`: the message names no value. */
function invalidOmitted(field: string, detail: string): FieldError {
  return { type: FieldErrorType.Invalid, field, message: `Invalid value: ${detail}` };
}

function uidErrors(field: string, uid: string): FieldError[] {
  const errors: FieldError[] = [];
  if (uid === '') errors.push(invalid(field, uid, 'must not be empty'));
  if (uid.length > 128) errors.push(tooLong(field, 128));
  return errors;
}

/** The curve names Go's elliptic package gives. */
const GO_CURVES: Readonly<Record<string, string>> = {
  prime256v1: 'P-256',
  secp384r1: 'P-384',
  secp521r1: 'P-521',
  secp224r1: 'P-224',
};

function rsaBits(key: KeyObject): number {
  return Number(key.asymmetricKeyDetails?.modulusLength ?? 0);
}

/** `validateStubPKCS10Request`. */
function validateStub(stub: string): FieldError[] {
  const field = 'spec.stubPKCS10Request';
  const der = Buffer.from(stub, 'base64');
  if (der.length > MAX_KEY_SIZE) return [tooLong(field, MAX_KEY_SIZE)];
  let csr: ReturnType<typeof parseCertificateRequest>;
  try {
    csr = parseCertificateRequest(der);
  } catch {
    return [invalidOmitted(field, 'must be a valid PKCS#10 CSR')];
  }
  const key = csr.publicKey;
  const type = key?.asymmetricKeyType;
  if (key && type === 'ec') {
    const curve = String(key.asymmetricKeyDetails?.namedCurve ?? '');
    if (!['prime256v1', 'secp384r1', 'secp521r1'].includes(curve)) {
      return [
        invalid(
          field,
          `curve ${GO_CURVES[curve] ?? curve}`,
          'elliptic public keys must use curve P256, P384, or P521',
        ),
      ];
    }
  } else if (key && type === 'rsa') {
    const bits = rsaBits(key);
    if (bits !== 3072 && bits !== 4096) {
      return [invalid(field, `${bits}-bit modulus`, 'RSA keys must have modulus size 3072 or 4096')];
    }
  } else if (type !== 'ed25519') {
    return [invalidOmitted(field, 'unknown public key type; supported types are Ed25519, ECDSA, and RSA')];
  }
  try {
    checkRequestSignature(csr);
  } catch {
    return [invalidOmitted(field, 'invalid signature')];
  }
  return [];
}

/** `validateDeprecatedPKIXPublicKey`: the key's kind and size, and its signature over the pod's UID. */
function validatePkix(pkix: string, proof: string, podUID: string): FieldError[] {
  const keyField = 'spec.pkixPublicKey';
  const proofField = 'spec.proofOfPossession';
  const der = Buffer.from(pkix, 'base64');
  const signature = Buffer.from(proof, 'base64');
  if (der.length > MAX_KEY_SIZE) return [tooLong(keyField, MAX_KEY_SIZE)];
  if (signature.length > MAX_KEY_SIZE) return [tooLong(proofField, MAX_KEY_SIZE)];
  let key: KeyObject;
  try {
    key = createPublicKey({ key: der, format: 'der', type: 'spki' });
  } catch {
    return [invalid(keyField, pkix, 'must be a valid PKIX-serialized public key')];
  }
  const uid = Buffer.from(podUID);
  const failed = [invalidOmitted(proofField, 'could not verify proof-of-possession signature')];
  const verifies = (check: () => boolean) => {
    try {
      return check();
    } catch {
      return false;
    }
  };
  switch (key.asymmetricKeyType) {
    case 'ed25519':
      return verifies(() => verify(null, uid, key, signature)) ? [] : failed;
    case 'ec': {
      const curve = String(key.asymmetricKeyDetails?.namedCurve ?? '');
      if (!['prime256v1', 'secp384r1', 'secp521r1'].includes(curve)) {
        return [
          invalid(
            keyField,
            `curve ${GO_CURVES[curve] ?? curve}`,
            'elliptic public keys must use curve P256 or P384',
          ),
        ];
      }
      return verifies(() => verify('sha256', uid, key, signature)) ? [] : failed;
    }
    case 'rsa': {
      const bits = rsaBits(key);
      if (bits !== 3072 && bits !== 4096) {
        return [invalid(keyField, `${bits}-bit modulus`, 'RSA keys must have modulus size 3072 or 4096')];
      }
      const pss = {
        key,
        padding: cryptoConstants.RSA_PKCS1_PSS_PADDING,
        saltLength: cryptoConstants.RSA_PSS_SALTLEN_AUTO,
      };
      return verifies(() => verify('sha256', uid, pss, signature)) ? [] : failed;
    }
    default:
      return [
        invalid(keyField, pkix, 'unknown public key type; supported types are Ed25519, ECDSA, and RSA'),
      ];
  }
}

/** `ValidatePodCertificateRequestCreate`. */
export function validatePcrCreate(obj: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  const spec = rec(obj.spec);
  const signerName = str(spec.signerName);
  errors.push(...validateSignerName('spec.signerName', signerName));
  const names: Array<[string, string]> = [
    ['podName', 'podUID'],
    ['serviceAccountName', 'serviceAccountUID'],
    ['nodeName', 'nodeUID'],
  ];
  for (const [name, uid] of names) {
    const value = str(spec[name]);
    for (const msg of isDNS1123Subdomain(value)) errors.push(invalid(`spec.${name}`, value, msg));
    errors.push(...uidErrors(`spec.${uid}`, str(spec[uid])));
  }
  const max = spec.maxExpirationSeconds;
  if (typeof max !== 'number') {
    errors.push(required('spec.maxExpirationSeconds', 'must be set'));
    return errors;
  }
  const upper = isKubernetesSignerName(signerName) ? KUBERNETES_MAX_MAX_EXPIRATION : MAX_MAX_EXPIRATION;
  if (max < MIN_MAX_EXPIRATION || max > upper) {
    errors.push(
      invalid('spec.maxExpirationSeconds', max, `must be in the range [${MIN_MAX_EXPIRATION}, ${upper}]`),
    );
  }
  const stub = str(spec.stubPKCS10Request);
  const pkix = str(spec.pkixPublicKey);
  const proof = str(spec.proofOfPossession);
  if (stub !== '' && pkix === '' && proof === '') errors.push(...validateStub(stub));
  else if (stub === '' && pkix !== '' && proof !== '')
    errors.push(...validatePkix(pkix, proof, str(spec.podUID)));
  else {
    errors.push(
      invalidOmitted(
        'spec',
        'exactly one of (stubPKCS10Request) or (pkixPublicKey, proofOfPossession) must be set',
      ),
    );
  }
  return errors;
}

/** `ValidatePodCertificateRequestUpdate`: only the metadata may change. */
export function validatePcrUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  if (sameJson(rec(obj.spec), rec(old.spec))) return [];
  // ValidateImmutableField renders the internal struct as encoding/json does: Go's field names,
  // in declaration order, the deprecated key fields included.
  const spec = rec(obj.spec);
  const annotations = rec(spec.unverifiedUserAnnotations);
  const sortedAnnotations = Object.fromEntries(
    Object.keys(annotations)
      .sort()
      .map((k) => [k, annotations[k]]),
  );
  const internal = {
    SignerName: str(spec.signerName),
    PodName: str(spec.podName),
    PodUID: str(spec.podUID),
    ServiceAccountName: str(spec.serviceAccountName),
    ServiceAccountUID: str(spec.serviceAccountUID),
    NodeName: str(spec.nodeName),
    NodeUID: str(spec.nodeUID),
    MaxExpirationSeconds: spec.maxExpirationSeconds ?? null,
    PKIXPublicKey: null,
    ProofOfPossession: null,
    StubPKCS10Request: spec.stubPKCS10Request ?? null,
    UnverifiedUserAnnotations: spec.unverifiedUserAnnotations ? sortedAnnotations : null,
  };
  return [invalidOmitted('spec', `${goJson(internal)}: field is immutable`)];
}

/** encoding/json's text: JSON.stringify with Go's HTML-safe escapes. */
function goJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

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
