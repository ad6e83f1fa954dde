import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import {
  csrCondition,
  prepareCsrCreate,
  prepareCsrStatusUpdate,
  stampCsrConditions,
} from '../../../../src/server/kinds/certificates/csr.js';
import {
  validateCsrCreate,
  validateCsrStatusUpdate,
  validateCsrUpdate,
} from '../../../../src/server/kinds/certificates/csr-validation.js';
import { validateSignerName } from '../../../../src/server/kinds/certificates/signer-name.js';
import { fieldErrorText } from '../../../../src/server/kinds/validation.js';

/** A PKCS#10 request for CN=alice, O=dev (ECDSA P-256), base64. */
const REQUEST =
  'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIWk1JR0FBZ0VBTUI0eERqQU1CZ05WQkFNTUJXRnNhV05sTVF3d0NnWURWUVFLREFOa1pYWXdXVEFUQmdjcQpoa2pPUFFJQkJnZ3Foa2pPUFFNQkJ3TkNBQVQ2YnRGKy93dUJuT3RuY1lUMFlaN0w1cWpSNllBeVhTcWI0aWVPCnU5M3pVUEErNHVRemFWMGs4ay9YTStjK1k3R1U2MmlTN2tpc0lBeUd1elZHVGZmZ29BQXdDZ1lJS29aSXpqMEUKQXdJRFNBQXdSUUloQU53eXhkVGRnNi94SHVOdzQrMTF2RUFldEI3NE1Ka2QxTk5HV3A3aGpUZE1BaUJYVEpjMwppQ3Jid0NmbGdzZk9DL1V5M0RiVVNrbzM3eDBRQ082R2pGaXA1QT09Ci0tLS0tRU5EIENFUlRJRklDQVRFIFJFUVVFU1QtLS0tLQo=';
/** The same request with a bit of its signature flipped. */
const BAD_SIGNATURE =
  'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIWk1JR0FBZ0VBTUI0eERqQU1CZ05WQkFNTUJXRnNhV05sTVF3d0NnWURWUVFLREFOa1pYWXdXVEFUQmdjcWhrak9QUUlCQmdncQpoa2pPUFFNQkJ3TkNBQVQ2YnRGKy93dUJuT3RuY1lUMFlaN0w1cWpSNllBeVhTcWI0aWVPdTkzelVQQSs0dVF6YVYwazhrL1hNK2MrClk3R1U2MmlTN2tpc0lBeUd1elZHVGZmZ29BQXdDZ1lJS29aSXpqMEVBd0lEU0FBd1JRSWhBTnd5eGRUZGc2L3hIdU53NCsxMXZFQWUKdEI3NE1Ka2QxTk5HV3A3aGpUZE1BaUJYVEpjM2lDcmJ3Q2ZsZ3NmT0MvVXkzRGJVU2tvMzd4MFFDTzZHakZtcDVBPT0KLS0tLS1FTkQgQ0VSVElGSUNBVEUgUkVRVUVTVC0tLS0tCg==';
/** A certificate issued for it. */
const CERTIFICATE =
  'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJMakNCMUFJVUJyODFwQktvNWZYc1BFbTM1ZngxVUQ0OGw5TXdDZ1lJS29aSXpqMEVBd0l3RlRFVE1CRUcKQTFVRUF3d0taWGhoYlhCc1pTMWpZVEFlRncweU5qRXlNRGN4TmpNek5UbGFGdzB5TnpFeU1EY3hOak16TlRsYQpNQjR4RGpBTUJnTlZCQU1NQldGc2FXTmxNUXd3Q2dZRFZRUUtEQU5rWlhZd1dUQVRCZ2NxaGtqT1BRSUJCZ2dxCmhrak9QUU1CQndOQ0FBVDZidEYrL3d1Qm5PdG5jWVQwWVo3TDVxalI2WUF5WFNxYjRpZU91OTN6VVBBKzR1UXoKYVYwazhrL1hNK2MrWTdHVTYyaVM3a2lzSUF5R3V6VkdUZmZnTUFvR0NDcUdTTTQ5QkFNQ0Ewa0FNRVlDSVFDago4NFQ5U2xubE1NaDF3ZktuZTZDT0NHVmRVaC91ZDNrMGZOS2RxM3V1N2dJaEFKK21TQlcvQlJvUklad0hyMHpLCkkwTmlVbjdWVGNITHIyZVVBMzhLdWdJcAotLS0tLUVORCBDRVJUSUZJQ0FURS0tLS0tCg==';

const csr = (spec: Record<string, unknown> = {}, status?: Record<string, unknown>): KubeObject => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name: 'c', uid: 'u' },
  spec: { request: REQUEST, signerName: 'example.com/signer', usages: ['client auth'], ...spec },
  ...(status ? { status } : {}),
});

const texts = (errors: ReturnType<typeof validateCsrCreate>) => errors.map(fieldErrorText);

