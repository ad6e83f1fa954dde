/**
 * The core/v1 Event: the zero values its JSON always carries (core/v1 defines no
 * SetDefaults_Event: `type` and `count` stay as the reporter sent them), validation
 * (pkg/apis/core/validation/events.go), Table columns (printers.go `printEvent`) and selectable
 * fields (pkg/registry/core/event/strategy.go).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { child, type JsonObject, num, rec, setIfAbsent, str } from '../access.js';
import { translateTimestampSince } from '../age.js';
import { col, nameColumnDoc, typeDocs, wide } from '../columns.js';
import { type FieldGetter, pathField } from '../selectable-fields.js';
import type { FieldError, ResourceKind, TableColumn } from '../types.js';
import { invalid, required, validateObjectMeta } from '../validation.js';
import { isPathSegmentName, isQualifiedName } from '../validation-names.js';

/**
 * A core/v1 Event as kube-apiserver writes it back: core/v1 defines no SetDefaults_Event, but the
 * Go struct's fields without `omitempty` (types.go `Event`) are always serialized, the times at
 * their zero value `null` (metav1.Time and MicroTime encode a zero time so, omitempty or not),
 * the reporting controller and instance as "", the involved object and the source as objects.
 */
export function defaultEvent(obj: KubeObject): void {
  const event = obj as JsonObject;
  child(event, 'involvedObject');
  child(event, 'source');
  for (const time of ['firstTimestamp', 'lastTimestamp', 'eventTime']) {
    if (event[time] === undefined) event[time] = null;
  }
  for (const field of ['reportingComponent', 'reportingInstance']) setIfAbsent(event, field, '');
}

const LIMITS = { reportingInstance: 128, action: 128, reason: 128, message: 1024 } as const;

/**
 * `ValidateEventCreate` for core/v1, i.e. `legacyValidateEvent`: an event
 * lives in its object's namespace (cluster-scoped objects' events in
 * "default"); a new-style event (eventTime set) also needs its reporter,
 * action and reason. Its name is not a DNS subdomain (that check is for
 * events.k8s.io/v1 only): only when these pass does the generic layer check
 * the metadata, with the path-segment rule for the name (apiserver
 * pkg/registry/rest/create.go `ValidateCreate`).
 */
export function validateEvent(obj: KubeObject): FieldError[] {
  const errors = validateLegacyEvent(obj, 'reportingComponent');
  return errors.length > 0 ? errors : validateObjectMeta(obj, isPathSegmentName);
}

/**
 * pkg/apis/core/validation/events.go `legacyValidateEvent`, on a core/v1 Event (events.k8s.io's
 * converted first). Its paths are the internal type's (`message`, `involvedObject`) but the
 * reporter's, which is named as the request's version names it (`controllerField`).
 */
export function validateLegacyEvent(
  obj: KubeObject,
  controllerField: 'reportingComponent' | 'reportingController',
): FieldError[] {
  const errors: FieldError[] = [];
  const namespace = str(obj.metadata?.namespace);
  const involved = rec(obj.involvedObject);
  const involvedNs = str(involved.namespace);
  const mismatch = () => invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace');
  if (str(obj.eventTime) === '') {
    if (involvedNs === '' ? namespace !== '' && namespace !== 'default' : namespace !== involvedNs) {
      errors.push(mismatch());
    }
    return errors;
  }
  if (involvedNs === '' && namespace !== 'default' && namespace !== 'kube-system') errors.push(mismatch());
  const controller = str(obj.reportingComponent);
  if (controller === '') errors.push(required(controllerField));
  for (const msg of isQualifiedName(controller)) errors.push(invalid(controllerField, controller, msg));
  // Each field's presence, then its length, in the order events.go checks them.
  for (const [key, limit] of Object.entries(LIMITS)) {
    if (key !== 'message' && str(obj[key]) === '') errors.push(required(key));
    if (str(obj[key]).length > limit) errors.push(invalid(key, '', `can have at most ${limit} characters`));
  }
  return errors;
}

/** Column docs of core/v1 types (printers.go `apiv1.T{}`). */
const core = typeDocs('io.k8s.api.core.v1');

