/**
 * Server-side apply on every sample kind whose plain create already matches
 * the reference (CLEAN_KINDS): no-op re-apply, dry runs, ownership shared
 * and released, apply after a create or an update by another manager,
 * resourceVersion preconditions, a configuration naming another object,
 * kind or version, and `force` on a patch that is not an apply. The
 * hand-written scenarios are in cases/apply.yaml.
 */

import type { FidelityCase, Step } from '../types.js';
import { type KindSample, SAMPLES, sampleName } from './samples.js';
import { created, withValue } from './verbs.js';

/**
 * The kinds whose create and apply match the reference; Pod, Node, Event,
 * StatefulSet and DaemonSet differ by fields and defaults new in 1.34-1.37
 * (and Pod by ServiceAccount admission), which would drown these cases.
 */
export const CLEAN_KINDS = new Set([
  'ConfigMap',
  'Secret',
  'Service',
  'Namespace',
  'Deployment',
  'ReplicaSet',
  'Lease',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
]);

export const cleanSamples = (): KindSample[] => SAMPLES.filter((s) => CLEAN_KINDS.has(s.kind));

const APPLY = 'application/apply-patch+yaml';

/** The sample created by a named manager (not compared). */
function createdBy(s: KindSample, name: string, manager: string): Step {
  return {
    request: { method: 'POST', path: s.collection, query: { fieldManager: manager }, body: s.object(name) },
    compare: false,
  };
}

export function applyCases(): FidelityCase[] {
  const out: FidelityCase[] = [];
  for (const s of cleanSamples()) {
    const name = sampleName(s, 'obj');
    const item = `${s.collection}/${name}`;
    const body = s.object(name);
    const changed = withValue(body, s.change.path, s.change.value);
    const labelled = withValue(body, ['metadata', 'labels', 'owner'], 'fc');
    const add = (id: string, steps: Step[]) =>
      out.push({ id: `apply/${s.label ?? s.kind}/${id}`, area: 'apply', steps });
    const apply = (
      manager: string,
      object: unknown,
      query: Record<string, string> = {},
      extra: { save?: Record<string, string>; compare?: boolean } = {},
    ): Step => ({
      request: {
        method: 'PATCH',
        path: item,
        query: { fieldManager: manager, ...query },
        headers: { 'content-type': APPLY },
        body: object,
      },
      ...extra,
    });
    const get: Step = { request: { path: item } };

    add('twice-noop', [apply('fc', body), apply('fc', body), get]);
    add('dry-run-create', [apply('fc', body, { dryRun: 'All' }), get]);
    add('dry-run-update', [apply('fc', body), apply('fc', changed, { dryRun: 'All' }), get]);
    add('dry-run-conflict', [apply('first', body), apply('second', changed, { dryRun: 'All' })]);
    add('shared-same-value', [apply('first', body), apply('second', body), get]);
    add('label-added-then-omitted', [apply('fc', labelled), apply('fc', body), get]);
    add('label-shared-then-released', [
      apply('first', labelled),
      apply('second', labelled),
      apply('first', body),
      get,
    ]);
    add('after-create-conflict', [createdBy(s, name, 'creator'), apply('applier', changed)]);
    add('after-create-force', [createdBy(s, name, 'creator'), apply('applier', changed, { force: 'true' })]);
    add('after-merge-patch-conflict', [
      apply('applier', body),
      {
        request: {
          method: 'PATCH',
          path: item,
          query: { fieldManager: 'editor' },
          headers: { 'content-type': 'application/merge-patch+json' },
          body: withValue({}, s.change.path, s.change.value),
        },
      },
      apply('applier', body),
    ]);
    add('rv-current', [
      apply('fc', body, {}, { save: { rv: 'metadata.resourceVersion' } }),
      apply('fc', withValue(changed, ['metadata', 'resourceVersion'], '$rv')),
    ]);
    add('rv-stale', [
      apply('fc', body, {}, { save: { rv: 'metadata.resourceVersion' } }),
      apply('fc', changed),
      apply('fc', withValue(body, ['metadata', 'resourceVersion'], '$rv')),
    ]);
    add('rv-on-create', [apply('fc', withValue(body, ['metadata', 'resourceVersion'], '12345'))]);
    add('wrong-name', [apply('fc', withValue(body, ['metadata', 'name'], `${name}-other`))]);
    add('no-name', [apply('fc', withValue(body, ['metadata', 'name'], undefined))]);
    add('wrong-kind', [apply('fc', withValue(body, ['kind'], 'Wrong'))]);
    add('wrong-api-version', [apply('fc', withValue(body, ['apiVersion'], 'example.com/v9'))]);
    add('no-kind', [apply('fc', withValue(body, ['kind'], undefined))]);
    add('no-api-version', [apply('fc', withValue(body, ['apiVersion'], undefined))]);
    add('force-on-merge-patch', [
      created(s, name),
      {
        request: {
          method: 'PATCH',
          path: item,
          query: { force: 'true' },
          headers: { 'content-type': 'application/merge-patch+json' },
          body: withValue({}, s.change.path, s.change.value),
        },
      },
    ]);
    if (s.namespaced) {
      add('namespace-mismatch', [apply('fc', withValue(body, ['metadata', 'namespace'], 'elsewhere'))]);
    }
  }
  return out;
}
