/**
 * The deployment controller (kube's pkg/controller/deployment), as a client
 * of the API server: informers on Deployments, ReplicaSets and Pods feed a
 * work queue of Deployment keys; each sync claims the Deployment's
 * ReplicaSets, finds or creates the new one (named `<deployment>-<hash>`),
 * then scales, rolls or recreates ({@link rollout.ts}) and writes status.
 */
import type { Informer } from '../../client/informer/informer.js';
import type { ResourceClient } from '../../client/rest.js';
import type { OwnerReference } from '../../protocol/events.js';
import { isAlreadyExists } from '../../protocol/status.js';
import { claimObjects, recheckOwner } from '../core/claim.js';
import { Controller, type SimContext } from '../core/controller.js';
import { podTemplateHash } from '../core/hash.js';
import {
  annotationsOf,
  controllerOf,
  controllerRef,
  DEPLOYMENT_KIND,
  type Deployment,
  findCondition,
  keyOf,
  type Pod,
  type ReplicaSet,
  selectorMatches,
  typed,
} from '../core/objects.js';
import type { EventRecorder } from '../events/recorder.js';
import { dispatch, type RolloutOps } from './rollout.js';
import { hasProgressDeadline, newCondition, Reasons, setCondition, statusOf } from './status.js';
import {
  equalIgnoreHash,
  findNewReplicaSet,
  maxRevision,
  maxSurge,
  newRSNewReplicas,
  POD_TEMPLATE_HASH_LABEL,
  REVISION_ANNOTATION,
  replicas,
  replicasAnnotationsNeedUpdate,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
} from './util.js';

/** The informers the deployment controller reads. */
export interface DeploymentInformers {
  deployments: Informer<Deployment>;
  replicaSets: Informer<ReplicaSet>;
  pods: Informer<Pod>;
}

/** See the module comment. */
export class DeploymentController extends Controller implements RolloutOps {
  private readonly informers: DeploymentInformers;
  private readonly recorder: EventRecorder;
  private readonly removers: Array<() => void> = [];

  constructor(ctx: SimContext, informers: DeploymentInformers, recorder: EventRecorder) {
    super('deployment-controller', ctx);
    this.informers = informers;
    this.recorder = recorder;
    const enqueue = (d: Deployment) => this.enqueue(keyOf(d));
    this.removers.push(
      informers.deployments.on({ add: enqueue, update: (_, d) => enqueue(d), delete: enqueue }),
      informers.replicaSets.on({
        add: (rs) => this.replicaSetChanged(rs),
        update: (old, rs) => {
          const before = controllerOf(old);
          if (before && before.uid !== controllerOf(rs)?.uid) this.enqueueOwner(old, before);
          this.replicaSetChanged(rs);
        },
        delete: (rs) => this.replicaSetChanged(rs),
      }),
      informers.pods.on({ delete: (pod) => this.podDeleted(pod) }),
    );
  }

  override async stop(): Promise<void> {
    for (const remove of this.removers.splice(0)) remove();
    await super.stop();
  }

  // --- event handlers: map every change to the Deployment it concerns ---

  private replicaSetChanged(rs: ReplicaSet): void {
    const ref = controllerOf(rs);
    if (ref) {
      this.enqueueOwner(rs, ref);
      return;
    }
    // An orphan: every Deployment whose selector matches it may adopt it.
    for (const d of this.informers.deployments.byIndex('namespace', rs.metadata?.namespace ?? '')) {
      if (selectorMatches(d.spec.selector, rs.metadata?.labels)) this.enqueue(keyOf(d));
    }
  }

  private enqueueOwner(rs: ReplicaSet, ref: OwnerReference): void {
    const d = this.resolve(rs.metadata?.namespace ?? '', ref);
    if (d) this.enqueue(keyOf(d));
  }

  private resolve(namespace: string, ref: OwnerReference): Deployment | undefined {
    if (ref.kind !== 'Deployment') return undefined;
    const d = this.informers.deployments.get(`${namespace}/${ref.name}`);
    return d?.metadata?.uid === ref.uid ? d : undefined;
  }

  /** A Recreate rollout waits for the old pods to be gone: their deletions wake it. */
  private podDeleted(pod: Pod): void {
    const ns = pod.metadata?.namespace ?? '';
    const rsRef = controllerOf(pod);
    if (rsRef?.kind !== 'ReplicaSet') return;
    const rs = this.informers.replicaSets.get(`${ns}/${rsRef.name}`);
    const dRef = rs && controllerOf(rs);
    const d = dRef && this.resolve(ns, dRef);
    if (d?.spec.strategy?.type === 'Recreate') this.enqueue(keyOf(d));
  }

  // --- sync ---

  protected async sync(key: string): Promise<void> {
    const cached = this.informers.deployments.get(key);
    if (!cached) return;
    const d = structuredClone(cached);
    const rsList = (await this.replicaSetsFor(d)).map((rs) => structuredClone(rs));
    await dispatch(this, d, rsList);
  }

