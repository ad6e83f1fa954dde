/**
 * The events.k8s.io/v1 Event: core/v1 Events seen through another version. kube-apiserver
 * serves both from one REST storage over `/registry/events` (pkg/registry/core/event), converting
 * through the internal type (pkg/apis/events/v1/conversion.go): `regarding` is `involvedObject`,
 * `note` is `message`, `reportingController` is `reportingComponent`, the `deprecated*` fields
 * are the core ones of those names. An event written through either API is read and watched
 * through both.
 *
 * Validation is core's with the request's version (pkg/apis/core/validation/events.go
 * `ValidateEventCreate`/`ValidateEventUpdate`): the legacy rules, then, for events.k8s.io, the
 * strict ones (a DNS-subdomain name, eventTime, Normal/Warning, the deprecated fields unset, the
 * series, and on update the immutable fields). The errors name the internal type's fields, as
 * the reference's do (`message`, `involvedObject.namespace`), but the reporter.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { type JsonObject, num, rec, replaceFields, sameJson, str } from '../access.js';
import { builtinKind, type ColumnCells } from '../builtin.js';
import { defaultEvent, eventColumns, validateLegacyEvent } from '../core/event.js';
import { goStruct } from '../field-value.js';
import { pathField } from '../selectable-fields.js';
import type { FieldError, ResourceKind } from '../types.js';
import { invalid, required, validateObjectMeta } from '../validation.js';

/** The events.k8s.io fields that are core's under another name: events.k8s.io name → core name. */
const RENAMED: ReadonlyArray<readonly [string, string]> = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];
/** The fields both versions name alike. */
const SAME = ['eventTime', 'series', 'reportingInstance', 'action', 'reason', 'related', 'type'];

/**
 * A core/v1 Event's fields from an events.k8s.io/v1 one (`Convert_v1_Event_To_core_Event`), with
 * the zero values core/v1's JSON always carries ({@link defaultEvent}).
 */
export function toCoreEvent(ev: JsonObject): KubeObject {
  const out: JsonObject = { kind: 'Event', apiVersion: 'v1', metadata: ev.metadata };
  for (const [from, to] of RENAMED) if (ev[from] !== undefined) out[to] = ev[from];
  for (const key of SAME) if (ev[key] !== undefined) out[key] = ev[key];
  // core/v1's count is omitempty: a zero count is no count.
  if (num(out.count) === 0) delete out.count;
  defaultEvent(out as KubeObject);
  return out as KubeObject;
}

/**
 * An events.k8s.io/v1 Event's fields from a core/v1 one (`Convert_core_Event_To_v1_Event`), as
 * its JSON carries them: `eventTime`, `regarding`, `deprecatedSource` and the deprecated times
 * always (no omitempty, or structs, which omitempty never drops); the strings, the count and the
 * pointers only when set.
 */
export function fromCoreEvent(core: JsonObject): JsonObject {
  const out: JsonObject = { kind: 'Event', apiVersion: 'events.k8s.io/v1', metadata: core.metadata };
  out.eventTime = core.eventTime ?? null;
  if (core.series !== undefined && core.series !== null) out.series = core.series;
  for (const [to, from] of RENAMED) {
    const value = core[from];
    if (typeof value === 'string' && value === '') continue;
    if (from === 'count' && num(value) === 0) continue;
    if (value !== undefined) out[to] = value;
  }
  for (const key of ['reportingInstance', 'action', 'reason', 'type']) {
    if (str(core[key]) !== '') out[key] = core[key];
  }
  if (core.related !== undefined && core.related !== null) out.related = core.related;
  out.regarding ??= {};
  out.deprecatedSource ??= {};
  out.deprecatedFirstTimestamp ??= null;
  out.deprecatedLastTimestamp ??= null;
  return out;
}

/** The internal core.ObjectReference as a bad value prints (no json tags: Go's names, in order). */
function referenceValue(ref: unknown): unknown {
  if (ref === undefined || ref === null) return null;
  const r = rec(ref);
  return goStruct(
    ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'].map(
      (k) =>
        [
          k === 'uid' ? 'UID' : k === 'apiVersion' ? 'APIVersion' : k[0]!.toUpperCase() + k.slice(1),
          str(r[k]),
        ] as const,
    ),
  );
}

/** `validateV1EventSeries`. */
function validateSeries(core: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  if (core.series === undefined || core.series === null) return errors;
  const series = rec(core.series);
  if (num(series.count) < 2) errors.push(invalid('series.count', '', 'should be at least 2'));
  if (str(series.lastObservedTime) === '') errors.push(required('series.lastObservedTime'));
  return errors;
}

