import type { KubeObject } from '../../protocol/events.js';
import { exactValue, fieldsOf, matchesFields, parseFieldSelector } from '../../protocol/fields.js';
import { isEverything, matchesLabels, parseLabelSelector, SelectorError } from '../../protocol/labels.js';
import { StatusError } from '../../protocol/status.js';
import type { WatchFilter } from '../cache/watcher.js';
import type { ResourceKind } from '../kinds/types.js';

const GENERIC_FIELDS = ['metadata.name', 'metadata.namespace'];

/**
 * The message of the 400 for a field selector on a field `kind` cannot select
 * by, as its group's field label conversion words it: the core/v1 kinds that
 * register one (pkg/apis/core/v1/conversion.go) say `field label not
 * supported`, Jobs name their kind (pkg/apis/batch/v1/conversion.go), and the
 * rest fall back to runtime.DefaultMetaV1FieldSelectorConversion.
 */
function unsupportedFieldMessage(kind: ResourceKind, field: string): string {
  // A custom kind's conversion function (apiextensions-apiserver customresource_handler.go,
  // registered beside its selectable fields) says the same as core's.
  if (kind.custom) return `field label not supported: ${field}`;
  if (kind.group === '' && CORE_CONVERTED.has(kind.kind)) return `field label not supported: ${field}`;
  if (kind.group === 'events.k8s.io') return `field label not supported: ${field}`;
  if (kind.group === 'batch' && kind.kind === 'Job') return `field label "${field}" not supported for Job`;
  // pkg/apis/certificates/v1/conversion.go: each of the group's kinds registers one.
  if (kind.group === 'certificates.k8s.io') return `field label not supported: ${field}`;
  // pkg/apis/resource/v1/conversion.go: ResourceSlices name their GroupVersionKind.
  if (kind.group === 'resource.k8s.io' && kind.kind === 'ResourceSlice') {
    return `field label not supported for resource.k8s.io/v1, Kind=ResourceSlice: ${field}`;
  }
  return `${JSON.stringify(field)} is not a known field selector: only "metadata.name", "metadata.namespace"`;
}

/** core/v1 kinds with a field label conversion function of their own. */
const CORE_CONVERTED = new Set([
  'Pod',
  'Node',
  'ReplicationController',
  'Event',
  'Namespace',
  'Secret',
  'Service',
]);

/** Reads a selectable field of `obj` for `kind`. */
export function fieldValue(kind: ResourceKind, obj: KubeObject, field: string): string | undefined {
  if (field === 'metadata.name') return obj.metadata?.name;
  if (field === 'metadata.namespace') return obj.metadata?.namespace;
  return kind.fields[field]?.(obj);
}

/**
 * Builds the filter of a list or watch from its namespace and selectors.
 * Bad selectors and fields the kind does not support are a 400, as from
 * kube-apiserver.
 */
export function buildFilter(
  kind: ResourceKind,
  namespace: string | undefined,
  labelSelector: string | undefined,
  fieldSelector: string | undefined,
): WatchFilter {
  let labels: ReturnType<typeof parseLabelSelector>;
  let fields: ReturnType<typeof parseFieldSelector>;
  try {
    labels = parseLabelSelector(labelSelector ?? '');
  } catch (err) {
    if (err instanceof SelectorError) throw StatusError.of('BadRequest', err.message);
    throw err;
  }
  try {
    fields = parseFieldSelector(fieldSelector ?? '');
  } catch (err) {
    if (err instanceof SelectorError) throw StatusError.of('BadRequest', err.message);
    throw err;
  }
  for (const field of fieldsOf(fields)) {
    if (!GENERIC_FIELDS.includes(field) && !kind.fields[field]) {
      throw StatusError.of('BadRequest', unsupportedFieldMessage(kind, field));
    }
  }
  const ns = kind.namespaced && namespace ? namespace : undefined;
  const hasFields = fields.requirements.length > 0;
  const hasLabels = !isEverything(labels);
  const nodeName = kind.fields['spec.nodeName'] ? exactValue(fields, 'spec.nodeName') : undefined;
  const name = exactValue(fields, 'metadata.name');
  let index: WatchFilter['index'];
  if (nodeName !== undefined) index = { field: 'spec.nodeName', value: nodeName };
  else if (name !== undefined) index = { field: 'metadata.name', value: name };
  else if (ns !== undefined) index = { field: 'metadata.namespace', value: ns };
  return {
    namespace: ns,
    index,
    exact: { namespace: exactValue(fields, 'metadata.namespace'), name },
    everything: !hasFields && !hasLabels,
    matches(obj: KubeObject): boolean {
      if (ns !== undefined && obj.metadata?.namespace !== ns) return false;
      if (hasLabels && !matchesLabels(labels, obj.metadata?.labels)) return false;
      if (hasFields && !matchesFields(fields, (f) => fieldValue(kind, obj, f))) return false;
      return true;
    },
  };
}

/**
 * The filter of a list, watch or deletecollection request from its query
 * (`labelSelector`, `fieldSelector`); a watch by name passes its own
 * `fieldSelector` with the name added.
 */
export function filterFromQuery(
  kind: ResourceKind,
  namespace: string | undefined,
  query: URLSearchParams,
  fieldSelector: string | undefined = query.get('fieldSelector') ?? undefined,
): WatchFilter {
  return buildFilter(kind, namespace, query.get('labelSelector') ?? undefined, fieldSelector);
}
