/** events.k8s.io/v1 Events over core/v1's: the conversion both ways and the strict rules. */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import { eventsV1EventKind, fromCoreEvent, toCoreEvent } from '../../../../src/server/kinds/events/event.js';

const ev = {
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name: 'e', namespace: 'ns' },
  eventTime: '2026-01-02T03:04:05.000000Z',
  reportingController: 'example.com/c',
  reportingInstance: 'c-1',
  action: 'Act',
  reason: 'Why',
  regarding: { kind: 'Pod', name: 'web', namespace: 'ns' },
  note: 'hello',
  type: 'Normal',
};

describe('events.k8s.io/v1 <-> core/v1', () => {
  it('renames the fields and carries core zero values', () => {
    const core = toCoreEvent(ev);
    expect(core).toMatchObject({
      apiVersion: 'v1',
      involvedObject: ev.regarding,
      message: 'hello',
      reportingComponent: 'example.com/c',
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
    });
    expect(fromCoreEvent(core as never)).toEqual({
      ...ev,
      deprecatedSource: {},
      deprecatedFirstTimestamp: null,
      deprecatedLastTimestamp: null,
    });
  });

  it('stores in core events', () => {
    expect(eventsV1EventKind.storage).toEqual({ group: '', plural: 'events' });
  });

  it('refuses the deprecated fields on create, naming the internal fields', () => {
    const bad = { ...ev, type: 'Info', deprecatedCount: 2 } as KubeObject;
    expect(eventsV1EventKind.validate!(bad).map((e) => `${e.field}: ${e.message}`)).toEqual([
      'type: Invalid value: "": has invalid value: Info',
      'count: Invalid value: "": needs to be unset',
    ]);
  });

  it('keeps the note immutable, reported as message', () => {
    const errors = eventsV1EventKind.validate!({ ...ev, note: 'changed' } as KubeObject, ev as KubeObject);
    expect(errors.map((e) => `${e.field}: ${e.message}`)).toEqual([
      'message: Invalid value: "changed": field is immutable',
    ]);
  });
});
