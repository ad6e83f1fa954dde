/**
 * A PodCertificateRequest's validation (pkg/apis/certificates/validation
 * `ValidatePodCertificateRequestCreate`, `...Update`, `...StatusUpdate`): on create the pod,
 * service account and node it names, the signer and its expiration bounds, and the key, either a
 * stub PKCS#10 request or a PKIX public key with a proof of possession over the pod's UID; on
 * update a fixed spec; on /status conditions that end in one terminal state (Issued, Denied,
 * Failed), after which the status is fixed, and an issued chain whose leaf was issued to the
 * requested key with the times it encodes (pcr-status-validation.ts).
 */

import { createPublicKey, constants as cryptoConstants, type KeyObject, verify } from 'node:crypto';
import type { KubeObject } from '../../../protocol/events.js';
import { checkRequestSignature, parseCertificateRequest } from '../../pki/csr.js';
import { rec, sameJson, str } from '../access.js';
import type { FieldError } from '../types.js';
import { FieldErrorType, invalid, required, tooLong, validateObjectMeta } from '../validation.js';
import { isDNS1123Subdomain } from '../validation-names.js';
import { isKubernetesSignerName, validateSignerName } from './signer-name.js';

const MAX_KEY_SIZE = 10 * 1024;
const MIN_MAX_EXPIRATION = 3600;
const MAX_MAX_EXPIRATION = 91 * 24 * 3600;
const KUBERNETES_MAX_MAX_EXPIRATION = 24 * 3600;

/** `field.Invalid` with `field.OmitValueType{}`: the message names no value. */
export function invalidOmitted(field: string, detail: string): FieldError {
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
