/**
 * The metric conversions between autoscaling/v1's annotation types and autoscaling/v2
 * (pkg/apis/autoscaling/v1/conversion.go `Convert_*MetricSource*`, `Convert_*MetricStatus*`), each
 * object built key by key in the Go struct's order, so Go's `json.Marshal` of it is
 * `JSON.stringify`'s (see hpa-conversion.ts).
 */

import { type JsonObject, objects, rec, str } from '../access.js';

export const set = (v: unknown): boolean => v !== undefined && v !== null;

/** An object of the set fields only, in the order given (Go's omitempty on pointers). */
export function compact(entries: ReadonlyArray<readonly [string, unknown]>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of entries) if (set(v)) out[k] = v;
  return out;
}

/** A Quantity value field (not a pointer): the zero Quantity is `"0"`. */
export const quantity = (q: unknown): unknown => (set(q) ? q : '0');

/**
 * Go's `json.Marshal` of a value built here (keys in insertion order, which is the Go struct's),
 * with the HTML-safe escapes Go's encoder writes.
 */
export function goJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

/** metav1.LabelSelector as Go marshals it (map keys sorted, fields in struct order), or undefined. */
export function selector(sel: unknown): JsonObject | undefined {
  if (!set(sel)) return undefined;
  const s = rec(sel);
  const labels = s.matchLabels && Object.keys(rec(s.matchLabels)).length > 0 ? rec(s.matchLabels) : undefined;
  return compact([
    [
      'matchLabels',
      labels && Object.fromEntries(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1))),
    ],
    [
      'matchExpressions',
      Array.isArray(s.matchExpressions) && s.matchExpressions.length > 0
        ? objects(s.matchExpressions).map((e) =>
            compact([
              ['key', str(e.key)],
              ['operator', str(e.operator)],
              ['values', Array.isArray(e.values) && e.values.length > 0 ? e.values : undefined],
            ]),
          )
        : undefined,
    ],
  ]);
}

/** A CrossVersionObjectReference (kind and name always, apiVersion when set). */
export function reference(ref: unknown): JsonObject {
  const r = rec(ref);
  return compact([
    ['kind', str(r.kind)],
    ['name', str(r.name)],
    ['apiVersion', str(r.apiVersion) || undefined],
  ]);
}

export const isCpuUtilizationSpec = (m: JsonObject): boolean =>
  m.type === 'Resource' &&
  set(m.resource) &&
  str(rec(m.resource).name) === 'cpu' &&
  set(rec(rec(m.resource).target).averageUtilization);

/** `Convert_autoscaling_MetricSpec_To_v1_MetricSpec`: a v2 metric as the v1 annotation writes it. */
export function metricToV1(m: JsonObject): JsonObject {
  const source = (key: string) => (set(m[key]) ? rec(m[key]) : undefined);
  const object = source('object');
  const pods = source('pods');
  const resource = source('resource');
  const container = source('containerResource');
  const external = source('external');
  const t = (s: JsonObject) => rec(s.target);
  const metric = (s: JsonObject) => rec(s.metric);
  return compact([
    ['type', str(m.type)],
    [
      'object',
      object &&
        compact([
          ['target', reference(object.describedObject)],
          ['metricName', str(metric(object).name)],
          ['targetValue', quantity(t(object).value)],
          ['selector', selector(metric(object).selector)],
          ['averageValue', t(object).averageValue],
        ]),
    ],
    [
      'pods',
      pods &&
        compact([
          ['metricName', str(metric(pods).name)],
          ['targetAverageValue', quantity(t(pods).averageValue)],
          ['selector', selector(metric(pods).selector)],
        ]),
    ],
    [
      'resource',
      resource &&
        compact([
          ['name', str(resource.name)],
          ['targetAverageUtilization', t(resource).averageUtilization],
          ['targetAverageValue', t(resource).averageValue],
        ]),
    ],
    [
      'containerResource',
      container &&
        compact([
          ['name', str(container.name)],
          ['targetAverageUtilization', t(container).averageUtilization],
          ['targetAverageValue', t(container).averageValue],
          ['container', str(container.container)],
        ]),
    ],
    [
      'external',
      external &&
        compact([
          ['metricName', str(metric(external).name)],
          ['metricSelector', selector(metric(external).selector)],
          ['targetValue', t(external).value],
          ['targetAverageValue', t(external).averageValue],
        ]),
    ],
  ]);
}

