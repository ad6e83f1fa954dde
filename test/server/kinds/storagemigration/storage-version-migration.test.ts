/** The StorageVersionMigration (storagemigration.k8s.io/v1): spec rules, status rules and cells. */
import { describe, expect, it } from 'vitest';
import { fieldErrorText } from '../../../../src/server/kinds/validation.js';
import { kind, row } from '../columns-fixture.js';
import { defaulted } from '../defaults-fixture.js';
import { check } from '../validation-fixture.js';

const V1 = 'storagemigration.k8s.io/v1';
const svm = (resource: Record<string, unknown>, status?: unknown) => ({
  metadata: { name: 'm' },
  spec: { resource },
  ...(status ? { status } : {}),
});

describe('StorageVersionMigration', () => {
  it('writes the GroupResource strings and checks them', () => {
    expect(defaulted(V1, 'StorageVersionMigration', { metadata: { name: 'm' } })).toMatchObject({
      spec: { resource: { group: '', resource: '' } },
    });
    expect(check(V1, 'StorageVersionMigration', svm({}))).toEqual([
      'spec.resource.resource: Required value: resource is required to be set',
    ]);
    expect(check(V1, 'StorageVersionMigration', svm({ resource: 'Pods', group: 'A' }))).toEqual([
      expect.stringMatching(/^spec\.resource\.resource: Invalid value: "Pods": a DNS-1035 label/),
      expect.stringMatching(/^spec\.resource\.group: Invalid value: "A": a lowercase RFC 1123 subdomain/),
    ]);
  });

  it('keeps its spec, and a status once final', () => {
    const k = kind(V1, 'StorageVersionMigration');
    expect(
      k.validateUpdate!(svm({ resource: 'pods', group: '' }), svm({ resource: 'nodes', group: '' })).map(
        fieldErrorText,
      ),
    ).toEqual(['spec: Invalid value: {"Resource":{"Group":"","Resource":"pods"}}: field is immutable']);
    const done = svm(
      { resource: 'pods' },
      { resourceVersion: '5', conditions: [{ type: 'Succeeded', status: 'True' }] },
    );
    const undone = svm({ resource: 'pods' }, { resourceVersion: '6', conditions: [] });
    expect(k.validateStatusUpdate!(undone, done, 'status').map(fieldErrorText)).toEqual([
      'status.resourceVersion: Invalid value: "6": field is immutable',
      'status.conditions: Invalid value: []: Success condition cannot be set to false once it is true',
    ]);
  });

  it('prints the resource and the last final condition', () => {
    const obj = svm(
      { resource: 'deployments', group: 'apps' },
      { conditions: [{ type: 'Running', status: 'True' }] },
    );
    expect(row(kind(V1, 'StorageVersionMigration'), obj)).toEqual(['m', 'deployments.apps', 'Running']);
  });
});
