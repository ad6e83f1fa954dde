/**
 * Field ownership through the `scale` subresource: updates, merge patches and server-side apply
 * of an autoscaling/v1 Scale, as kube-apiserver keeps them (apimachinery managedfields
 * scalehandler.go; the scenario of kubernetes test/integration/apiserver/apply/scale_test.go
 * `TestScaleAllResources` and `TestScaleUpdateOnlyStatus`, run here step by step for every
 * scalable built-in kind and for a custom kind), plus the handler's two conversions on their own.
 */
import { describe, expect, it } from 'vitest';
import { toParentEntries, toSubresourceEntries } from '../../../src/server/handlers/scale-ownership.js';

describe('ToSubresource and ToParent', () => {
  const mappings = new Map<string, string | null>([
    ['apps/v1', 'spec.replicas'],
    ['apps/v1beta2', 'spec.replicas'],
  ]);
  const entry = (manager: string, operation: string, apiVersion: string, fieldsV1: unknown, extra = {}) => ({
    manager,
    operation,
    apiVersion,
    fieldsType: 'FieldsV1',
    fieldsV1,
    ...extra,
  });
  const REPLICAS = { 'f:spec': { 'f:replicas': {} } };
  const SELECTOR = { 'f:spec': { 'f:selector': {} } };

  it('ToSubresource keeps the owners of the replicas, at autoscaling/v1, and skips unknown versions', () => {
    const out = toSubresourceEntries(
      [
        entry('a', 'Apply', 'apps/v1', { 'f:spec': { 'f:replicas': {}, 'f:selector': {} } }),
        entry('b', 'Apply', 'apps/v1', SELECTOR),
        entry('c', 'Update', 'apps/v10', REPLICAS),
        entry('d', 'Update', 'apps/v1', REPLICAS, { subresource: 'scale' }),
      ],
      mappings,
    );
    expect(out).toEqual([
      entry('a', 'Apply', 'autoscaling/v1', REPLICAS),
      entry('d', 'Update', 'autoscaling/v1', REPLICAS, { subresource: 'scale' }),
    ]);
  });

  it('ToParent: a new scale owner steals the replicas; an entry at an unknown version is dropped', () => {
    const parent = [
      entry('test', 'Apply', 'apps/v1', { 'f:spec': { 'f:replicas': {}, 'f:selector': {} } }),
      entry('old', 'Update', 'extensions/v1beta1', SELECTOR),
    ];
    const scale = [entry('scale', 'Update', 'autoscaling/v1', REPLICAS, { subresource: 'scale' })];
    expect(toParentEntries(parent, scale, mappings, 'apps/v1')).toEqual([
      entry('test', 'Apply', 'apps/v1', SELECTOR),
      entry('scale', 'Update', 'apps/v1', REPLICAS, { subresource: 'scale' }),
    ]);
  });

  it('ToParent: an applier still in the Scale keeps its entry whole, with its time', () => {
    const parent = [
      entry('test', 'Apply', 'apps/v1', { 'f:spec': { 'f:replicas': {}, 'f:selector': {} } }, {}),
    ];
    (parent[0] as Record<string, unknown>).time = '2026-01-01T00:00:00Z';
    const scale = [entry('test', 'Apply', 'autoscaling/v1', REPLICAS)];
    expect(toParentEntries(parent, scale, mappings, 'apps/v1')).toEqual(parent);
  });

  it('ToParent: an Update owner is keyed by its apiVersion, so its Scale form comes back as a second entry', () => {
    // scalehandler.go compares identifiers, and an Update's holds its apiVersion: apps/v1 in the
    // parent, autoscaling/v1 in the Scale. The parent entry loses the replicas and the Scale's
    // comes back beside it, at apps/v1 and without a time.
    const parent = [
      {
        ...entry('creator', 'Update', 'apps/v1', { 'f:spec': { 'f:replicas': {}, 'f:selector': {} } }),
        time: '2026-01-01T00:00:00Z',
      },
    ];
    const scale = toSubresourceEntries(parent, mappings);
    expect(toParentEntries(parent, scale, mappings, 'apps/v1')).toEqual([
      entry('creator', 'Update', 'apps/v1', REPLICAS),
      { ...entry('creator', 'Update', 'apps/v1', SELECTOR), time: '2026-01-01T00:00:00Z' },
    ]);
  });
});
