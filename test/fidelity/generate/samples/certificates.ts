/** Samples of the kinds of this area (see ../samples.ts for what a sample is): certificates.k8s.io and resource.k8s.io. */
import { grouped, type KindSample, meta } from './kit.js';

/** A PKCS#10 request for `CN=alice, O=dev` with an ECDSA P-256 key (openssl req -new), base64 as the API holds it. */
export const CSR_REQUEST =
  'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIWk1JR0FBZ0VBTUI0eERqQU1CZ05WQkFNTUJXRnNhV05sTVF3d0NnWURWUVFLREFOa1pYWXdXVEFUQmdjcQpoa2pPUFFJQkJnZ3Foa2pPUFFNQkJ3TkNBQVQ2YnRGKy93dUJuT3RuY1lUMFlaN0w1cWpSNllBeVhTcWI0aWVPCnU5M3pVUEErNHVRemFWMGs4ay9YTStjK1k3R1U2MmlTN2tpc0lBeUd1elZHVGZmZ29BQXdDZ1lJS29aSXpqMEUKQXdJRFNBQXdSUUloQU53eXhkVGRnNi94SHVOdzQrMTF2RUFldEI3NE1Ka2QxTk5HV3A3aGpUZE1BaUJYVEpjMwppQ3Jid0NmbGdzZk9DL1V5M0RiVVNrbzM3eDBRQ082R2pGaXA1QT09Ci0tLS0tRU5EIENFUlRJRklDQVRFIFJFUVVFU1QtLS0tLQo=';

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
];
