import { describe, expect, it } from 'vitest';
import { failureStatus, StatusError, successStatus } from '../../src/protocol/status.js';

describe('StatusError.fromStream', () => {
  const status = failureStatus('Expired', 'too old resource version: 5 (90)', undefined, 410);

  it('is the same error as the constructor makes, without a stack trace', () => {
    const err = StatusError.fromStream(status);
    expect(err).toBeInstanceOf(StatusError);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ name: 'StatusError', message: status.message, code: 410, reason: 'Expired' });
    expect(err.status).toBe(status);
    expect(err.stack).toBe(`StatusError: ${status.message}`);
    expect(new StatusError(status).stack).toMatch(/\n\s+at /);
  });

  it("leaves the process's stack trace limit as it found it", () => {
    const before = Error.stackTraceLimit;
    try {
      Error.stackTraceLimit = 37;
      StatusError.fromStream(status);
      expect(Error.stackTraceLimit).toBe(37);
    } finally {
      Error.stackTraceLimit = before;
    }
  });
});

describe('Status JSON', () => {
  it('keeps metav1.Status field order (details before code), as kube-apiserver writes it', () => {
    const conflict = failureStatus('Conflict', 'Apply failed with 1 conflict', {
      causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.data.k' }],
    });
    expect(Object.keys(conflict)).toEqual([
      'kind',
      'apiVersion',
      'metadata',
      'status',
      'message',
      'reason',
      'details',
      'code',
    ]);
    expect(Object.keys(successStatus({ name: 'x' }))).toEqual([
      'kind',
      'apiVersion',
      'metadata',
      'status',
      'details',
      'code',
    ]);
    expect(Object.keys(failureStatus('NotFound', 'gone'))).not.toContain('details');
  });
});
