/**
 * A DaemonSet's template generation. The internal type has `spec.templateGeneration`; apps/v1
 * has none and carries it in the `deprecated.daemonset.template.generation` annotation instead
 * (pkg/apis/apps/v1/conversion.go: decoding moves the annotation into the field, encoding writes
 * the field back as the annotation, so the annotation is on every DaemonSet read). The strategy
 * sets it: 1 on create unless the client sent more, the old value on update, one more when
 * the pod template changed (pkg/registry/apps/daemonset/strategy.go `PrepareForCreate`,
 * `PrepareForUpdate`; the status strategy keeps the old spec, so the old value).
 *
 * The field manager sees the object as decoded, before the strategy (create.go, update.go):
 * a write that sent no annotation shows it as "0", a change the writer then owns, as upstream.
 */
import type { KubeObject } from '../../../protocol/events.js';
import { child, getPath, isObject, sameJson } from '../access.js';

/** `appsv1.DeprecatedTemplateGeneration`. */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

/** The value an annotation decodes to: its integer, 0 when absent or not one (strconv.ParseInt). */
function parsed(obj: KubeObject): number {
  const text = obj.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  if (typeof text !== 'string' || !/^[+-]?\d+$/.test(text)) return 0;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : 0;
}

function setGeneration(obj: KubeObject, value: number): void {
  const meta = child(obj as Record<string, unknown>, 'metadata');
  if (!meta) return;
  const annotations = child(meta, 'annotations');
  if (annotations) annotations[TEMPLATE_GENERATION_ANNOTATION] = String(value);
}

/** The decode/encode round trip: the annotation as the decoded object encodes it again (part of defaulting). */
export function roundTripTemplateGeneration(obj: KubeObject): void {
  if (!isObject(obj.metadata)) return;
  setGeneration(obj, parsed(obj));
}

/** PrepareForCreate: at least 1. */
export function prepareDaemonSetCreate(obj: KubeObject): void {
  setGeneration(obj, Math.max(parsed(obj), 1));
}

/**
 * PrepareForUpdate (after the field manager): the stored value, one more when a main update
 * changed the pod template.
 */
export function settleDaemonSetUpdate(obj: KubeObject, old: KubeObject, scope: string): void {
  const before = parsed(old);
  const changed = scope === 'main' && !sameJson(getPath(obj, 'spec.template'), getPath(old, 'spec.template'));
  setGeneration(obj, changed ? before + 1 : before);
}

/**
 * `object`'s metadata as the internal type holds it, where a metadata-only answer is made
 * (PartialObjectMetadata, a Table row's object): kube-apiserver takes the ObjectMeta of the
 * internal object, out of which the apps/v1 decoding took a DaemonSet's annotation. A map left
 * empty is dropped (`annotations,omitempty`).
 */
export function internalMetadata(object: KubeObject): Record<string, unknown> {
  const meta = (object.metadata ?? {}) as Record<string, unknown>;
  const annotations = meta.annotations;
  if (object.kind !== 'DaemonSet' || object.apiVersion !== 'apps/v1' || !isObject(annotations)) return meta;
  if (!(TEMPLATE_GENERATION_ANNOTATION in annotations)) return meta;
  const { [TEMPLATE_GENERATION_ANNOTATION]: _, ...rest } = annotations;
  const out: Record<string, unknown> = { ...meta, annotations: rest };
  if (Object.keys(rest).length === 0) delete out.annotations;
  return out;
}
