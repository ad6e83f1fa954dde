/**
 * metav1.Time and MicroTime as kube-apiserver writes them back: UTC, whole seconds for a Time,
 * six fractional digits for a MicroTime, and the zero time as null (time.go, micro_time.go
 * `MarshalJSON`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { canonicalTimeText } from '../../../src/server/schema/go-time.js';
import { call, startTestServer } from '../../helpers/server.js';

describe('canonicalTimeText', () => {
  it.each([
    ['2026-12-04T10:00:00Z', false, '2026-12-04T10:00:00Z'],
    ['2026-12-04T10:00:00.999Z', false, '2026-12-04T10:00:00Z'],
    ['2026-12-04T01:30:00+02:00', false, '2026-12-03T23:30:00Z'],
    ['2026-12-31T23:30:00-01:00', false, '2027-01-01T00:30:00Z'],
    ['2026-12-04t10:00:00z', false, '2026-12-04T10:00:00Z'],
    ['0001-01-01T00:00:00Z', false, null],
    ['2026-12-04T10:00:00.123456Z', true, '2026-12-04T10:00:00.123456Z'],
    ['2026-12-04T12:00:00.123456+02:00', true, '2026-12-04T10:00:00.123456Z'],
    ['0001-01-01T00:00:00.000000Z', true, null],
  ])('%s (micro %s) → %s', (text, micro, want) => {
    expect(canonicalTimeText(text, micro)).toBe(want);
  });
});

describe('over HTTP', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.close();
  });

  it("an Event's times are stored as kube-apiserver re-encodes them", async () => {
    const r = await call(s, 'POST', '/api/v1/namespaces/default/events', {
      body: {
        metadata: { name: 'e1' },
        involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
        reason: 'Test',
        message: 'm',
        firstTimestamp: '2026-12-04T10:00:00.123Z',
        lastTimestamp: '2026-12-04T10:00:00+02:00',
        eventTime: '2026-12-04T12:00:00.100000+02:00',
        reportingComponent: 'test',
        reportingInstance: 'test-1',
        action: 'Testing',
        type: 'Normal',
      },
    });
    expect(r.status, r.text).toBe(201);
    expect([r.body.firstTimestamp, r.body.lastTimestamp, r.body.eventTime]).toEqual([
      '2026-12-04T10:00:00Z',
      '2026-12-04T08:00:00Z',
      '2026-12-04T10:00:00.100000Z',
    ]);
    const got = await call(s, 'GET', '/api/v1/namespaces/default/events/e1');
    expect(got.body.firstTimestamp).toBe('2026-12-04T10:00:00Z');
  });
});
