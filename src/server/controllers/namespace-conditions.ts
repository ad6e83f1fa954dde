/**
 * The status conditions the namespace controller keeps on a Terminating
 * namespace, so that `kubectl describe ns` says why it is still there. Types,
 * reasons, messages and True/False values are kube-controller-manager's
 * (pkg/controller/namespace/deletion/status_condition_utils.go,
 * `namespaceConditionUpdater`): each of the five types is True with a reason
 * naming the failure, or False with its "ok" reason and message.
 */
import { rfc3339 } from '../registry/meta.js';

/** One `status.conditions[]` entry of a Namespace (core/v1 `NamespaceCondition`). */
export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** What one pass over a namespace's content found (the deleter's `allGVRDeletionMetadata` and errors). */
export interface ContentReport {
  /** Objects left, per resource as the controller names it: `pods.`, `deployments.apps`. */
  remaining: Map<string, number>;
  /** Objects left, per finalizer they carry. */
  finalizers: Map<string, number>;
  /**
   * Whether the counts above are reported. Not when the pass stopped at pods
   * that remain (OrderedNamespaceDeletion): upstream then updates the
   * conditions without the content totals (namespaced_resources_deleter.go,
   * `deleteAllContent`; kubernetes issue #138208).
   */
  totalsReported: boolean;
  /** The messages of the deletes that failed, one per resource. */
  errors: string[];
}

/** The condition types the deleter owns, in the order it adds them (`conditionTypes`). */
const CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;

/** Reason and message of each type when nothing is wrong (`okReasons`, `okMessages`). */
const OK: Record<(typeof CONDITION_TYPES)[number], { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: {
    reason: 'ResourcesDiscovered',
    message: 'All resources successfully discovered',
  },
  NamespaceDeletionGroupVersionParsingFailure: {
    reason: 'ParsedGroupVersions',
    message: 'All legacy kube types successfully parsed',
  },
  NamespaceDeletionContentFailure: {
    reason: 'ContentDeleted',
    message: 'All content successfully deleted, may be waiting on finalization',
  },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: {
    reason: 'ContentHasNoFinalizers',
    message: 'All content-preserving finalizers finished',
  },
};

/**
 * The failing conditions of `report` (`ProcessContentTotals` and
 * `makeDeleteContentCondition`; lists sorted, as upstream sorts them for
 * stable updates). Discovery and group-version parsing cannot fail here: the
 * kinds are this server's own registry, not a discovery answer.
 */
function failures(report: ContentReport): Map<string, { reason: string; message: string }> {
  const out = new Map<string, { reason: string; message: string }>();
  if (report.errors.length > 0) {
    out.set('NamespaceDeletionContentFailure', {
      reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${report.errors.length} remaining: ${[...report.errors].sort().join(', ')}`,
    });
  }
  if (!report.totalsReported) return out;
  const remaining = [...report.remaining]
    .filter(([, n]) => n > 0)
    .map(([resource, n]) => `${resource} has ${n} resource instances`);
  if (remaining.length > 0) {
    out.set('NamespaceContentRemaining', {
      reason: 'SomeResourcesRemain',
      message: `Some resources are remaining: ${remaining.sort().join(', ')}`,
    });
  }
  const byFinalizer = [...report.finalizers]
    .filter(([, n]) => n > 0)
    .map(([finalizer, n]) => `${finalizer} in ${n} resource instances`);
  if (byFinalizer.length > 0) {
    out.set('NamespaceFinalizersRemaining', {
      reason: 'SomeFinalizersRemain',
      message: `Some content in the namespace has finalizers remaining: ${byFinalizer.sort().join(', ')}`,
    });
  }
  return out;
}

/**
 * `conditions` updated with `report` at `now` (`updateConditions`): each owned
 * type missing is appended; one whose status, reason or message changed is
 * rewritten in place, with a new lastTransitionTime only when its status
 * changed; other conditions are kept. `changed` says whether anything did.
 */
export function updatedConditions(
  conditions: readonly NamespaceCondition[] | undefined,
  report: ContentReport,
  now: number,
): { conditions: NamespaceCondition[]; changed: boolean } {
  const next = (conditions ?? []).map((c) => ({ ...c }));
  const failing = failures(report);
  let changed = false;
  for (const type of CONDITION_TYPES) {
    const failure = failing.get(type);
    const wanted = failure
      ? { status: 'True' as const, ...failure }
      : { status: 'False' as const, ...OK[type] };
    const old = next.find((c) => c.type === type);
    if (!old) {
      const { status, reason, message } = wanted;
      next.push({ type, status, lastTransitionTime: rfc3339(now), reason, message });
      changed = true;
    } else if (
      old.status !== wanted.status ||
      old.reason !== wanted.reason ||
      old.message !== wanted.message
    ) {
      if (old.status !== wanted.status) old.lastTransitionTime = rfc3339(now);
      Object.assign(old, wanted);
      changed = true;
    }
  }
  return { conditions: next, changed };
}
