/**
 * How long the simulated kubelets take over each step. The defaults are a
 * real node's steps shrunk (~300 ms per pod in all) so a demo rollout takes
 * seconds, while the order and the events stay the real ones.
 */

/** Kubelet step delays in ms. */
export interface SimulationTiming {
  /** Pulling an image (default 120). */
  pullMs?: number;
  /** Creating a container (default 30). */
  createMs?: number;
  /** Starting a container (default 30). */
  startMs?: number;
  /** From started to Ready, as a readiness probe would take (default 100). */
  readyMs?: number;
  /** Node lease renewal (default 10000, the kubelet's). */
  heartbeatMs?: number;
  /** First image pull back-off, doubling up to 30x (default 1000; the kubelet's is 10 s to 300 s). */
  backoffMs?: number;
}

/** The defaults of {@link SimulationTiming}. */
export const DEFAULT_TIMING: Required<SimulationTiming> = {
  pullMs: 120,
  createMs: 30,
  startMs: 30,
  readyMs: 100,
  heartbeatMs: 10_000,
  backoffMs: 1000,
};
