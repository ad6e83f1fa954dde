/**
 * The metav1.LabelSelector object form (`spec.selector` of a Deployment or
 * ReplicaSet) and its conversion to a selector, as apimachinery's
 * `LabelSelectorAsSelector`.
 */
import {
  byKey,
  everythingSelector,
  type LabelOperator,
  type LabelRequirement,
  type LabelSelector,
  newRequirement,
  nothingSelector,
  quoteForMessage,
  SelectorError,
} from './label-requirements.js';

/** The operators of a metav1.LabelSelectorRequirement. */
export type LabelSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

/** The metav1.LabelSelector object form (`spec.selector` of a Deployment or ReplicaSet). */
export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: LabelSelectorOperator; values?: string[] }[];
}

/** Options for {@link labelSelectorFromObject}. */
export interface LabelSelectorFromObjectOptions {
  /**
   * What an absent (undefined or null) selector selects. Default true: nothing, as
   * apimachinery's `LabelSelectorAsSelector` does, so a controller whose selector is
   * missing adopts no pods instead of every pod. Pass false to select everything.
   */
  nilSelectsNothing?: boolean;
}

const objectOperators: Record<LabelSelectorOperator, LabelOperator> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * Converts a metav1.LabelSelector (apimachinery's `LabelSelectorAsSelector`): an
 * empty object selects everything, an absent one nothing (see the option). The
 * object usually arrives as untrusted JSON, so its shape is checked too; any
 * problem throws {@link SelectorError}.
 */
export function labelSelectorFromObject(
  sel: LabelSelectorObject | undefined | null,
  options: LabelSelectorFromObjectOptions = {},
): LabelSelector {
  if (sel == null) return (options.nilSelectsNothing ?? true) ? nothingSelector : everythingSelector;
  if (typeof sel !== 'object') throw new SelectorError('label selector must be an object');
  const requirements: LabelRequirement[] = [];
  const matchLabels: unknown = sel.matchLabels ?? {};
  if (typeof matchLabels !== 'object' || matchLabels === null || Array.isArray(matchLabels)) {
    throw new SelectorError('matchLabels must be an object of string values');
  }
  for (const [key, value] of Object.entries(matchLabels)) {
    if (typeof value !== 'string') {
      throw new SelectorError(`matchLabels[${quoteForMessage(key)}] must be a string, got ${typeof value}`);
    }
    requirements.push(newRequirement(key, '=', [value]));
  }
  const matchExpressions: unknown = sel.matchExpressions ?? [];
  if (!Array.isArray(matchExpressions)) throw new SelectorError('matchExpressions must be an array');
  for (const expr of matchExpressions as unknown[]) {
    const { key, operator, values } = (expr ?? {}) as { key?: unknown; operator?: unknown; values?: unknown };
    if (typeof key !== 'string') throw new SelectorError('matchExpressions[].key must be a string');
    const op =
      typeof operator === 'string' && Object.hasOwn(objectOperators, operator) ? operator : undefined;
    if (op === undefined) {
      throw new SelectorError(`${quoteForMessage(String(operator))} is not a valid label selector operator`);
    }
    const list = values ?? [];
    if (!Array.isArray(list) || !list.every((v) => typeof v === 'string')) {
      throw new SelectorError(`matchExpressions[].values for key ${quoteForMessage(key)} must be strings`);
    }
    requirements.push(newRequirement(key, objectOperators[op as LabelSelectorOperator], list as string[]));
  }
  return requirements.length === 0 ? everythingSelector : { requirements: byKey(requirements) };
}