/** `ValidateEventCreate` for events.k8s.io/v1: the legacy rules, then the strict ones. */
function validateCreate(core: JsonObject): FieldError[] {
  const errors = validateLegacyEvent(core as KubeObject, 'reportingController');
  errors.push(...validateObjectMeta(core));
  errors.push(...validateSeries(core));
  if (str(core.eventTime) === '') errors.push(required('eventTime'));
  const type = str(core.type);
  if (type !== 'Normal' && type !== 'Warning') errors.push(invalid('type', '', `has invalid value: ${type}`));
  if (str(core.firstTimestamp) !== '') errors.push(invalid('firstTimestamp', '', 'needs to be unset'));
  if (str(core.lastTimestamp) !== '') errors.push(invalid('lastTimestamp', '', 'needs to be unset'));
  if (num(core.count) !== 0) errors.push(invalid('count', '', 'needs to be unset'));
  const source = rec(core.source);
  if (str(source.component) !== '' || str(source.host) !== '')
    errors.push(invalid('source', '', 'needs to be unset'));
  return errors;
}

/** The fields `ValidateEventUpdate` keeps immutable, in its order, with the value each error prints. */
const IMMUTABLE: ReadonlyArray<readonly [string, (v: unknown) => unknown]> = [
  ['involvedObject', referenceValue],
  ['reason', str],
  ['message', str],
  [
    'source',
    (v) =>
      goStruct([
        ['Component', str(rec(v).component)],
        ['Host', str(rec(v).host)],
      ]),
  ],
  ['firstTimestamp', (v) => v ?? null],
  ['lastTimestamp', (v) => v ?? null],
  ['count', (v) => num(v)],
  ['type', str],
  ['eventTime', (v) => v ?? null],
  ['action', str],
  ['related', referenceValue],
  ['reportingComponent', str],
  ['reportingInstance', str],
];

/** `ValidateEventUpdate` for events.k8s.io/v1: the legacy rules, the series if it changed, the immutable fields. */
function validateUpdate(core: JsonObject, old: JsonObject): FieldError[] {
  const errors = validateLegacyEvent(core as KubeObject, 'reportingController');
  if (!sameJson(core.series ?? null, old.series ?? null)) errors.push(...validateSeries(core));
  for (const [field, value] of IMMUTABLE) {
    const now = value(core[field]);
    if (sameJson(now, value(old[field]))) continue;
    errors.push(
      invalid(field === 'reportingComponent' ? 'reportingController' : field, now, 'field is immutable'),
    );
  }
  return errors;
}

/** The reference's columns (printers.go `printEvent`, on the internal type): core's cells on the converted event. */
const cells: ColumnCells = Object.fromEntries(
  eventColumns.map((c) => [c.name, (o: KubeObject, now: number) => c.cell(toCoreEvent(o), now)]),
);

/**
 * The events.k8s.io field selectors: pkg/apis/events/v1/conversion.go
 * `AddFieldLabelConversionsForEvent` maps each onto core's selectable field of the same value
 * (`regarding.kind` is `involvedObject.kind`); `source` and the other core names are refused.
 */
const fields = {
  reason: pathField('reason'),
  'regarding.kind': pathField('regarding.kind'),
  'regarding.namespace': pathField('regarding.namespace'),
  'regarding.name': pathField('regarding.name'),
  'regarding.uid': pathField('regarding.uid'),
  'regarding.apiVersion': pathField('regarding.apiVersion'),
  'regarding.resourceVersion': pathField('regarding.resourceVersion'),
  'regarding.fieldPath': pathField('regarding.fieldPath'),
  reportingController: pathField('reportingController'),
  type: pathField('type'),
};

/** The events.k8s.io/v1 Event's entry in the served kinds: core/v1 `events`' objects. */
export const eventsV1EventKind: ResourceKind = builtinKind('events.k8s.io', 'v1', 'events', {
  storage: { group: '', plural: 'events' },
  fields,
  cells,
  // The answer carries what a read would: the JSON form of the object the conversion stores.
  defaults: (obj) => replaceFields(obj as JsonObject, fromCoreEvent(toCoreEvent(obj as JsonObject))),
  validate: (obj, old) =>
    old
      ? validateUpdate(toCoreEvent(obj as JsonObject), toCoreEvent(old as JsonObject))
      : validateCreate(toCoreEvent(obj as JsonObject)),
  fromStorage: (obj) => replaceFields(obj as JsonObject, fromCoreEvent(obj as JsonObject)),
  toStorage: (obj) => replaceFields(obj as JsonObject, toCoreEvent(obj as JsonObject)),
  // pkg/registry/core/event/strategy.go: one strategy for both APIs.
  allowCreateOnUpdate: true,
});
