import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import {
  defaultPcr,
  pcrState,
  preparePcrStatusUpdate,
} from '../../../../src/server/kinds/certificates/pcr.js';
import { validatePcrStatusUpdate } from '../../../../src/server/kinds/certificates/pcr-status-validation.js';
import { validatePcrCreate } from '../../../../src/server/kinds/certificates/pcr-validation.js';
import { fieldErrorText } from '../../../../src/server/kinds/validation.js';

/** An empty PKCS#10 request over an Ed25519 key, base64 DER. */
const STUB =
  'MH8wMwIBADAAMCowBQYDK2VwAyEAFKlAmBq3IqcrdmibHYC941wVHMymuAm+rNGZ3AxzT2mgADAFBgMrZXADQQAJ81EdWYwVPFQhxhs8RWY/G50fgwsJOfgRcWCEx1HCotj7YP3sSYoWmtcpXGS8f17Z0Jir9hHzv1KD9PiQMnoH';

const pcr = (spec: Record<string, unknown> = {}, status?: Record<string, unknown>): KubeObject => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'PodCertificateRequest',
  metadata: { name: 'p', namespace: 'ns', labels: { a: 'b' } },
  spec: {
    signerName: 'example.com/signer',
    podName: 'web',
    podUID: 'pod-uid',
    serviceAccountName: 'default',
    serviceAccountUID: 'sa-uid',
    nodeName: 'node-1',
    nodeUID: 'node-uid',
    maxExpirationSeconds: 86400,
    stubPKCS10Request: STUB,
    ...spec,
  },
  ...(status ? { status } : {}),
});

describe('PodCertificateRequest', () => {
  it('defaults a day of expiration and accepts a signed stub request', () => {
    const obj = pcr({ maxExpirationSeconds: undefined });
    defaultPcr(obj);
    expect((obj.spec as Record<string, unknown>).maxExpirationSeconds).toBe(86400);
    expect(validatePcrCreate(obj)).toEqual([]);
  });

  it('bounds the expiration by the signer and wants a readable stub', () => {
    const errors = validatePcrCreate(
      pcr({ signerName: 'kubernetes.io/x', maxExpirationSeconds: 90000, stubPKCS10Request: 'aGVsbG8=' }),
    ).map(fieldErrorText);
    expect(errors).toEqual([
      'spec.maxExpirationSeconds: Invalid value: 90000: must be in the range [3600, 86400]',
      'spec.stubPKCS10Request: Invalid value: must be a valid PKCS#10 CSR',
    ]);
  });

  it('decides once through /status, and keeps the metadata there', () => {
    const old = pcr();
    const denied = pcr(
      {},
      {
        conditions: [
          { type: 'Denied', status: 'True', reason: 'No', lastTransitionTime: '2026-01-01T00:00:00Z' },
        ],
      },
    );
    expect(validatePcrStatusUpdate(denied, old, Date.now())).toEqual([]);
    expect(pcrState(denied)).toBe('Denied');
    const failed = pcr(
      {},
      {
        conditions: [
          { type: 'Failed', status: 'True', reason: 'Late', lastTransitionTime: '2026-01-01T00:00:00Z' },
        ],
      },
    );
    expect(validatePcrStatusUpdate(failed, denied, Date.now()).map(fieldErrorText)).toEqual([
      'status: Invalid value: immutable after PodCertificateRequest is issued, denied, or failed',
    ]);
    const relabelled = pcr();
    relabelled.metadata = { ...relabelled.metadata, labels: { a: 'changed' } };
    preparePcrStatusUpdate(relabelled, old);
    expect(relabelled.metadata?.labels).toEqual({ a: 'b' });
  });
});
