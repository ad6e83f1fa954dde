/** The ControllerRevision (apps/v1): data and revision rules, the immutable data, the cells. */
import { describe, expect, it } from 'vitest';
import { fieldErrorText } from '../../../../src/server/kinds/validation.js';
import { kind, row } from '../columns-fixture.js';
import { check } from '../validation-fixture.js';

describe('ControllerRevision', () => {
  it('needs a JSON object of data and a non-negative revision', () => {
    expect(
      check('apps/v1', 'ControllerRevision', { metadata: { name: 'r', namespace: 'n' }, revision: -1 }),
    ).toEqual([
      'revision: Invalid value: -1: must be greater than or equal to 0',
      'data: Required value: data is mandatory',
    ]);
    expect(
      check('apps/v1', 'ControllerRevision', { metadata: { name: 'r', namespace: 'n' }, data: [1] }),
    ).toEqual(['data: Required value: data must be a valid JSON object']);
  });

  it('keeps its data', () => {
    const k = kind('apps/v1', 'ControllerRevision');
    expect(k.validateUpdate!({ data: { b: 1, a: 2 } }, { data: { a: 1 } }).map(fieldErrorText)).toEqual([
      'data: Invalid value: {"b":1,"a":2}: field is immutable',
    ]);
  });

  it('prints its controller as kind.group/name', () => {
    const obj = {
      metadata: {
        name: 'r',
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'u', controller: true },
        ],
      },
      revision: 3,
    };
    expect(row(kind('apps/v1', 'ControllerRevision'), obj)).toEqual(['statefulset.apps/db', 3, '<unknown>']);
  });
});
