/**
 * The HorizontalPodAutoscaler, served as autoscaling/v2 (its storage version) and autoscaling/v1
 * over the same objects (pkg/registry/autoscaling/horizontalpodautoscaler): v2's defaults
 * (pkg/apis/autoscaling/v2/defaults.go; v1's minReplicas default and CPU target come through the
 * conversion), the strategy (status reset on create and kept on update, generation from spec
 * changes with HPAGeneration on in 1.37, tolerance kept: HPAConfigurableTolerance is GA),
 * validation (hpa-validation.ts) and printers.go `printHorizontalPodAutoscaler`'s columns, all
 * on the v2 form as upstream runs them on the internal one.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { child, type JsonObject, objects, rec, replaceFields, str } from '../access.js';
import { translateTimestampSince } from '../age.js';
import { builtinKind, type ColumnCells } from '../builtin.js';
import type { ResourceKind } from '../types.js';
import { hpaFromV1, hpaToV1 } from './hpa-conversion.js';
import { validateHpa, validateHpaStatus } from './hpa-validation.js';

const set = (v: unknown): boolean => v !== undefined && v !== null;

/** v2 defaults.go's scale-up rules: 4 pods or 100 % per 15 s, the larger, no stabilization. */
const scaleUpDefaults = () => ({
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
});
/** v2 defaults.go's scale-down rules: 100 % per 15 s (the window is the controller's flag's). */
const scaleDownDefaults = () => ({
  selectPolicy: 'Max',
  policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
});

/** `copyHPAScalingRules`: the rules given, each unset one the default's. */
function rulesWithDefaults(given: unknown, defaults: JsonObject): JsonObject {
  if (!set(given)) return defaults;
  const g = rec(given);
  const out: JsonObject = { ...defaults };
  for (const key of ['selectPolicy', 'stabilizationWindowSeconds', 'policies', 'tolerance']) {
    if (set(g[key])) out[key] = g[key];
  }
  return out;
}

/** The zero values v2's JSON always carries (fields without omitempty), on whatever path wrote the object. */
function zeroValues(o: JsonObject): void {
  const spec = child(o, 'spec');
  const ref = spec && child(spec, 'scaleTargetRef');
  if (ref) {
    ref.kind ??= '';
    ref.name ??= '';
  }
  if (spec) spec.maxReplicas ??= 0;
  const status = child(o, 'status');
  if (!status) return;
  status.desiredReplicas ??= 0;
  if (status.currentMetrics === undefined) status.currentMetrics = null;
}

/**
 * `SetDefaults_HorizontalPodAutoscaler` (v2), plus the zero values v2's JSON always carries. It
 * runs on every decode of v2, so also on every object read from storage: an object written through
 * v1 (whose conversion leaves a behavior undefaulted) is read back defaulted.
 */
export function defaultHpa(obj: KubeObject): void {
  const o = obj as JsonObject;
  zeroValues(o);
  const spec = child(o, 'spec');
  if (!spec) return;
  spec.minReplicas ??= 1;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
      },
    ];
  }
  if (set(spec.behavior)) {
    const behavior = rec(spec.behavior);
    spec.behavior = {
      scaleUp: rulesWithDefaults(behavior.scaleUp, scaleUpDefaults()),
      scaleDown: rulesWithDefaults(behavior.scaleDown, scaleDownDefaults()),
    };
  }
}

/** An empty status as v2 writes it (the strategy's PrepareForCreate resets it). */
const emptyStatus = () => ({ desiredReplicas: 0, currentMetrics: null });

/** A Quantity's text as `Quantity.String()` prints it (stored canonical already). */
const q = (v: unknown): string => (set(v) ? str(v) : '0');

