/**
 * autoscaling/v1 ↔ autoscaling/v2 HorizontalPodAutoscalers (pkg/apis/autoscaling/v1/conversion.go).
 * v1 has only a CPU utilization target; the rest of a v2 object travels in annotations, each
 * holding Go's `json.Marshal` of the v1 types (or, for the behavior, of the internal type, whose
 * fields have no json tags): `autoscaling.alpha.kubernetes.io/metrics` (the metrics but the CPU
 * utilization one), `.../current-metrics`, `.../behavior` and `.../conditions`. The texts are
 * written here key by key in the Go structs' order, so they are the reference's byte for byte.
 */

import { type JsonObject, objects, rec, str } from '../access.js';
import {
  compact,
  goJson,
  isCpuUtilizationSpec,
  metricFromV1,
  metricToV1,
  reference,
  set,
  statusFromV1,
  statusToV1,
} from './hpa-metrics-v1.js';

export const METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
export const CURRENT_METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
/** helpers.go `DropRoundTripHorizontalPodAutoscalerAnnotations`: every annotation a conversion owns. */
const ROUND_TRIP = [
  METRICS_ANNOTATION,
  BEHAVIOR_ANNOTATION,
  'autoscaling.alpha.kubernetes.io/scale-down-tolerance',
  'autoscaling.alpha.kubernetes.io/scale-up-tolerance',
  CURRENT_METRICS_ANNOTATION,
  CONDITIONS_ANNOTATION,
];

/** annotations.go `DefaultCPUUtilization`. */
const DEFAULT_CPU_UTILIZATION = 80;

/** A condition as the v1 annotation writes it (HorizontalPodAutoscalerCondition's fields, in order). */
function conditionToV1(c: JsonObject): JsonObject {
  return compact([
    ['type', str(c.type)],
    ['status', str(c.status)],
    ['lastTransitionTime', c.lastTransitionTime ?? null],
    ['reason', str(c.reason) || undefined],
    ['message', str(c.message) || undefined],
    ['observedGeneration', c.observedGeneration],
  ]);
}

/** The internal HorizontalPodAutoscalerBehavior as json.Marshal writes it: Go's field names, nil pointers as null. */
function behaviorInternal(b: JsonObject): Record<string, unknown> {
  const rules = (r: unknown) => {
    if (!set(r)) return null;
    const x = rec(r);
    return {
      StabilizationWindowSeconds: x.stabilizationWindowSeconds ?? null,
      SelectPolicy: x.selectPolicy ?? null,
      Policies: Array.isArray(x.policies)
        ? objects(x.policies).map((p) => ({
            Type: str(p.type),
            Value: p.value ?? 0,
            PeriodSeconds: p.periodSeconds ?? 0,
          }))
        : null,
      Tolerance: x.tolerance ?? null,
    };
  };
  return { ScaleUp: rules(b.scaleUp), ScaleDown: rules(b.scaleDown) };
}

/** The behavior an annotation holds, as v2 JSON (an empty one is none). */
function behaviorFromInternal(text: string): JsonObject | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const b = rec(parsed);
  const rules = (r: unknown) => {
    if (!set(r)) return undefined;
    const x = rec(r);
    return compact([
      ['stabilizationWindowSeconds', x.StabilizationWindowSeconds],
      ['selectPolicy', x.SelectPolicy],
      [
        'policies',
        Array.isArray(x.Policies)
          ? objects(x.Policies).map((p) => ({
              type: str(p.Type),
              value: p.Value ?? 0,
              periodSeconds: p.PeriodSeconds ?? 0,
            }))
          : undefined,
      ],
      ['tolerance', x.Tolerance],
    ]);
  };
  const out = compact([
    ['scaleUp', rules(b.ScaleUp)],
    ['scaleDown', rules(b.ScaleDown)],
  ]);
  return Object.keys(out).length > 0 ? out : undefined;
}

function parseList(text: string | undefined): JsonObject[] | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? objects(parsed) : parsed === null ? [] : undefined;
  } catch {
    return undefined;
  }
}

/** Annotations without the round-trip ones (undefined stays undefined). */
function withoutRoundTrip(annotations: unknown): Record<string, string> | undefined {
  if (!set(annotations)) return undefined;
  const a = { ...(annotations as Record<string, string>) };
  if (!ROUND_TRIP.some((k) => k in a)) return annotations as Record<string, string>;
  for (const k of ROUND_TRIP) delete a[k];
  return a;
}

