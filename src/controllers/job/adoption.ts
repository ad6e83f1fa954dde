/**
 * Which pods a Job controls (pkg/controller/job/job_controller.go `getPodsForJob`, over
 * pkg/controller/controller_ref_manager.go's `PodControllerRefManager.ClaimPods`): the pods of its
 * namespace whose controller reference names it, plus the orphans (no controller reference). An
 * orphan its selector picks is adopted by a strategic merge patch adding the Job as controller
 * owner and the tracking finalizer (after one fresh GET showing the Job still there and not being
 * deleted, `RecheckDeletionTimestamp`); a pod of its own its selector no longer picks is released
 * by a patch deleting that owner reference and the finalizer.
 */
import type { KubeClient } from '../../client/client.js';
import { type LabelSelectorObject, labelSelectorFromObject } from '../../protocol/label-object.js';
import { matchesLabels } from '../../protocol/labels.js';
import { isInvalid, isNotFound } from '../../protocol/status.js';
import { type Pod, TRACKING_FINALIZER } from './pods.js';
import type { Job } from './types.js';

interface ControllerRef {
  apiVersion?: string;
  kind?: string;
  name?: string;
  uid?: string;
  controller?: boolean;
}

/** The pod's controller owner reference (`metav1.GetControllerOf`). */
export function controllerRefOf(p: Pod): ControllerRef | undefined {
  return ((p.metadata?.ownerReferences ?? []) as ControllerRef[]).find((r) => r.controller === true);
}

/** Whether the Job's selector picks these labels; a selector that does not parse picks nothing. */
export function selectorPicks(job: Job, labels: Record<string, string> | undefined): boolean {
  try {
    return matchesLabels(
      labelSelectorFromObject(job.spec?.selector as LabelSelectorObject | undefined),
      labels,
    );
  } catch {
    // LabelSelectorAsSelector's error: an invalid selector matches no pod.
    return false;
  }
}

/**
 * `getPodsForJob`: the pods the Job controls once orphans are adopted and strays released
 * (adopted pods as the sync should see them: with the tracking finalizer). Throws the first
 * adoption or release error after trying every pod, as `ClaimPods` aggregates them.
 */
export async function claimPods(kube: KubeClient, job: Job, candidates: Pod[]): Promise<Pod[]> {
  const uid = job.metadata?.uid ?? '';
  const ns = job.metadata?.namespace ?? '';
  const pods = kube.resource<Pod>('pods', ns);
  let canAdopt: Promise<void> | undefined;
  const recheck = () => {
    canAdopt ??= kube
      .resource<Job>('jobs.batch', ns)
      .get(job.metadata?.name ?? '')
      .then((fresh) => {
        if (fresh.metadata?.uid !== uid)
          throw new Error(
            `original Job ${ns}/${job.metadata?.name} is gone: got uid ${fresh.metadata?.uid}, wanted ${uid}`,
          );
        if (fresh.metadata?.deletionTimestamp)
          throw new Error(
            `${ns}/${job.metadata?.name} has just been deleted at ${fresh.metadata.deletionTimestamp}`,
          );
      });
    return canAdopt;
  };
  const claimed: Pod[] = [];
  const errors: unknown[] = [];
  for (const p of candidates) {
    const ref = controllerRefOf(p);
    const name = p.metadata?.name ?? '';
    const picked = selectorPicks(job, p.metadata?.labels as Record<string, string> | undefined);
    try {
      if (ref) {
        if (ref.uid !== uid) continue;
        if (picked) {
          claimed.push(p);
          continue;
        }
        if (job.metadata?.deletionTimestamp) continue;
        await releasePod(pods, p, uid);
        continue;
      }
      if (job.metadata?.deletionTimestamp || !picked || p.metadata?.deletionTimestamp) continue;
      if (p.metadata?.namespace !== ns) continue;
      await recheck().catch((err: Error) => {
        throw new Error(`can't adopt Pod ${ns}/${name} (${p.metadata?.uid}): ${err.message}`);
      });
      await pods.patch(
        name,
        {
          metadata: {
            ownerReferences: [
              {
                apiVersion: 'batch/v1',
                kind: 'Job',
                name: job.metadata?.name,
                uid,
                controller: true,
                blockOwnerDeletion: true,
              },
            ],
            uid: p.metadata?.uid,
            finalizers: [TRACKING_FINALIZER],
          },
        },
        'strategic',
      );
      claimed.push(p);
    } catch (err) {
      if (!isNotFound(err)) errors.push(err);
    }
  }
  if (errors.length > 0) throw errors[0];
  // The sync counts an adopted pod as tracked: it carries the finalizer from now on.
  return claimed.map((p) => {
    const owned = ((p.metadata?.ownerReferences ?? []) as ControllerRef[]).some((r) => r.uid === uid);
    if (owned || (p.metadata?.finalizers ?? []).includes(TRACKING_FINALIZER)) return p;
    return {
      ...p,
      metadata: { ...p.metadata, finalizers: [...(p.metadata?.finalizers ?? []), TRACKING_FINALIZER] },
    };
  });
}

/** `ReleasePod`: the Job's owner reference and the finalizer deleted; a pod gone, or recreated (422), is no error. */
async function releasePod(pods: ReturnType<KubeClient['resource']>, p: Pod, jobUid: string): Promise<void> {
  try {
    await pods.patch(
      p.metadata?.name ?? '',
      {
        metadata: {
          uid: p.metadata?.uid,
          ownerReferences: [{ $patch: 'delete', uid: jobUid }],
          '$deleteFromPrimitiveList/finalizers': [TRACKING_FINALIZER],
        },
      },
      'strategic',
    );
  } catch (err) {
    if (isNotFound(err) || isInvalid(err)) return;
    throw err;
  }
}
