/**
 * The access reviews' validation (pkg/apis/authorization/validation/validation.go): one of
 * resource or non-resource attributes, a subject for the reviews that name one, empty metadata,
 * and the selectors' forms. Values are written as kube writes them: a missing attributes struct as
 * `null`, a present one as the internal struct's JSON (`{"Path":"","Verb":""}`: the internal type
 * has no JSON tags), the metadata as ObjectMeta's JSON.
 */
import type { KubeObject } from '../../../protocol/events.js';
import { StatusError } from '../../../protocol/status.js';
import { GoRendered } from '../field-value.js';
import type { FieldError } from '../types.js';
import { formatInvalidMessage, invalid, invalidCauses, required } from '../validation.js';

/** authorization/v1 `ResourceAttributes` as sent. */
export interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  fieldSelector?: { rawSelector?: string; requirements?: unknown[] } | null;
  labelSelector?: { rawSelector?: string; requirements?: unknown[] } | null;
}

/** authorization/v1 `NonResourceAttributes` as sent. */
export interface NonResourceAttributes {
  path?: string;
  verb?: string;
}

/** A review's spec as sent (the subject fields only in the reviews that name one). */
export interface ReviewSpec {
  resourceAttributes?: ResourceAttributes | null;
  nonResourceAttributes?: NonResourceAttributes | null;
  user?: string;
  groups?: string[];
  uid?: string;
  extra?: Record<string, string[]>;
}

const EXACTLY_ONE = 'exactly one of nonResourceAttributes or resourceAttributes must be specified';

/** ObjectMeta's fields in its Go declaration order (how encoding/json writes them). */
const OBJECT_META_ORDER = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];

/** The internal NonResourceAttributes as `%v`-less JSON: `{"Path":"","Verb":""}`, or null. */
function nonResourceValue(attrs: NonResourceAttributes | null | undefined): GoRendered {
  if (!attrs) return new GoRendered('null');
  return new GoRendered(JSON.stringify({ Path: attrs.path ?? '', Verb: attrs.verb ?? '' }));
}

/** ObjectMeta as encoding/json writes it: declaration order, empty fields omitted, maps sorted. */
function objectMetaValue(meta: Record<string, unknown>): GoRendered {
  const out: Record<string, unknown> = {};
  for (const key of OBJECT_META_ORDER) {
    const v = meta[key];
    if (v === undefined || v === null || v === '' || v === 0) continue;
    if (typeof v === 'object' && !Array.isArray(v)) {
      const keys = Object.keys(v as object).sort();
      if (keys.length === 0) continue;
      out[key] = Object.fromEntries(keys.map((k) => [k, (v as Record<string, unknown>)[k]]));
    } else if (Array.isArray(v) && v.length === 0) continue;
    else out[key] = v;
  }
  return new GoRendered(JSON.stringify(out));
}

/**
 * Whether ObjectMeta (managedFields aside, and `namespace` when `exceptNamespace`) is empty. The
 * field manager ran before validation, so the value a 422 shows holds its record.
 */
function metaIsEmpty(meta: Record<string, unknown>, exceptNamespace: boolean): boolean {
  const rest = { ...meta, managedFields: undefined, ...(exceptNamespace ? { namespace: undefined } : {}) };
  return objectMetaValue(rest).text === '{}';
}

/** `validateFieldSelectorAttributes` and `validateLabelSelectorAttributes`: raw or requirements, not both, not neither. */
function selectorErrors(
  selector: { rawSelector?: string; requirements?: unknown[] } | null | undefined,
  path: string,
): FieldError[] {
  if (!selector) return [];
  const errors: FieldError[] = [];
  const raw = selector.rawSelector ?? '';
  const requirements = selector.requirements ?? [];
  if (raw.length > 0 && requirements.length > 0) {
    errors.push(invalid(`${path}.rawSelector`, raw, 'may not specified at the same time as requirements'));
  }
  if (raw.length === 0 && requirements.length === 0) {
    errors.push(
      required(`${path}.requirements`, `when ${path} is specified, requirements or rawSelector is required`),
    );
  }
  return errors;
}