  /** The Deployment's ReplicaSets: its own and the orphans it adopts (getReplicaSetsForDeployment). */
  private async replicaSetsFor(d: Deployment): Promise<ReplicaSet[]> {
    const rs = this.informers.replicaSets;
    const candidates = [
      ...rs.byIndex('controller', `uid:${d.metadata?.uid}`),
      ...rs.byIndex('controller', `orphan:${d.metadata?.namespace}`),
    ];
    const client = this.rsClient(d);
    const deployments = this.ctx.kube.resource<Deployment>('deployments', d.metadata?.namespace);
    return claimObjects(
      { owner: d, ownerKind: DEPLOYMENT_KIND, selector: d.spec.selector, client, signal: this.ctx.signal },
      candidates,
      recheckOwner(deployments, d, this.ctx.signal),
    );
  }

  // --- RolloutOps: what the rollout strategies need ---

  now(): number {
    return this.ctx.clock.now();
  }

  podsOf(rs: ReplicaSet): Pod[] {
    return this.informers.pods
      .byIndex('controller', `uid:${rs.metadata?.uid}`)
      .filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
  }

  requeueAfter(d: Deployment, ms: number): void {
    this.queue.addAfter(keyOf(d), ms);
  }

  /** `getAllReplicaSetsAndSyncRevision`: the new ReplicaSet (created if asked) and the old ones. */
  async replicaSetsAndSyncRevision(
    d: Deployment,
    rsList: ReplicaSet[],
    create: boolean,
  ): Promise<{ newRS: ReplicaSet | undefined; oldRSs: ReplicaSet[] }> {
    const found = findNewReplicaSet(d, rsList);
    const oldRSs = rsList.filter((rs) => rs !== found);
    const newRS = found ? await this.syncExistingNewRS(d, found, oldRSs) : undefined;
    if (newRS || !create) return { newRS, oldRSs };
    return { newRS: await this.createNewRS(d, oldRSs), oldRSs };
  }

  private async syncExistingNewRS(d: Deployment, rs: ReplicaSet, oldRSs: ReplicaSet[]): Promise<ReplicaSet> {
    const copy = structuredClone(rs);
    const annotationsChanged = setNewReplicaSetAnnotations(d, copy, maxRevision(oldRSs) + 1, true);
    const minReadyChanged = (copy.spec.minReadySeconds ?? 0) !== (d.spec.minReadySeconds ?? 0);
    if (annotationsChanged || minReadyChanged) {
      copy.spec.minReadySeconds = d.spec.minReadySeconds ?? 0;
      Object.assign(rs, await this.rsClient(d).update(copy, { signal: this.ctx.signal }));
    }
    let needsUpdate = setRevision(d, rs.metadata?.annotations?.[REVISION_ANNOTATION]);
    if (hasProgressDeadline(d) && !findCondition(d.status?.conditions, 'Progressing')) {
      const msg = `Found new replica set "${rs.metadata?.name}"`;
      setCondition(
        statusOf(d),
        newCondition('Progressing', 'True', Reasons.FoundNewReplicaSet, msg, this.now()),
      );
      needsUpdate = true;
    }
    if (needsUpdate) await this.writeStatus(d);
    return rs;
  }

