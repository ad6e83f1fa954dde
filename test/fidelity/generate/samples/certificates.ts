/** Samples of the kinds of this area (see ../samples.ts for what a sample is): certificates.k8s.io and resource.k8s.io. */
import { grouped, type KindSample, meta } from './kit.js';

/** A PKCS#10 request for `CN=alice, O=dev` with an ECDSA P-256 key (openssl req -new), base64 as the API holds it. */
export const CSR_REQUEST =
  'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIWk1JR0FBZ0VBTUI0eERqQU1CZ05WQkFNTUJXRnNhV05sTVF3d0NnWURWUVFLREFOa1pYWXdXVEFUQmdjcQpoa2pPUFFJQkJnZ3Foa2pPUFFNQkJ3TkNBQVQ2YnRGKy93dUJuT3RuY1lUMFlaN0w1cWpSNllBeVhTcWI0aWVPCnU5M3pVUEErNHVRemFWMGs4ay9YTStjK1k3R1U2MmlTN2tpc0lBeUd1elZHVGZmZ29BQXdDZ1lJS29aSXpqMEUKQXdJRFNBQXdSUUloQU53eXhkVGRnNi94SHVOdzQrMTF2RUFldEI3NE1Ka2QxTk5HV3A3aGpUZE1BaUJYVEpjMwppQ3Jid0NmbGdzZk9DL1V5M0RiVVNrbzM3eDBRQ082R2pGaXA1QT09Ci0tLS0tRU5EIENFUlRJRklDQVRFIFJFUVVFU1QtLS0tLQo=';

/** A self-signed CA certificate (CN=example-ca, ECDSA P-256, CA:TRUE), PEM. */
export const CA_PEM = `-----BEGIN CERTIFICATE-----\nMIIBfjCCASWgAwIBAgIUbD4beB7HLHcXmyZTUvnsk5NzOlcwCgYIKoZIzj0EAwIw\nFTETMBEGA1UEAwwKZXhhbXBsZS1jYTAeFw0yNjEyMDcxNjMzNThaFw0zNjEyMDQx\nNjMzNThaMBUxEzARBgNVBAMMCmV4YW1wbGUtY2EwWTATBgcqhkjOPQIBBggqhkjO\nPQMBBwNCAARdoLyAPduF3oiabQls/NwDJT0xK47vl1QI7oKfW6iqCeNBIVYqSm+r\nlOq3jrNoItKtiOgNW6VnRn/X9qHKNg32o1MwUTAdBgNVHQ4EFgQUHWkI9La4NM4Y\npjAK+sPSjX4pYrYwHwYDVR0jBBgwFoAUHWkI9La4NM4YpjAK+sPSjX4pYrYwDwYD\nVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNHADBEAiAFta8RLtiSmKHcSHU5rLUl\nO3bNWDQw0Di0+5wU06WK3QIgA54pZHtljxri+04K7/uFk1rSaEmjVZKdN/N2FNyX\n3Ls=\n-----END CERTIFICATE-----\n`;

/** An empty PKCS#10 request over an Ed25519 key, as kubelet makes for a pod certificate, base64 DER. */
export const STUB_REQUEST =
  'MH8wMwIBADAAMCowBQYDK2VwAyEAFKlAmBq3IqcrdmibHYC941wVHMymuAm+rNGZ3AxzT2mgADAFBgMrZXADQQAJ81EdWYwVPFQhxhs8RWY/G50fgwsJOfgRcWCEx1HCotj7YP3sSYoWmtcpXGS8f17Z0Jir9hHzv1KD9PiQMnoH';

export const certificatesSamples: KindSample[] = [
  {
    ...grouped(
      'certificates.k8s.io',
      'v1',
      'CertificateSigningRequest',
      'certificatesigningrequests',
      false,
      'certificates',
    ),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: meta(name, { team: 'a' }),
      spec: { request: CSR_REQUEST, signerName: 'example.com/signer', usages: ['client auth'] },
    }),
    change: { path: ['metadata', 'labels', 'team'], value: 'b' },
  },
  {
    ...grouped(
      'certificates.k8s.io',
      'v1',
      'ClusterTrustBundle',
      'clustertrustbundles',
      false,
      'certificates',
    ),
    subresources: [],
    object: (name) => ({
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'ClusterTrustBundle',
      metadata: meta(name, { team: 'a' }),
      spec: { trustBundle: CA_PEM },
    }),
    change: { path: ['metadata', 'labels', 'team'], value: 'b' },
  },
  {
    ...grouped(
      'certificates.k8s.io',
      'v1',
      'PodCertificateRequest',
      'podcertificaterequests',
      true,
      'certificates',
    ),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'PodCertificateRequest',
      metadata: meta(name, { team: 'a' }),
      spec: {
        signerName: 'example.com/signer',
        podName: 'web',
        podUID: '11111111-2222-3333-4444-555555555555',
        serviceAccountName: 'default',
        serviceAccountUID: '66666666-7777-8888-9999-000000000000',
        nodeName: 'node-1',
        nodeUID: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
        maxExpirationSeconds: 86400,
        stubPKCS10Request: STUB_REQUEST,
      },
    }),
    change: { path: ['metadata', 'labels', 'team'], value: 'b' },
  },
];
