/**
 * The ClusterTrustBundle (certificates.k8s.io/v1): a PEM bundle of CA certificates, optionally
 * tied to a signer whose name prefixes the bundle's. Validation is pkg/apis/certificates/validation
 * `ValidateClusterTrustBundle` and `...Update` (the name coupled to the signer,
 * names.go `ValidateClusterTrustBundleName`; the bundle's blocks each a CA certificate, no
 * duplicates, at least one; the signer fixed once set); its strategy
 * (pkg/registry/certificates/clustertrustbundle/strategy.go) changes nothing and wants the
 * resourceVersion on a PUT; printers.go `printClusterTrustBundle` gives its SignerName column.
 */

import { X509Certificate } from 'node:crypto';
import type { KubeObject } from '../../../protocol/events.js';
import { decodePem } from '../../pki/pem.js';
import { rec, specOf, str } from '../access.js';
import { builtinKind } from '../builtin.js';
import { orNone } from '../columns.js';
import type { FieldError, ResourceKind } from '../types.js';
import { invalid, tooLong, validateObjectMeta } from '../validation.js';
import { isDNS1123Subdomain, type NameCheck } from '../validation-names.js';
import { validateSignerName } from './signer-name.js';

/** certificates.MaxTrustBundleSize: 1 MiB. */
const MAX_TRUST_BUNDLE_SIZE = 1024 * 1024;

/**
 * `ValidateClusterTrustBundleName`: a bundle of signer `example.com/foo` is named
 * `example.com:foo:<DNS subdomain>`; one without a signer has no colon in its name.
 */
export function clusterTrustBundleName(signerName: string): NameCheck {
  return (name) => {
    if (signerName === '') {
      if (name.includes(':')) return ['ClusterTrustBundle without signer name must not have ":" in its name'];
      return isDNS1123Subdomain(name);
    }
    const prefix = `${signerName.replaceAll('/', ':')}:`;
    if (!name.startsWith(prefix)) {
      return [`ClusterTrustBundle for signerName ${signerName} must be named with prefix ${prefix}`];
    }
    return isDNS1123Subdomain(name.slice(prefix.length));
  };
}

/** `validateTrustBundle`: every block a CA CERTIFICATE without headers, no anchor twice, at least one. */
export function validateTrustBundle(field: string, bundle: string): FieldError[] {
  if (Buffer.byteLength(bundle) > MAX_TRUST_BUNDLE_SIZE) return [tooLong(field, MAX_TRUST_BUNDLE_SIZE)];
  const omitted = '<value omitted>';
  const errors: FieldError[] = [];
  const seen = new Map<string, number[]>();
  let rest: Buffer = Buffer.from(bundle);
  for (let i = 0, found = decodePem(rest); found; i++, found = decodePem(rest)) {
    rest = found.rest;
    const { block } = found;
    if (block.type !== 'CERTIFICATE') {
      errors.push(invalid(field, omitted, `entry ${i} has bad block type: ${block.type}`));
      continue;
    }
    if (Object.keys(block.headers).length > 0) {
      errors.push(invalid(field, omitted, `entry ${i} has PEM block headers`));
      continue;
    }
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(block.bytes);
    } catch {
      errors.push(invalid(field, omitted, `entry ${i} does not parse as X.509`));
      continue;
    }
    if (!cert.ca) {
      errors.push(invalid(field, omitted, `entry ${i} does not have the CA bit set`));
      continue;
    }
    const key = block.bytes.toString('base64');
    seen.set(key, [...(seen.get(key) ?? []), i]);
  }
  // A malformed block says enough: no duplicate or missing-anchor complaints on top.
  if (errors.length > 0) return errors;
  if (seen.size === 0) errors.push(invalid(field, omitted, 'at least one trust anchor must be provided'));
  for (const indices of seen.values()) {
    if (indices.length > 1) {
      errors.push(invalid(field, omitted, `duplicate trust anchor (indices [${indices.join(' ')}])`));
    }
  }
  return errors;
}

/** `ValidateClusterTrustBundle`; `parseBundle` false skips the bundle (an update that leaves it). */
export function validateClusterTrustBundle(obj: KubeObject, parseBundle = true): FieldError[] {
  const spec = specOf(obj);
  const signerName = str(spec.signerName);
  const errors = validateObjectMeta(obj, clusterTrustBundleName(signerName));
  if (signerName !== '') errors.push(...validateSignerName('spec.signerName', signerName));
  if (parseBundle) errors.push(...validateTrustBundle('spec.trustBundle', str(spec.trustBundle)));
  return errors;
}

/** `ValidateClusterTrustBundleUpdate`: an unchanged bundle is not parsed again; the signer is fixed. */
export function validateClusterTrustBundleUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const oldSpec = rec(old.spec);
  const errors = validateClusterTrustBundle(obj, str(spec.trustBundle) !== str(oldSpec.trustBundle));
  if (str(spec.signerName) !== str(oldSpec.signerName)) {
    errors.push(invalid('spec.signerName', str(spec.signerName), 'field is immutable'));
  }
  return errors;
}

/** The ClusterTrustBundle's entry in the served kinds. */
export const clusterTrustBundleKind: ResourceKind = builtinKind(
  'certificates.k8s.io',
  'v1',
  'clustertrustbundles',
  {
    fields: { 'spec.signerName': (o) => str(specOf(o).signerName) },
    validate: (obj, old) =>
      old ? validateClusterTrustBundleUpdate(obj, old) : validateClusterTrustBundle(obj),
    allowUnconditionalUpdate: false,
    cells: { SignerName: (o) => orNone(str(specOf(o).signerName)) },
  },
);