/** One metric's `current/target` (printers.go `formatHPAMetrics`). */
function metricText(spec: JsonObject, status: JsonObject | undefined): string {
  const source = (o: JsonObject | undefined, key: string) => (o && set(o[key]) ? rec(o[key]) : undefined);
  switch (spec.type) {
    case 'External':
    case 'Object': {
      const key = spec.type === 'External' ? 'external' : 'object';
      const target = rec(rec(spec[key]).target);
      const cur = source(status, key);
      if (set(target.averageValue)) {
        const current =
          cur && set(rec(cur.current).averageValue) ? q(rec(cur.current).averageValue) : '<unknown>';
        return `${current}/${q(target.averageValue)} (avg)`;
      }
      return `${cur ? q(rec(cur.current).value) : '<unknown>'}/${q(target.value)}`;
    }
    case 'Pods': {
      const cur = source(status, 'pods');
      return `${cur ? q(rec(cur.current).averageValue) : '<unknown>'}/${q(rec(rec(spec.pods).target).averageValue)}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const key = spec.type === 'Resource' ? 'resource' : 'containerResource';
      const src = rec(spec[key]);
      const target = rec(src.target);
      const cur = source(status, key);
      if (set(target.averageValue)) {
        return `${str(src.name)}: ${cur ? q(rec(cur.current).averageValue) : '<unknown>'}/${q(target.averageValue)}`;
      }
      const utilization = cur ? rec(cur.current).averageUtilization : undefined;
      const current = set(utilization) ? `${utilization}%` : '<unknown>';
      const wanted = set(target.averageUtilization) ? `${target.averageUtilization}%` : '<auto>';
      return `${str(src.name)}: ${current}/${wanted}`;
    }
    default:
      return '<unknown type>';
  }
}

/** printers.go `formatHPAMetrics`: the first two metrics, then how many more. */
export function formatHpaMetrics(obj: JsonObject): string {
  const specs = objects(rec(obj.spec).metrics);
  const statuses = objects(rec(obj.status).currentMetrics);
  if (specs.length === 0) return '<none>';
  const list = specs.map((s, i) => metricText(s, statuses[i]));
  if (list.length > 2) return `${list.slice(0, 2).join(', ')} + ${list.length - 2} more...`;
  return list.join(', ');
}

/** The columns' cells on the v2 form. */
function cellsOn(toV2: (o: JsonObject) => JsonObject): ColumnCells {
  return {
    Reference: (o) => {
      const ref = rec(rec(toV2(o as JsonObject).spec).scaleTargetRef);
      return `${str(ref.kind)}/${str(ref.name)}`;
    },
    Targets: (o) => formatHpaMetrics(toV2(o as JsonObject)),
    MinPods: (o) => {
      const min = rec(toV2(o as JsonObject).spec).minReplicas;
      return set(min) ? String(min) : '<unset>';
    },
    MaxPods: (o) => Number(rec(toV2(o as JsonObject).spec).maxReplicas ?? 0),
    Replicas: (o) => Number(rec(toV2(o as JsonObject).status).currentReplicas ?? 0),
    Age: (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
  };
}

/** The strategy's rules shared by both versions, on the v2 form. */
const strategy = {
  generationFields: ['spec'],
  // strategy.go `PrepareForCreate`: the status a create sends is dropped.
  prepareForCreate: (obj: KubeObject) => {
    (obj as JsonObject).status = emptyStatus();
  },
  validateStatusUpdate: (obj: KubeObject) => validateHpaStatus(obj),
  allowCreateOnUpdate: false,
};

/** autoscaling/v2 HorizontalPodAutoscalers: the storage version. */
export const hpaV2Kind: ResourceKind = builtinKind('autoscaling', 'v2', 'horizontalpodautoscalers', {
  ...strategy,
  defaults: defaultHpa,
  validate: (obj, old) => validateHpa(obj, old),
  // The storage decoder defaults what it reads (objects written through v1 included).
  fromStorage: (obj) => defaultHpa(obj),
  cells: cellsOn((o) => o),
});

/**
 * A v1 object's v2 form as a write through v1 makes it: v1's one default (minReplicas, v1
 * defaults.go) on the v1 form, then the conversion, which brings the CPU target's 80 % default;
 * v2's defaults do not run on this path (a behavior from the annotation stays as it was given).
 */
function v2Of(v1: JsonObject): JsonObject {
  const spec = rec(v1.spec);
  const v2 = hpaFromV1(spec.minReplicas === undefined ? { ...v1, spec: { ...spec, minReplicas: 1 } } : v1);
  zeroValues(v2);
  return v2;
}

/** The stored v2 form of each v1 object read from storage: what kube-apiserver's printers see. */
const storedForm = new WeakMap<object, JsonObject>();

/**
 * autoscaling/v1 HorizontalPodAutoscalers: the v2 objects seen through v1 (hpa-conversion.ts).
 * A write through v1 is converted to v2 and validated there, and answered as v1; a read decodes
 * (and defaults) the stored v2 object and converts it.
 */
export const hpaV1Kind: ResourceKind = builtinKind('autoscaling', 'v1', 'horizontalpodautoscalers', {
  ...strategy,
  storage: { group: 'autoscaling', plural: 'horizontalpodautoscalers' },
  defaults: (obj) => replaceFields(obj as JsonObject, hpaToV1(v2Of(obj as JsonObject))),
  validate: (obj, old) =>
    validateHpa(
      v2Of(obj as JsonObject) as KubeObject,
      old ? (v2Of(old as JsonObject) as KubeObject) : undefined,
    ),
  prepareForCreate: (obj: KubeObject) => {
    (obj as JsonObject).status = { currentReplicas: 0, desiredReplicas: 0 };
  },
  validateStatusUpdate: (obj) => validateHpaStatus(v2Of(obj as JsonObject) as KubeObject),
  fromStorage: (obj) => {
    const stored = { ...(obj as JsonObject), metadata: { ...obj.metadata } };
    defaultHpa(stored as KubeObject);
    replaceFields(obj as JsonObject, hpaToV1(stored));
    storedForm.set(obj, stored);
  },
  toStorage: (obj) => replaceFields(obj as JsonObject, v2Of(obj as JsonObject)),
  // printers.go prints the internal object: the stored one, not its v1 round trip (whose metrics
  // put the CPU target last, and whose metadata carries the round-trip annotations).
  printed: (obj) => (storedForm.get(obj) ?? v2Of(obj as JsonObject)) as KubeObject,
  cells: cellsOn((o) => o),
});