  private async createNewRS(d: Deployment, oldRSs: ReplicaSet[]): Promise<ReplicaSet> {
    const hash = podTemplateHash(d.spec.template, d.status?.collisionCount);
    const template = structuredClone(d.spec.template ?? {});
    template.metadata = {
      ...template.metadata,
      labels: { ...template.metadata?.labels, [POD_TEMPLATE_HASH_LABEL]: hash },
    };
    const selector = structuredClone(d.spec.selector ?? {});
    selector.matchLabels = { ...selector.matchLabels, [POD_TEMPLATE_HASH_LABEL]: hash };
    const name = `${d.metadata?.name}-${hash}`;
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name,
        namespace: d.metadata?.namespace,
        ownerReferences: [controllerRef(d, DEPLOYMENT_KIND)],
        labels: { ...template.metadata.labels },
      },
      spec: { replicas: 0, minReadySeconds: d.spec.minReadySeconds ?? 0, selector, template },
    };
    const newReplicas = newRSNewReplicas(d, [...oldRSs, rs], rs, (r) => this.podsOf(r).length);
    rs.spec.replicas = newReplicas;
    const revision = maxRevision(oldRSs) + 1;
    setNewReplicaSetAnnotations(d, rs, revision, false);
    let created: ReplicaSet;
    let alreadyExisted = false;
    try {
      created = await this.rsClient(d).create(rs, { signal: this.ctx.signal });
    } catch (err) {
      if (!isAlreadyExists(err)) {
        const msg = `Failed to create new replica set "${name}": ${(err as Error).message}`;
        if (hasProgressDeadline(d)) {
          setCondition(
            statusOf(d),
            newCondition('Progressing', 'False', Reasons.FailedRSCreate, msg, this.now()),
          );
          await this.writeStatus(d);
        }
        this.recorder.event(typed(d, DEPLOYMENT_KIND), 'Warning', Reasons.FailedRSCreate, msg);
        throw err;
      }
      const existing = await this.rsClient(d).find(name, { signal: this.ctx.signal });
      const ours = existing && controllerOf(existing)?.uid === d.metadata?.uid;
      if (!existing || !ours || !equalIgnoreHash(existing.spec.template, d.spec.template)) {
        // A hash collision: bump collisionCount so the next sync picks another name.
        statusOf(d).collisionCount = (d.status?.collisionCount ?? 0) + 1;
        await this.writeStatus(d);
        throw err;
      }
      created = existing;
      alreadyExisted = true;
    }
    if (!alreadyExisted && newReplicas > 0) {
      this.recorder.event(
        typed(d, DEPLOYMENT_KIND),
        'Normal',
        'ScalingReplicaSet',
        `Scaled up replica set ${name} from 0 to ${newReplicas}`,
      );
    }
    let needsUpdate = setRevision(d, String(revision));
    if (!alreadyExisted && hasProgressDeadline(d)) {
      const msg = `Created new replica set "${name}"`;
      setCondition(
        statusOf(d),
        newCondition('Progressing', 'True', Reasons.NewReplicaSetCreated, msg, this.now()),
      );
      needsUpdate = true;
    }
    if (needsUpdate) await this.writeStatus(d);
    return created;
  }

  /** `scaleReplicaSetAndRecordEvent`: true if the size changed. */
  async scaleReplicaSetAndRecordEvent(rs: ReplicaSet, newScale: number, d: Deployment): Promise<boolean> {
    if (replicas(rs) === newScale) return false;
    return this.scaleReplicaSet(rs, newScale, d);
  }

  /** `scaleReplicaSet`: sets replicas and the replicas annotations; the event says from and to. */
  async scaleReplicaSet(rs: ReplicaSet, newScale: number, d: Deployment): Promise<boolean> {
    const sizeChanged = replicas(rs) !== newScale;
    const max = replicas(d) + maxSurge(d);
    if (!sizeChanged && !replicasAnnotationsNeedUpdate(rs, replicas(d), max)) return false;
    const oldScale = replicas(rs);
    const copy = structuredClone(rs);
    copy.spec.replicas = newScale;
    setReplicasAnnotations(copy, replicas(d), max);
    Object.assign(rs, await this.rsClient(d).update(copy, { signal: this.ctx.signal }));
    if (!sizeChanged) return false;
    const op = oldScale < newScale ? 'up' : 'down';
    this.recorder.event(
      typed(d, DEPLOYMENT_KIND),
      'Normal',
      'ScalingReplicaSet',
      `Scaled ${op} replica set ${rs.metadata?.name} from ${oldScale} to ${newScale}`,
    );
    return true;
  }

  async deleteReplicaSet(rs: ReplicaSet): Promise<void> {
    await this.ctx.kube
      .resource('replicasets', rs.metadata?.namespace)
      .delete(rs.metadata?.name ?? '', { preconditions: { uid: rs.metadata?.uid }, signal: this.ctx.signal });
  }

  /**
   * Writes `d.status` (and `d`'s revision annotation) through the status
   * subresource, then takes the stored object's metadata so later writes in
   * the same sync carry the current resourceVersion. kube-apiserver keeps
   * annotation changes sent to a Deployment's /status (only spec and labels
   * are reset); a server that drops them gets the revision written on the
   * main resource instead (which, there, bumps metadata.generation).
   */
  async writeStatus(d: Deployment): Promise<void> {
    const client = this.ctx.kube.resource<Deployment>('deployments', d.metadata?.namespace);
    let stored = await client.updateStatus(d, { signal: this.ctx.signal });
    const revision = d.metadata?.annotations?.[REVISION_ANNOTATION];
    if (revision !== undefined && stored.metadata?.annotations?.[REVISION_ANNOTATION] !== revision) {
      const patch = {
        metadata: {
          annotations: { [REVISION_ANNOTATION]: revision },
          resourceVersion: stored.metadata?.resourceVersion,
        },
      };
      stored = await client.patch(d.metadata?.name ?? '', patch, 'merge', { signal: this.ctx.signal });
    }
    d.metadata = stored.metadata;
    d.status = stored.status;
  }

  recordEvent(d: Deployment, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.recorder.event(typed(d, DEPLOYMENT_KIND), type, reason, message);
  }

  private rsClient(d: Deployment): ResourceClient<ReplicaSet> {
    return this.ctx.kube.resource<ReplicaSet>('replicasets', d.metadata?.namespace);
  }
}

/** `SetDeploymentRevision`: true if the annotation changed. */
function setRevision(d: Deployment, revision: string | undefined): boolean {
  if (revision === undefined) return false;
  const annotations = annotationsOf(d);
  if (annotations[REVISION_ANNOTATION] === revision) return false;
  annotations[REVISION_ANNOTATION] = revision;
  return true;
}
