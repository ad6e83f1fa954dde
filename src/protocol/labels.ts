/**
 * Kubernetes label selectors (k8s.io/apimachinery/pkg/labels): the text form the
 * `labelSelector` query parameter carries, the metav1.LabelSelector object form
 * Deployments and ReplicaSets use, and matching against an object's labels.
 * The lexer and parser follow apimachinery's so a selector means here exactly what
 * it means to kube-apiserver; the one deliberate difference (`in ()`) is noted
 * where it is applied.
 *
 * The parts live by job: label-requirements.ts (types, errors, validation),
 * label-text.ts (the text form), label-object.ts (metav1.LabelSelector). This
 * file matches a selector against labels and re-exports the rest, so it stays
 * the one module path importers use.
 */
import { type LabelRequirement, type LabelSelector, parseInt64 } from './label-requirements.js';

export {
  type LabelSelectorFromObjectOptions,
  type LabelSelectorObject,
  type LabelSelectorOperator,
  labelSelectorFromObject,
} from './label-object.js';
export {
  everythingSelector,
  type LabelOperator,
  type LabelRequirement,
  type LabelSelector,
  nothingSelector,
  quoteForMessage,
  SelectorError,
} from './label-requirements.js';
export { formatLabelSelector, parseLabelSelector } from './label-text.js';

/** True when `sel` matches every object, so a list or watch needs no filtering. */
export function isEverything(sel: LabelSelector): boolean {
  return sel.requirements.length === 0 && sel.nothing !== true;
}

/** An object's `metadata.labels`. */
type LabelSet = Readonly<Record<string, string>>;

/** The label's value, reading only own string properties so `constructor` or `__proto__` keys stay labels. */
function labelValue(labels: LabelSet | undefined | null, key: string): string | undefined {
  if (labels == null || !Object.hasOwn(labels, key)) return undefined;
  const value = labels[key];
  return typeof value === 'string' ? value : undefined;
}

/** Whether one requirement holds for `labels` (apimachinery's `Requirement.Matches`). */
export function matchesRequirement(r: LabelRequirement, labels: LabelSet | undefined): boolean {
  const value = labelValue(labels, r.key);
  switch (r.operator) {
    case '=':
    case '==':
    case 'in':
      return value !== undefined && r.values.includes(value);
    case '!=':
    case 'notin':
      // An absent label is "not equal": `tier!=db` selects objects with no tier.
      return value === undefined || !r.values.includes(value);
    case 'exists':
      return value !== undefined;
    case '!':
      return value === undefined;
    case 'gt':
    case 'lt': {
      // A label that is not an integer never matches, as in apimachinery.
      const have = value === undefined ? undefined : parseInt64(value);
      const want = parseInt64(r.values[0]);
      if (have === undefined || want === undefined) return false;
      return r.operator === 'gt' ? have > want : have < want;
    }
  }
}

/** Whether an object with these labels is selected; missing labels count as none. */
export function matchesLabels(sel: LabelSelector, labels: LabelSet | undefined): boolean {
  if (sel.nothing) return false;
  return sel.requirements.every((r) => matchesRequirement(r, labels));
}
