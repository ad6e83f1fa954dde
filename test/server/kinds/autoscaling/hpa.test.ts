/** HorizontalPodAutoscalers in v2 and v1: conversion, defaults, validation messages, the TARGETS cell. */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import {
  defaultHpa,
  formatHpaMetrics,
  hpaV1Kind,
  hpaV2Kind,
} from '../../../../src/server/kinds/autoscaling/hpa.js';
import {
  BEHAVIOR_ANNOTATION,
  hpaFromV1,
  hpaToV1,
  METRICS_ANNOTATION,
} from '../../../../src/server/kinds/autoscaling/hpa-conversion.js';
import { validateHpa } from '../../../../src/server/kinds/autoscaling/hpa-validation.js';

const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const v2 = (spec: Record<string, unknown>): KubeObject =>
  ({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'h' },
    spec,
  }) as KubeObject;

describe('autoscaling v1 <-> v2', () => {
  it('keeps the CPU target in v1 and the rest in annotations, written as Go marshals the v1 types', () => {
    const out = hpaToV1({
      metadata: { name: 'h' },
      spec: {
        scaleTargetRef: ref,
        maxReplicas: 3,
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
          },
          {
            type: 'Pods',
            pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '10' } },
          },
        ],
        behavior: { scaleUp: { selectPolicy: 'Min' } },
      },
      status: { desiredReplicas: 0, currentMetrics: null },
    });
    expect(out.spec).toEqual({
      scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
      maxReplicas: 3,
      targetCPUUtilizationPercentage: 50,
    });
    const annotations = (out.metadata as { annotations: Record<string, string> }).annotations;
    expect(annotations[METRICS_ANNOTATION]).toBe(
      '[{"type":"Pods","pods":{"metricName":"rps","targetAverageValue":"10"}}]',
    );
    expect(annotations[BEHAVIOR_ANNOTATION]).toBe(
      '{"ScaleUp":{"StabilizationWindowSeconds":null,"SelectPolicy":"Min","Policies":null,"Tolerance":null},"ScaleDown":null}',
    );
    expect(out.status).toEqual({ currentReplicas: 0, desiredReplicas: 0 });
  });

  it('reads the annotations back, the CPU target last, the round-trip annotations dropped', () => {
    const back = hpaFromV1({
      metadata: {
        name: 'h',
        annotations: {
          [METRICS_ANNOTATION]: '[{"type":"Pods","pods":{"metricName":"rps","targetAverageValue":"10"}}]',
          keep: 'x',
        },
      },
      spec: { scaleTargetRef: ref, maxReplicas: 3, targetCPUUtilizationPercentage: 50 },
    });
    expect((back.spec as { metrics: unknown[] }).metrics).toEqual([
      {
        type: 'Pods',
        pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '10' } },
      },
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
      },
    ]);
    expect((back.metadata as { annotations: unknown }).annotations).toEqual({ keep: 'x' });
  });

  it('gives a v1 object without a CPU target the 80 % default in the conversion', () => {
    const back = hpaFromV1({ metadata: { name: 'h' }, spec: { scaleTargetRef: ref, maxReplicas: 2 } });
    expect((back.spec as { metrics: unknown[] }).metrics).toEqual([
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
      },
    ]);
  });

  it('serves v1 over v2 objects', () => {
    expect(hpaV1Kind.storage).toEqual({ group: 'autoscaling', plural: 'horizontalpodautoscalers' });
    expect(hpaV2Kind.storage).toBeUndefined();
  });
});

describe('v2 defaults', () => {
  it('fills minReplicas, the CPU metric and every unset scaling rule', () => {
    const o = v2({
      scaleTargetRef: ref,
      maxReplicas: 4,
      behavior: { scaleDown: { stabilizationWindowSeconds: 60 } },
    });
    defaultHpa(o);
    expect(o.spec).toMatchObject({
      minReplicas: 1,
      metrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
        },
      ],
      behavior: {
        scaleUp: {
          stabilizationWindowSeconds: 0,
          selectPolicy: 'Max',
          policies: [
            { type: 'Pods', value: 4, periodSeconds: 15 },
            { type: 'Percent', value: 100, periodSeconds: 15 },
          ],
        },
        scaleDown: {
          stabilizationWindowSeconds: 60,
          selectPolicy: 'Max',
          policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
        },
      },
    });
  });
});

describe('validation', () => {
  const messages = (o: KubeObject) => validateHpa(o).map((e) => `${e.field}: ${e.message}`);

  it('puts the declarative maxReplicas error after the hand-written ones', () => {
    expect(messages(v2({ scaleTargetRef: ref, minReplicas: 1 }))).toEqual([
      'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`',
      'spec.maxReplicas: Required value',
    ]);
  });

  it('allows scaling to zero only with an Object or External metric', () => {
    expect(messages(v2({ scaleTargetRef: ref, minReplicas: 0, maxReplicas: 2, metrics: [] }))).toEqual([
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
    ]);
  });

  it('names a metric given two sources', () => {
    const metric = {
      type: 'Pods',
      pods: { metric: { name: 'a' }, target: { type: 'AverageValue', averageValue: '1' } },
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 5 } },
    };
    expect(messages(v2({ scaleTargetRef: ref, maxReplicas: 2, metrics: [metric] }))).toEqual([
      'spec.metrics[0].resource: Forbidden: must populate the given metric source only',
    ]);
  });
});

describe('TARGETS', () => {
  it('prints two metrics and how many more', () => {
    const o = {
      spec: {
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
          },
          { type: 'Pods', pods: { target: { averageValue: '10' } } },
          { type: 'External', external: { target: { averageValue: '3' } } },
        ],
      },
      status: {
        currentMetrics: [
          { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 72 } } },
        ],
      },
    };
    expect(formatHpaMetrics(o)).toBe('cpu: 72%/50%, <unknown>/10 + 1 more...');
    expect(formatHpaMetrics({ spec: {} })).toBe('<none>');
  });
});
