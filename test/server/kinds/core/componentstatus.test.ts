/** ComponentStatuses: the object of a probe and printComponentStatus's cells. */
import { describe, expect, it } from 'vitest';
import {
  componentStatusKind,
  componentStatusOf,
} from '../../../../src/server/kinds/core/virtual/componentstatus.js';

const cells = (obj: ReturnType<typeof componentStatusOf>) =>
  componentStatusKind.columns.map((c) => c.cell(obj, 0));

describe('componentstatuses', () => {
  it('writes one Healthy condition, empty message and error omitted', () => {
    expect(componentStatusOf({ name: 'etcd-0', status: 'True', message: 'ok', error: '' })).toEqual({
      kind: 'ComponentStatus',
      apiVersion: 'v1',
      metadata: { name: 'etcd-0' },
      conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }],
    });
  });

  it('prints Healthy, Unhealthy or Unknown with the first Healthy condition', () => {
    expect(cells(componentStatusOf({ name: 'a', status: 'True', message: 'ok', error: '' }))).toEqual([
      'Healthy',
      'ok',
      '',
    ]);
    expect(cells(componentStatusOf({ name: 'b', status: 'False', message: 'm', error: 'e' }))).toEqual([
      'Unhealthy',
      'm',
      'e',
    ]);
    expect(cells({ metadata: { name: 'c' }, conditions: [] })).toEqual(['Unknown', '', '']);
  });

  it('serves get and list only, and warns of its deprecation', () => {
    expect(componentStatusKind.virtual?.create).toBeUndefined();
    expect(componentStatusKind.virtual?.deprecationWarning).toBe(
      'v1 ComponentStatus is deprecated in v1.19+',
    );
  });
});
