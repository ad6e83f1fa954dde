import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import {
  validateClusterTrustBundle,
  validateClusterTrustBundleUpdate,
} from '../../../../src/server/kinds/certificates/cluster-trust-bundle.js';
import { fieldErrorText } from '../../../../src/server/kinds/validation.js';

const CA =
  '-----BEGIN CERTIFICATE-----\nMIIBfjCCASWgAwIBAgIUbD4beB7HLHcXmyZTUvnsk5NzOlcwCgYIKoZIzj0EAwIw\nFTETMBEGA1UEAwwKZXhhbXBsZS1jYTAeFw0yNjEyMDcxNjMzNThaFw0zNjEyMDQx\nNjMzNThaMBUxEzARBgNVBAMMCmV4YW1wbGUtY2EwWTATBgcqhkjOPQIBBggqhkjO\nPQMBBwNCAARdoLyAPduF3oiabQls/NwDJT0xK47vl1QI7oKfW6iqCeNBIVYqSm+r\nlOq3jrNoItKtiOgNW6VnRn/X9qHKNg32o1MwUTAdBgNVHQ4EFgQUHWkI9La4NM4Y\npjAK+sPSjX4pYrYwHwYDVR0jBBgwFoAUHWkI9La4NM4YpjAK+sPSjX4pYrYwDwYD\nVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNHADBEAiAFta8RLtiSmKHcSHU5rLUl\nO3bNWDQw0Di0+5wU06WK3QIgA54pZHtljxri+04K7/uFk1rSaEmjVZKdN/N2FNyX\n3Ls=\n-----END CERTIFICATE-----\n';
const LEAF =
  '-----BEGIN CERTIFICATE-----\nMIIBLjCB1AIUBr81pBKo5fXsPEm35fx1UD48l9MwCgYIKoZIzj0EAwIwFTETMBEG\nA1UEAwwKZXhhbXBsZS1jYTAeFw0yNjEyMDcxNjMzNTlaFw0yNzEyMDcxNjMzNTla\nMB4xDjAMBgNVBAMMBWFsaWNlMQwwCgYDVQQKDANkZXYwWTATBgcqhkjOPQIBBggq\nhkjOPQMBBwNCAAT6btF+/wuBnOtncYT0YZ7L5qjR6YAyXSqb4ieOu93zUPA+4uQz\naV0k8k/XM+c+Y7GU62iS7kisIAyGuzVGTffgMAoGCCqGSM49BAMCA0kAMEYCIQCj\n84T9SlnlMMh1wfKne6COCGVdUh/ud3k0fNKdq3uu7gIhAJ+mSBW/BRoRIZwHr0zK\nI0NiUn7VTcHLr2eUA38KugIp\n-----END CERTIFICATE-----\n';

const bundle = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'ClusterTrustBundle',
  metadata: { name, uid: 'u' },
  spec,
});
const texts = (obj: KubeObject) => validateClusterTrustBundle(obj).map(fieldErrorText);

describe('ClusterTrustBundle', () => {
  it('couples the name to the signer', () => {
    expect(texts(bundle('example.com:s:v1', { signerName: 'example.com/s', trustBundle: CA }))).toEqual([]);
    expect(texts(bundle('other', { signerName: 'example.com/s', trustBundle: CA }))).toEqual([
      'metadata.name: Invalid value: "other": ClusterTrustBundle for signerName example.com/s must be named with prefix example.com:s:',
    ]);
    expect(texts(bundle('a:b', { trustBundle: CA }))).toEqual([
      'metadata.name: Invalid value: "a:b": ClusterTrustBundle without signer name must not have ":" in its name',
    ]);
  });

  it('wants CA certificates, each once', () => {
    expect(texts(bundle('b', { trustBundle: 'x' }))).toEqual([
      'spec.trustBundle: Invalid value: "<value omitted>": at least one trust anchor must be provided',
    ]);
    expect(texts(bundle('b', { trustBundle: LEAF }))).toEqual([
      'spec.trustBundle: Invalid value: "<value omitted>": entry 0 does not have the CA bit set',
    ]);
    expect(texts(bundle('b', { trustBundle: CA + CA }))).toEqual([
      'spec.trustBundle: Invalid value: "<value omitted>": duplicate trust anchor (indices [0 1])',
    ]);
  });

  it('keeps the signer and does not parse an unchanged bundle again', () => {
    const old = bundle('example.com:s:v1', { signerName: 'example.com/s', trustBundle: 'junk' });
    expect(validateClusterTrustBundleUpdate(structuredClone(old), old)).toEqual([]);
    const moved = bundle('example.com:s:v1', { signerName: 'example.com/t', trustBundle: 'junk' });
    expect(validateClusterTrustBundleUpdate(moved, old).map(fieldErrorText)).toContain(
      'spec.signerName: Invalid value: "example.com/t": field is immutable',
    );
  });
});