/** `Convert_v1_MetricSpec_To_autoscaling_MetricSpec`: a v1 annotation's metric as v2. */
export function metricFromV1(m: JsonObject): JsonObject {
  const source = (key: string) => (set(m[key]) ? rec(m[key]) : undefined);
  const object = source('object');
  const pods = source('pods');
  const resource = source('resource');
  const container = source('containerResource');
  const external = source('external');
  const id = (name: unknown, sel: unknown) =>
    compact([
      ['name', str(name)],
      ['selector', sel],
    ]);
  const resourceTarget = (s: JsonObject) =>
    compact([
      ['type', set(s.targetAverageUtilization) ? 'Utilization' : 'AverageValue'],
      ['averageValue', s.targetAverageValue],
      ['averageUtilization', s.targetAverageUtilization],
    ]);
  let objectTarget: JsonObject | undefined;
  if (object) {
    const average = set(object.averageValue);
    const value =
      !average || (set(object.targetValue) && str(object.targetValue) !== '0')
        ? object.targetValue
        : undefined;
    objectTarget = compact([
      ['type', average ? 'AverageValue' : 'Value'],
      ['value', average ? value : quantity(object.targetValue)],
      ['averageValue', object.averageValue],
    ]);
  }
  return compact([
    ['type', str(m.type)],
    [
      'object',
      object &&
        compact([
          ['describedObject', reference(object.target)],
          ['target', objectTarget],
          ['metric', id(object.metricName, object.selector)],
        ]),
    ],
    [
      'pods',
      pods &&
        compact([
          ['metric', id(pods.metricName, pods.selector)],
          [
            'target',
            compact([
              ['type', 'AverageValue'],
              ['averageValue', quantity(pods.targetAverageValue)],
            ]),
          ],
        ]),
    ],
    [
      'resource',
      resource &&
        compact([
          ['name', str(resource.name)],
          ['target', resourceTarget(resource)],
        ]),
    ],
    [
      'containerResource',
      container &&
        compact([
          ['name', str(container.name)],
          ['target', resourceTarget(container)],
          ['container', str(container.container)],
        ]),
    ],
    [
      'external',
      external &&
        compact([
          ['metric', id(external.metricName, external.metricSelector)],
          [
            'target',
            compact([
              ['type', set(external.targetValue) ? 'Value' : 'AverageValue'],
              ['value', external.targetValue],
              ['averageValue', external.targetAverageValue],
            ]),
          ],
        ]),
    ],
  ]);
}

/** `Convert_autoscaling_MetricStatus_To_v1_MetricStatus`. */
export function statusToV1(m: JsonObject): JsonObject {
  const source = (key: string) => (set(m[key]) ? rec(m[key]) : undefined);
  const object = source('object');
  const pods = source('pods');
  const resource = source('resource');
  const container = source('containerResource');
  const external = source('external');
  const c = (s: JsonObject) => rec(s.current);
  const metric = (s: JsonObject) => rec(s.metric);
  return compact([
    ['type', str(m.type)],
    [
      'object',
      object &&
        compact([
          ['target', reference(object.describedObject)],
          ['metricName', str(metric(object).name)],
          ['currentValue', quantity(c(object).value)],
          ['selector', selector(metric(object).selector)],
          ['averageValue', c(object).averageValue],
        ]),
    ],
    [
      'pods',
      pods &&
        compact([
          ['metricName', str(metric(pods).name)],
          ['currentAverageValue', quantity(c(pods).averageValue)],
          ['selector', selector(metric(pods).selector)],
        ]),
    ],
    [
      'resource',
      resource &&
        compact([
          ['name', str(resource.name)],
          ['currentAverageUtilization', c(resource).averageUtilization],
          ['currentAverageValue', quantity(c(resource).averageValue)],
        ]),
    ],
    [
      'containerResource',
      container &&
        compact([
          ['name', str(container.name)],
          ['currentAverageUtilization', c(container).averageUtilization],
          ['currentAverageValue', quantity(c(container).averageValue)],
          ['container', str(container.container)],
        ]),
    ],
    [
      'external',
      external &&
        compact([
          ['metricName', str(metric(external).name)],
          ['metricSelector', selector(metric(external).selector)],
          ['currentValue', quantity(c(external).value)],
          ['currentAverageValue', c(external).averageValue],
        ]),
    ],
  ]);
}

/** `Convert_v1_MetricStatus_To_autoscaling_MetricStatus`. */
export function statusFromV1(m: JsonObject): JsonObject {
  const source = (key: string) => (set(m[key]) ? rec(m[key]) : undefined);
  const object = source('object');
  const pods = source('pods');
  const resource = source('resource');
  const container = source('containerResource');
  const external = source('external');
  const id = (name: unknown, sel: unknown) =>
    compact([
      ['name', str(name)],
      ['selector', sel],
    ]);
  const resourceCurrent = (s: JsonObject) =>
    compact([
      ['averageValue', quantity(s.currentAverageValue)],
      ['averageUtilization', s.currentAverageUtilization],
    ]);
  return compact([
    ['type', str(m.type)],
    [
      'object',
      object &&
        compact([
          ['metric', id(object.metricName, object.selector)],
          [
            'current',
            compact([
              ['value', quantity(object.currentValue)],
              ['averageValue', object.averageValue],
            ]),
          ],
          ['describedObject', reference(object.target)],
        ]),
    ],
    [
      'pods',
      pods &&
        compact([
          ['metric', id(pods.metricName, pods.selector)],
          ['current', compact([['averageValue', quantity(pods.currentAverageValue)]])],
        ]),
    ],
    [
      'resource',
      resource &&
        compact([
          ['name', str(resource.name)],
          ['current', resourceCurrent(resource)],
        ]),
    ],
    [
      'containerResource',
      container &&
        compact([
          ['name', str(container.name)],
          ['current', resourceCurrent(container)],
          ['container', str(container.container)],
        ]),
    ],
    [
      'external',
      external &&
        compact([
          ['metric', id(external.metricName, external.metricSelector)],
          [
            'current',
            compact([
              ['value', quantity(external.currentValue)],
              ['averageValue', external.currentAverageValue],
            ]),
          ],
        ]),
    ],
  ]);
}
