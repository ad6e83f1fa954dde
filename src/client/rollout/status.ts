/**
 * The shared vocabulary of rollout status: what a status viewer answers, and
 * the typed error it throws when the rollout cannot succeed (or cannot be
 * judged), as kubectl's `polymorphichelpers` StatusViewer.
 */
import type { KubeObject } from '../../protocol/events.js';

/** One verdict on a rollout: kubectl's status line (without the trailing newline) and whether it is done. */
export interface RolloutStatus {
  message: string;
  done: boolean;
}

/** Why a rollout status check failed instead of answering. */
export type RolloutFailureReason =
  /** The Deployment's Progressing condition says ProgressDeadlineExceeded. */
  | 'ProgressDeadlineExceeded'
  /** `--revision` was given and the object runs another one. */
  | 'RevisionMismatch'
  /** The revision annotation is not a number. */
  | 'BadRevision'
  /** A StatefulSet or DaemonSet whose update strategy is not RollingUpdate. */
  | 'UnsupportedStrategy';

/**
 * A rollout that failed, or that kubectl refuses to judge; `message` is
 * kubectl's (printed as `error: <message>`). `done` mirrors kubectl: for an
 * unsupported strategy the viewer reports done, so watching stops.
 */
export class RolloutStatusError extends Error {
  readonly reason: RolloutFailureReason;
  readonly done: boolean;

  constructor(reason: RolloutFailureReason, message: string, done = false) {
    super(message);
    this.name = 'RolloutStatusError';
    this.reason = reason;
    this.done = done;
  }
}

/**
 * Judges one object: a status line and whether the rollout is complete, or a
 * {@link RolloutStatusError}. `revision` > 0 pins the revision (`--revision`).
 */
export type StatusViewer = (object: KubeObject, revision?: number) => RolloutStatus;

/** A number field of a loosely typed object (0 when absent, as Go's zero value). */
export function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** An object field of a loosely typed object ({} when absent). */
export function obj(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
