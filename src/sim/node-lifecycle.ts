/**
 * kube-controller-manager's node lifecycle controller, its NoSchedule tainting pass
 * (pkg/controller/nodelifecycle/node_lifecycle_controller.go `doNoScheduleTaintingPass`): a node
 * carries `node.kubernetes.io/not-ready:NoSchedule` while its Ready condition is False and
 * `node.kubernetes.io/unreachable:NoSchedule` while it is Unknown, and neither once it is True.
 * The TaintNodesByCondition admission plugin puts the not-ready taint on every new node; this
 * pass is what takes it off when the kubelet reports Ready, so the simulated nodes count as
 * ready and schedulable as a real cluster's do (the e2e framework's node checks read the taint).
 */
import type { Informer } from '../client/informer/informer.js';
import { isNotFound } from '../protocol/status.js';
import { Controller, type SimContext } from './core/controller.js';
import { findCondition, keyOf, type Node } from './core/objects.js';

const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';

interface Taint {
  key: string;
  effect: string;
  value?: string;
  timeAdded?: string;
}

/** The NoSchedule taint the Ready condition's status asks for (none when True). */
export function wantedNoScheduleTaint(node: Node): string | undefined {
  const ready = findCondition(node.status?.conditions, 'Ready')?.status;
  if (ready === 'True') return undefined;
  return ready === 'False' ? NOT_READY : UNREACHABLE;
}

/** The node's taints with the NoSchedule condition taints replaced by `wanted`; undefined when unchanged. */
export function retaint(node: Node, wanted: string | undefined): Taint[] | undefined {
  const taints = (node.spec?.taints ?? []) as Taint[];
  const isConditionTaint = (t: Taint) =>
    t.effect === 'NoSchedule' && (t.key === NOT_READY || t.key === UNREACHABLE);
  const current = taints.filter(isConditionTaint).map((t) => t.key);
  if (current.length === (wanted ? 1 : 0) && (!wanted || current[0] === wanted)) return undefined;
  const kept = taints.filter((t) => !isConditionTaint(t));
  return wanted ? [...kept, { key: wanted, effect: 'NoSchedule' }] : kept;
}

/** See the module comment. */
export class NodeLifecycleController extends Controller {
  private readonly removers: Array<() => void> = [];

  constructor(
    ctx: SimContext,
    private readonly nodes: Informer<Node>,
  ) {
    super('node-lifecycle-controller', ctx);
    this.removers.push(
      nodes.on({
        add: (node) => this.enqueue(keyOf(node)),
        update: (_, node) => this.enqueue(keyOf(node)),
      }),
    );
  }

  override async stop(): Promise<void> {
    for (const remove of this.removers.splice(0)) remove();
    await super.stop();
  }

  protected async sync(key: string): Promise<void> {
    const node = this.nodes.get(key);
    if (!node) return;
    const taints = retaint(node, wantedNoScheduleTaint(node));
    if (!taints) return;
    try {
      // Upstream swaps the taints with a strategic merge patch guarded by the resourceVersion
      // (controller_utils.go `SwapNodeControllerTaint`); a conflict retries from the informer.
      await this.ctx.kube.resource<Node>('nodes').patch(
        key,
        // An empty list is dropped, as the Go types' omitempty leaves it out.
        {
          metadata: { resourceVersion: node.metadata?.resourceVersion },
          spec: { taints: taints.length > 0 ? taints : null },
        },
        'merge',
        { signal: this.ctx.signal },
      );
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