/** `Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler`: a v2 object as v1. */
export function hpaToV1(v2: JsonObject): JsonObject {
  const spec = rec(v2.spec);
  const status = rec(v2.status);
  const metrics = objects(spec.metrics);
  const current = objects(status.currentMetrics);
  const conditions = objects(status.conditions);
  let annotations = withoutRoundTrip(v2.metadata && rec(v2.metadata).annotations);
  const add = (key: string, value: string) => {
    annotations = { ...(annotations ?? {}), [key]: value };
  };
  const other = metrics.filter((m) => !isCpuUtilizationSpec(m));
  if (other.length > 0) add(METRICS_ANNOTATION, goJson(other.map(metricToV1)));
  if (current.length > 0) add(CURRENT_METRICS_ANNOTATION, goJson(current.map(statusToV1)));
  if (set(spec.behavior)) add(BEHAVIOR_ANNOTATION, goJson(behaviorInternal(rec(spec.behavior))));
  if (conditions.length > 0) add(CONDITIONS_ANNOTATION, goJson(conditions.map(conditionToV1)));
  const cpu = metrics.find(isCpuUtilizationSpec);
  const cpuStatus = current.filter(
    (m) => m.type === 'Resource' && set(m.resource) && str(rec(m.resource).name) === 'cpu',
  );
  let currentCpu: unknown;
  for (const m of cpuStatus) {
    const u = rec(rec(m.resource).current).averageUtilization;
    if (set(u)) currentCpu = u;
  }
  const metadata = { ...rec(v2.metadata) };
  if (annotations === undefined) delete metadata.annotations;
  else metadata.annotations = annotations;
  return {
    kind: 'HorizontalPodAutoscaler',
    apiVersion: 'autoscaling/v1',
    metadata,
    spec: compact([
      ['scaleTargetRef', reference(spec.scaleTargetRef)],
      ['minReplicas', spec.minReplicas],
      ['maxReplicas', spec.maxReplicas ?? 0],
      ['targetCPUUtilizationPercentage', cpu ? rec(rec(cpu.resource).target).averageUtilization : undefined],
    ]),
    status: compact([
      ['observedGeneration', status.observedGeneration],
      ['lastScaleTime', status.lastScaleTime],
      ['currentReplicas', status.currentReplicas ?? 0],
      ['desiredReplicas', status.desiredReplicas ?? 0],
      ['currentCPUUtilizationPercentage', currentCpu],
    ]),
  };
}

/** The CPU utilization metric v1's target and default stand for. */
const cpuMetric = (utilization: unknown): JsonObject => ({
  type: 'Resource',
  resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } },
});

/** `Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler`: a v1 object as v2. */
export function hpaFromV1(v1: JsonObject): JsonObject {
  const spec = rec(v1.spec);
  const status = rec(v1.status);
  const annotations = rec(rec(v1.metadata).annotations) as Record<string, string>;
  let metrics: JsonObject[] = set(spec.targetCPUUtilizationPercentage)
    ? [cpuMetric(spec.targetCPUUtilizationPercentage)]
    : [];
  const other = parseList(annotations[METRICS_ANNOTATION]);
  if (other !== undefined) metrics = [...other.map(metricFromV1), ...metrics];
  const behaviorText = annotations[BEHAVIOR_ANNOTATION];
  const behavior = behaviorText === undefined ? undefined : behaviorFromInternal(behaviorText);
  let currentMetrics: JsonObject[] | undefined;
  if (set(status.currentCPUUtilizationPercentage)) {
    currentMetrics = [
      {
        type: 'Resource',
        resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } },
      },
    ];
  }
  const current = parseList(annotations[CURRENT_METRICS_ANNOTATION]);
  if (current !== undefined) currentMetrics = current.map(statusFromV1);
  if (metrics.length === 0) metrics = [cpuMetric(DEFAULT_CPU_UTILIZATION)];
  const conditionList = parseList(annotations[CONDITIONS_ANNOTATION]);
  const conditions = conditionList?.map(conditionToV1);
  const metadata = { ...rec(v1.metadata) };
  const kept = withoutRoundTrip(metadata.annotations);
  if (kept === undefined) delete metadata.annotations;
  else metadata.annotations = kept;
  const v2Status = compact([
    ['observedGeneration', status.observedGeneration],
    ['lastScaleTime', status.lastScaleTime],
    // v2's currentReplicas is omitempty; currentMetrics is not (a nil list is null).
    ['currentReplicas', status.currentReplicas || undefined],
    ['desiredReplicas', status.desiredReplicas ?? 0],
  ]);
  v2Status.currentMetrics = currentMetrics ?? null;
  if (conditions !== undefined) v2Status.conditions = conditions;
  return {
    kind: 'HorizontalPodAutoscaler',
    apiVersion: 'autoscaling/v2',
    metadata,
    spec: compact([
      ['scaleTargetRef', reference(spec.scaleTargetRef)],
      ['minReplicas', spec.minReplicas],
      ['maxReplicas', spec.maxReplicas ?? 0],
      ['metrics', metrics],
      ['behavior', behavior],
    ]),
    status: v2Status,
  };
}
