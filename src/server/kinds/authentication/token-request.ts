/**
 * The TokenRequest (authentication.k8s.io/v1), served as the ServiceAccount's `token`
 * subresource (handlers/service-account-token.ts): its validation
 * (pkg/apis/authentication/validation `ValidateTokenRequest`) and the 422 it is refused with.
 */
import type { KubeObject } from '../../../protocol/events.js';
import { StatusError } from '../../../protocol/status.js';
import type { FieldError } from '../types.js';
import { formatInvalidMessage, invalid, invalidCauses, notSupported } from '../validation.js';
import { isDNS1123Subdomain } from '../validation-names.js';

/** validation.go `MinTokenAgeSec`: ten minutes. */
export const MIN_TOKEN_AGE_SECONDS = 10 * 60;

/** `errors.NewInvalid(GroupKind{group, kind}, name, errs)`: the 422 with each error a cause. */
export function invalidStatus(kind: string, group: string, name: string, errors: FieldError[]): StatusError {
  return StatusError.of('Invalid', formatInvalidMessage({ kind, group }, name, errors), {
    ...(name ? { name } : {}),
    group,
    ...(kind ? { kind } : {}),
    causes: invalidCauses(errors),
  });
}

interface Spec {
  expirationSeconds?: number;
  audiences?: string[] | null;
  boundObjectRef?: { kind?: string; apiVersion?: string } | null;
  attestations?: Record<string, string[]> | null;
}

/**
 * `ValidateTokenRequest`: an age of at least ten minutes and at most 2^32 seconds; a request bound
 * to a webhook configuration has one audience and one `admissionReviewAPIGroups` attestation; no
 * other request carries attestations (that error alone is answered).
 */
export function validateTokenRequest(req: KubeObject): FieldError[] {
  const spec = (req.spec ?? {}) as Spec;
  const errors: FieldError[] = [];
  const seconds = spec.expirationSeconds ?? 0;
  if (seconds < MIN_TOKEN_AGE_SECONDS) {
    errors.push(
      invalid('spec.expirationSeconds', seconds, 'may not specify a duration less than 10 minutes'),
    );
  }
  if (seconds > 2 ** 32) {
    errors.push(
      invalid('spec.expirationSeconds', seconds, 'may not specify a duration larger than 2^32 seconds'),
    );
  }
  const attestations = spec.attestations ?? {};
  const ref = spec.boundObjectRef;
  const webhookRef =
    ref != null &&
    (ref.kind === 'ValidatingWebhookConfiguration' || ref.kind === 'MutatingWebhookConfiguration') &&
    ref.apiVersion === 'admissionregistration.k8s.io/v1';
  if (!webhookRef) {
    if (Object.keys(attestations).length > 0) {
      return [
        invalid(
          'spec.attestations',
          attestations,
          'attestations may only be specified with a webhook bound object reference',
        ),
      ];
    }
    return errors;
  }
  if ((spec.audiences ?? []).length !== 1) {
    errors.push(
      invalid('spec.audiences', spec.audiences ?? null, 'must be length 1 when bound to a webhook config'),
    );
  }
  const keys = Object.keys(attestations);
  if (keys.length !== 1) {
    errors.push(
      invalid(
        'spec.attestations',
        attestations,
        'webhook bound requests require exactly one admissionReviewAPIGroups attestation',
      ),
    );
    return errors;
  }
  const key = keys[0]!;
  const path = `spec.attestations[${key}]`;
  if (key !== 'admissionReviewAPIGroups') {
    errors.push(notSupported(path, key, ['admissionReviewAPIGroups']));
    return errors;
  }
  const values = attestations[key] ?? [];
  if (values.length !== 1) {
    errors.push(invalid(path, values, 'must specify a single value'));
    return errors;
  }
  const group = values[0]!;
  if (group === '') errors.push(invalid(`${path}[0]`, group, 'may not be an empty string'));
  else if (group !== '*') {
    for (const reason of isDNS1123Subdomain(group)) {
      errors.push(invalid(`${path}[0]`, group, `must specify a valid API Group: ${reason}`));
    }
  }
  return errors;
}
