/**
 * Signer names, which CertificateSigningRequests, ClusterTrustBundles and PodCertificateRequests
 * share (pkg/apis/core/validation/names.go `ValidateSignerName`, `IsKubernetesSignerName`): a
 * DNS domain of at least two labels, a slash, and a path of DNS subdomains joined by dots.
 */

import { goQuote } from '../field-value.js';
import type { FieldError } from '../types.js';
import { invalid, required, tooLong } from '../validation.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../validation-names.js';

/** DNS-1123 subdomain and label length limits (apimachinery util/validation). */
const SUBDOMAIN_MAX = 253;
const LABEL_MAX = 63;

/** `IsKubernetesSignerName`: the domain is kubernetes.io or one of its subdomains. */
export function isKubernetesSignerName(signerName: string): boolean {
  const host = signerName.split('/')[0];
  return host === 'kubernetes.io' || host.endsWith('.kubernetes.io');
}

/**
 * `ValidateSignerName`: each label of the domain a DNS label and each of the path a DNS subdomain,
 * reporting the first bad label of each only (later ones would repeat the same complaint).
 */
export function validateSignerName(field: string, signerName: string): FieldError[] {
  if (signerName === '') return [required(field)];
  const segments = signerName.split('/');
  if (segments.length !== 2) {
    return [
      invalid(
        field,
        signerName,
        "must be a fully qualified domain and path of the form 'example.com/signer-name'",
      ),
    ];
  }
  const [domain, path] = segments;
  const errors: FieldError[] = [];
  if (domain.length > SUBDOMAIN_MAX) errors.push(tooLong(field, SUBDOMAIN_MAX));
  const domainLabels = domain.split('.');
  for (const label of domainLabels) {
    const msgs = isDNS1123Label(label);
    for (const msg of msgs) errors.push(invalid(field, domain, `validating label ${goQuote(label)}: ${msg}`));
    if (msgs.length > 0) break;
  }
  if (domainLabels.length < 2) {
    errors.push(invalid(field, domain, 'should be a domain with at least two segments separated by dots'));
  }
  for (const label of path.split('.')) {
    const msgs = isDNS1123Subdomain(label);
    for (const msg of msgs) errors.push(invalid(field, path, `validating label ${goQuote(label)}: ${msg}`));
    if (msgs.length > 0) break;
  }
  const maxLength = SUBDOMAIN_MAX + (SUBDOMAIN_MAX + LABEL_MAX + 1) + 1;
  if (signerName.length > maxLength) errors.push(tooLong(field, maxLength));
  return errors;
}
