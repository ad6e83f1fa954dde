/**
 * kube-controller-manager's cluster role aggregation controller
 * (pkg/controller/clusterroleaggregation/clusterroleaggregation_controller.go): a ClusterRole
 * with an `aggregationRule` holds the rules of every ClusterRole its selectors pick.
 *
 * The rules (`syncClusterRole`): selector by selector in the rule's order, the roles it picks
 * sorted by name (the aggregated role itself skipped), each role's rules in its order, a rule
 * already taken (semantically equal: a missing list is an empty one) not taken again. When the
 * result differs from the stored rules it is written by server-side apply as the field manager
 * `clusterrole-aggregation-controller`, forced, with nothing but the name and the rules (an empty
 * result sends no `rules` at all, as the apply configuration's omitempty list does).
 *
 * Any ClusterRole event queues every aggregated role (`enqueue`: the set is small and the
 * dependency graph unknown), so a role that gains a label feeds every role selecting it.
 */
import type { KubeClient } from '../client/client.js';
import type { Informer } from '../client/informer/informer.js';
import type { Clock } from '../protocol/clock.js';
import type { KubeObject } from '../protocol/events.js';
import { type LabelSelectorObject, labelSelectorFromObject } from '../protocol/label-object.js';
import { matchesLabels } from '../protocol/labels.js';
import { runQueueWorker } from '../protocol/queue-worker.js';
import { WorkQueue } from '../protocol/workqueue.js';

/** The field manager of its writes (`applyClusterRoles`). */
export const AGGREGATION_FIELD_MANAGER = 'clusterrole-aggregation-controller';

const CLUSTER_ROLES = 'clusterroles.rbac.authorization.k8s.io';

/** An rbac/v1 PolicyRule as stored. */
export interface PolicyRule {
  verbs?: string[] | null;
  apiGroups?: string[] | null;
  resources?: string[] | null;
  resourceNames?: string[] | null;
  nonResourceURLs?: string[] | null;
}

/** A ClusterRole, the fields this controller reads. */
export interface ClusterRole extends KubeObject {
  rules?: PolicyRule[] | null;
  aggregationRule?: { clusterRoleSelectors?: LabelSelectorObject[] | null } | null;
}

/** The rule's fields in the order client-go's apply configuration encodes them (rbac/v1 PolicyRule's). */
const RULE_FIELDS = ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const;

function ruleKey(rule: PolicyRule): string {
  return JSON.stringify(RULE_FIELDS.map((f) => (rule[f]?.length ? rule[f] : [])));
}

/** `equality.Semantic.DeepEqual` over rule lists: nil and empty lists are equal. */
export function sameRules(
  a: readonly PolicyRule[] | null | undefined,
  b: readonly PolicyRule[] | null | undefined,
): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((r, i) => ruleKey(r) === ruleKey(y[i]!));
}

/**
 * The rules `role` aggregates from `roles` (`syncClusterRole`); throws on a selector that is not
 * valid (the sync fails and is retried, as upstream's `LabelSelectorAsSelector` error).
 */
export function aggregatedRules(role: ClusterRole, roles: readonly ClusterRole[]): PolicyRule[] {
  const rules: PolicyRule[] = [];
  const taken = new Set<string>();
  for (const selectorObject of role.aggregationRule?.clusterRoleSelectors ?? []) {
    const selector = labelSelectorFromObject(selectorObject);
    const picked = roles
      .filter((r) => matchesLabels(selector, (r.metadata?.labels ?? {}) as Record<string, string>))
      .sort((a, b) => byName(a.metadata?.name ?? '', b.metadata?.name ?? ''));
    for (const other of picked) {
      if (other.metadata?.name === role.metadata?.name) continue;
      for (const rule of other.rules ?? []) {
        const key = ruleKey(rule);
        if (taken.has(key)) continue;
        taken.add(key);
        rules.push(rule);
      }
    }
  }
  return rules;
}

/** Go's string order (bytes), not the locale's. */
function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The rule as client-go's apply configuration sends it (`toApplyPolicyRule`): only the lists that are set. */
function applyRule(rule: PolicyRule): PolicyRule {
  const out: PolicyRule = {};
  for (const f of RULE_FIELDS) if (rule[f]) out[f] = rule[f];
  return out;
}

/** The controller: {@link ClusterRoleAggregationController.start}, {@link ClusterRoleAggregationController.stop}. */
export class ClusterRoleAggregationController {
  private readonly queue: WorkQueue;
  private readonly roles: Informer<ClusterRole>;
  private readonly workers: Promise<void>[] = [];
  private syncs = 0;
  private failures = 0;

  constructor(
    private readonly kube: KubeClient,
    clock: Clock,
    private readonly log: (line: string) => void,
  ) {
    this.queue = new WorkQueue(clock);
    this.roles = kube.informer<ClusterRole>(CLUSTER_ROLES);
    const all = () => this.enqueueAggregated();
    this.roles.on({ add: all, update: all, delete: all });
  }

  /** Starts the informer and `workers` workers (kube-controller-manager runs 5); resolves once it has listed. */
  async start(workers = 5): Promise<void> {
    this.roles.start();
    await this.roles.synced();
    for (let i = 0; i < workers; i++) this.workers.push(this.work());
  }

  stats(): { syncs: number; failures: number } {
    return { syncs: this.syncs, failures: this.failures };
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    await Promise.all([...this.workers, this.roles.stop()]);
  }

  private enqueueAggregated(): void {
    for (const role of this.roles.list()) {
      if (role.aggregationRule) this.queue.add(role.metadata?.name ?? '');
    }
  }

  private work(): Promise<void> {
    return runQueueWorker(this.queue, (key) => this.sync(key), {
      synced: () => {
        this.syncs++;
      },
      failed: (key, err) => {
        this.failures++;
        this.log(`${AGGREGATION_FIELD_MANAGER}: ${key} failed with : ${(err as Error).message}`);
      },
    });
  }

  private async sync(name: string): Promise<void> {
    const role = this.roles.get(name);
    if (!role?.aggregationRule) return;
    const rules = aggregatedRules(role, this.roles.list());
    if (sameRules(rules, role.rules)) return;
    await this.kube.resource<ClusterRole>(CLUSTER_ROLES).apply(
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name },
        ...(rules.length > 0 ? { rules: rules.map(applyRule) } : {}),
      },
      { fieldManager: AGGREGATION_FIELD_MANAGER, force: true },
    );
  }
}