function attributesErrors(spec: ReviewSpec): FieldError[] {
  const errors: FieldError[] = [];
  const hasResource = spec.resourceAttributes != null;
  const hasNonResource = spec.nonResourceAttributes != null;
  if (hasResource === hasNonResource) {
    errors.push(invalid('spec', nonResourceValue(spec.nonResourceAttributes), EXACTLY_ONE));
  }
  return errors;
}

function resourceAttributesErrors(spec: ReviewSpec): FieldError[] {
  const attrs = spec.resourceAttributes;
  if (!attrs) return [];
  return [
    ...selectorErrors(attrs.fieldSelector, 'spec.resourceAttributes.fieldSelector'),
    ...selectorErrors(attrs.labelSelector, 'spec.resourceAttributes.labelSelector'),
  ];
}

/** `ValidateSubjectAccessReviewSpec`. */
function subjectSpecErrors(spec: ReviewSpec): FieldError[] {
  const errors = attributesErrors(spec);
  if (!spec.user && (spec.groups ?? []).length === 0) {
    errors.push(invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
  }
  return [...errors, ...resourceAttributesErrors(spec)];
}

const metaOf = (review: KubeObject) => (review.metadata ?? {}) as Record<string, unknown>;
const specOf = (review: KubeObject) => (review.spec ?? {}) as ReviewSpec;

/** `ValidateSubjectAccessReview`. */
export function validateSubjectAccessReview(review: KubeObject): FieldError[] {
  const errors = subjectSpecErrors(specOf(review));
  if (!metaIsEmpty(metaOf(review), false))
    errors.push(invalid('metadata', objectMetaValue(metaOf(review)), 'must be empty'));
  return errors;
}

/** `ValidateSelfSubjectAccessReview`. */
export function validateSelfSubjectAccessReview(review: KubeObject): FieldError[] {
  const spec = specOf(review);
  const errors = [...attributesErrors(spec), ...resourceAttributesErrors(spec)];
  if (!metaIsEmpty(metaOf(review), false))
    errors.push(invalid('metadata', objectMetaValue(metaOf(review)), 'must be empty'));
  return errors;
}

/** `ValidateLocalSubjectAccessReview`: the namespace is the path's and the attributes'. */
export function validateLocalSubjectAccessReview(review: KubeObject): FieldError[] {
  const spec = specOf(review);
  const meta = metaOf(review);
  const errors = subjectSpecErrors(spec);
  if (!metaIsEmpty(meta, true)) {
    errors.push(invalid('metadata', objectMetaValue(meta), 'must be empty except for namespace'));
  }
  const namespace = (meta.namespace as string | undefined) ?? '';
  if (spec.resourceAttributes && (spec.resourceAttributes.namespace ?? '') !== namespace) {
    errors.push(
      invalid(
        'spec.resourceAttributes.namespace',
        spec.resourceAttributes.namespace ?? '',
        'must match metadata.namespace',
      ),
    );
  }
  if (spec.nonResourceAttributes) {
    errors.push(
      invalid(
        'spec.nonResourceAttributes',
        nonResourceValue(spec.nonResourceAttributes),
        'disallowed on this kind of request',
      ),
    );
  }
  return errors;
}

/**
 * The reviews' 422: `errors.NewInvalid` with the internal object's empty kind, so the message
 * starts `.authorization.k8s.io "" is invalid` and the details name no kind.
 */
export function reviewInvalid(errors: FieldError[]): StatusError {
  return StatusError.of(
    'Invalid',
    formatInvalidMessage({ kind: '', group: 'authorization.k8s.io' }, '', errors),
    {
      group: 'authorization.k8s.io',
      causes: invalidCauses(errors),
    },
  );
}
