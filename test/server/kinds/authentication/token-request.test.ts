/** The TokenRequest's validation (pkg/apis/authentication/validation `ValidateTokenRequest`). */
import { describe, expect, it } from 'vitest';
import { validateTokenRequest } from '../../../../src/server/kinds/authentication/token-request.js';

const texts = (spec: Record<string, unknown>) =>
  validateTokenRequest({ spec }).map((e) => `${e.field}: ${e.message}`);

describe('validateTokenRequest', () => {
  it('bounds the age between ten minutes and 2^32 seconds', () => {
    expect(texts({ expirationSeconds: 600 })).toEqual([]);
    expect(texts({ expirationSeconds: 599 })).toEqual([
      'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    ]);
    expect(texts({ expirationSeconds: 2 ** 32 + 1 })).toEqual([
      'spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
    ]);
  });

  it('takes attestations only with a webhook configuration bound', () => {
    expect(texts({ expirationSeconds: 600, attestations: { admissionReviewAPIGroups: ['apps'] } })).toEqual([
      'spec.attestations: Invalid value: {"admissionReviewAPIGroups":["apps"]}: attestations may only be specified with a webhook bound object reference',
    ]);
    const ref = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      name: 'w',
    };
    expect(
      texts({
        expirationSeconds: 600,
        boundObjectRef: ref,
        audiences: ['a', 'b'],
        attestations: { x: ['y'] },
      }),
    ).toEqual([
      'spec.audiences: Invalid value: ["a","b"]: must be length 1 when bound to a webhook config',
      'spec.attestations[x]: Unsupported value: "x": supported values: "admissionReviewAPIGroups"',
    ]);
  });
});