describe('CertificateSigningRequest', () => {
  it('records the requesting user and drops what the body claimed', () => {
    const obj = csr({ username: 'mallory', groups: ['system:masters'], extra: { a: ['b'] } });
    obj.status = { conditions: [{ type: 'Approved', status: 'True' }] };
    prepareCsrCreate(obj, { name: 'alice', uid: '42', groups: ['dev'], extra: { scope: ['x'] } });
    expect(obj.spec).toMatchObject({
      username: 'alice',
      uid: '42',
      groups: ['dev'],
      extra: { scope: ['x'] },
    });
    expect(obj.status).toEqual({});
    const anonymous = csr({ username: 'mallory' });
    prepareCsrCreate(anonymous);
    expect((anonymous.spec as Record<string, unknown>).username).toBeUndefined();
  });

  it('accepts a well-signed request and names a bad one in Go words', () => {
    expect(validateCsrCreate(csr())).toEqual([]);
    expect(texts(validateCsrCreate(csr({ request: 'aGVsbG8=' })))).toEqual([
      'spec.request: Invalid value: "aGVsbG8=": PEM block type must be CERTIFICATE REQUEST',
    ]);
    expect(texts(validateCsrCreate(csr({ request: BAD_SIGNATURE })))[0]).toMatch(
      /: x509: ECDSA verification failure$/,
    );
  });

  it('checks usages, signer and duration', () => {
    const errors = texts(
      validateCsrCreate(
        csr({
          usages: ['client auth', 'client auth', 'nope'],
          signerName: 'kubernetes.io/legacy-unknown',
          expirationSeconds: 10,
        }),
      ),
    );
    expect(errors[0]).toMatch(/^spec.usages\[2\]: Unsupported value: "nope": supported values: "any", /);
    expect(errors.slice(1)).toEqual([
      'spec.usages[1]: Duplicate value: "client auth"',
      'spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version',
      'spec.expirationSeconds: Invalid value: 10: may not specify a duration less than 600 seconds (10 minutes)',
    ]);
  });

  it('validates signer names as ValidateSignerName does', () => {
    expect(validateSignerName('s', 'example.com/a.b')).toEqual([]);
    expect(validateSignerName('s', 'a/b/c').map(fieldErrorText)).toEqual([
      's: Invalid value: "a/b/c": must be a fully qualified domain and path of the form \'example.com/signer-name\'',
    ]);
    expect(validateSignerName('s', 'localhost/x').map(fieldErrorText)).toEqual([
      's: Invalid value: "localhost": should be a domain with at least two segments separated by dots',
    ]);
  });

  it('lets only /approval decide and only /status issue, once', () => {
    const old = csr();
    const approved = csr({}, { conditions: [{ type: 'Approved', status: 'True' }] });
    expect(texts(validateCsrUpdate(approved, old))).toEqual([
      'status.conditions: Forbidden: updates may not add a condition of type "Approved"',
    ]);
    expect(validateCsrStatusUpdate(approved, old, 'approval')).toEqual([]);
    const issued = csr({}, { certificate: CERTIFICATE });
    expect(validateCsrStatusUpdate(issued, old, 'status')).toEqual([]);
    expect(texts(validateCsrStatusUpdate(issued, old, 'approval'))).toEqual([
      'status.certificate: Forbidden: updates may not set certificate content',
    ]);
    const both = csr(
      {},
      {
        conditions: [
          { type: 'Approved', status: 'True' },
          { type: 'Denied', status: 'True' },
        ],
      },
    );
    expect(texts(validateCsrStatusUpdate(both, old, 'approval'))[0]).toMatch(
      /^status.conditions: Invalid value: .*: must specify at most one of: /,
    );
  });

  it('keeps the rest of the status on /approval and the approval on /status, and stamps times', () => {
    const old = csr(
      {},
      { certificate: 'Y2VydA==', conditions: [{ type: 'Approved', status: 'True', reason: 'A' }] },
    );
    const viaStatus = csr({}, { conditions: [{ type: 'Approved', status: 'True', reason: 'B' }] });
    prepareCsrStatusUpdate(viaStatus, old, 'status');
    expect(viaStatus.status).toEqual({ conditions: [{ type: 'Approved', status: 'True', reason: 'A' }] });
    const viaApproval = csr({}, { conditions: [{ type: 'Approved', status: 'True' }] });
    prepareCsrStatusUpdate(viaApproval, csr({}, { certificate: 'Y2VydA==' }), 'approval');
    stampCsrConditions(viaApproval, old, 'approval', Date.UTC(2026, 0, 2, 3, 4, 5));
    expect(viaApproval.status).toEqual({
      certificate: 'Y2VydA==',
      conditions: [
        {
          type: 'Approved',
          status: 'True',
          lastUpdateTime: '2026-01-02T03:04:05Z',
          lastTransitionTime: '2026-01-02T03:04:05Z',
        },
      ],
    });
  });

  it('prints the condition column as printers.go does', () => {
    expect(csrCondition(csr())).toBe('Pending');
    expect(
      csrCondition(
        csr(
          {},
          { certificate: 'x', conditions: [{ type: 'Approved' }, { type: 'Denied' }, { type: 'Failed' }] },
        ),
      ),
    ).toBe('Denied,Failed,Issued');
  });
});