/** An event's first and last sighting and count, as printEvent derives them (series and eventTime included). */
function eventTimes(o: KubeObject, now: number): { first: string; last: string; count: number } {
  const first = str(o.firstTimestamp)
    ? translateTimestampSince(o.firstTimestamp, now)
    : translateTimestampSince(o.eventTime, now);
  let last = str(o.lastTimestamp) ? translateTimestampSince(o.lastTimestamp, now) : first;
  let count = num(o.count);
  const series = o.series;
  if (series !== undefined && series !== null) {
    last = translateTimestampSince(rec(series).lastObservedTime, now);
    count = num(rec(series).count);
  } else if (count === 0) {
    // Singleton events of the events.k8s.io API carry no count.
    count = 1;
  }
  return { first, last, count };
}

/** `formatEventSource`: component (or reportingComponent), then `, host` (or reportingInstance) when known. */
function eventSource(o: KubeObject): string {
  const source = rec(o.source);
  const component = str(source.component) || str(o.reportingComponent);
  const host = str(source.host) || str(o.reportingInstance);
  return host === '' ? component : `${component}, ${host}`;
}

/**
 * Events: `LAST SEEN TYPE REASON OBJECT MESSAGE`, wide `SUBOBJECT SOURCE
 * FIRST SEEN COUNT NAME` (the Name column is last and wide-only here).
 */
export const eventColumns: TableColumn[] = [
  col('Last Seen', 'string', (o, now) => eventTimes(o, now).last, core('Event', 'lastTimestamp')),
  col('Type', 'string', (o) => str(o.type), core('Event', 'type')),
  col('Reason', 'string', (o) => str(o.reason), core('Event', 'reason')),
  col(
    'Object',
    'string',
    (o) => {
      const involved = rec(o.involvedObject);
      const kind = str(involved.kind).toLowerCase();
      return str(involved.name) ? `${kind}/${str(involved.name)}` : kind;
    },
    core('Event', 'involvedObject'),
  ),
  wide('Subobject', (o) => str(rec(o.involvedObject).fieldPath), core('ObjectReference', 'fieldPath')),
  wide('Source', eventSource, core('Event', 'source')),
  col('Message', 'string', (o) => str(o.message).trim(), core('Event', 'message')),
  wide('First Seen', (o, now) => eventTimes(o, now).first, core('Event', 'firstTimestamp')),
  wide('Count', (o, now) => eventTimes(o, now).count, core('Event', 'count')),
  col('Name', 'string', (o) => str(o.metadata?.name), {
    priority: 1,
    format: 'name',
    fieldDoc: nameColumnDoc,
  }),
];

/** kube's event `ToSelectableFields` (pkg/registry/core/event/strategy.go); `source` falls back to the reporting controller. */
export const eventFields: Record<string, FieldGetter> = {
  'involvedObject.kind': pathField('involvedObject.kind'),
  'involvedObject.namespace': pathField('involvedObject.namespace'),
  'involvedObject.name': pathField('involvedObject.name'),
  'involvedObject.uid': pathField('involvedObject.uid'),
  'involvedObject.apiVersion': pathField('involvedObject.apiVersion'),
  'involvedObject.resourceVersion': pathField('involvedObject.resourceVersion'),
  'involvedObject.fieldPath': pathField('involvedObject.fieldPath'),
  reason: pathField('reason'),
  reportingComponent: pathField('reportingComponent'),
  source: (o) => str(rec(o.source).component) || str(o.reportingComponent),
  type: pathField('type'),
};

/** The Event's entry in the served kinds. */
export const eventKind: ResourceKind = {
  group: '',
  version: 'v1',
  kind: 'Event',
  plural: 'events',
  singular: 'event',
  namespaced: true,
  shortNames: ['ev'],
  categories: [],
  fields: eventFields,
  subresources: [],
  generationFields: [],
  defaults: defaultEvent,
  validate: validateEvent,
  columns: eventColumns,
  columnsIncludeName: true,
  // pkg/registry/core/event/strategy.go `AllowCreateOnUpdate`.
  allowCreateOnUpdate: true,
};
