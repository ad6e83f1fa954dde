/** The batch/v1 Job fields the Job and CronJob controllers read and write. */
import type { KubeObject } from '../../protocol/events.js';
import type { PodFailurePolicy, SuccessPolicy } from './policies.js';

/** One of `status.conditions`. */
export interface JobCondition {
  type: string;
  status: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

/** `status`. */
export interface JobStatus {
  conditions?: JobCondition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  terminating?: number;
  completedIndexes?: string;
  failedIndexes?: string;
  uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] };
  ready?: number;
}

/** A Job. */
export interface Job extends KubeObject {
  spec?: {
    parallelism?: number;
    completions?: number;
    activeDeadlineSeconds?: number;
    backoffLimit?: number;
    backoffLimitPerIndex?: number;
    maxFailedIndexes?: number;
    completionMode?: string;
    suspend?: boolean;
    podReplacementPolicy?: string;
    podFailurePolicy?: PodFailurePolicy;
    successPolicy?: SuccessPolicy;
    managedBy?: string;
    selector?: unknown;
    template?: {
      metadata?: {
        labels?: Record<string, string>;
        annotations?: Record<string, string>;
        finalizers?: string[];
      };
      spec?: Record<string, unknown> & { restartPolicy?: string };
    };
  };
  status?: JobStatus;
}

/** The controller name a Job's `spec.managedBy` may hold for this controller to sync it. */
export const JOB_CONTROLLER_NAME = 'kubernetes.io/job-controller';

/** Whether a Job has a true Complete or Failed condition (`util.IsJobFinished`). */
export function isJobFinished(job: Job): boolean {
  return (job.status?.conditions ?? []).some(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
}

/** metav1.Time as it goes on the wire: RFC 3339 in whole seconds. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
