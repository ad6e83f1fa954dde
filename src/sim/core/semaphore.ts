/**
 * A counting semaphore. The simulated kubelets and controllers share one
 * HTTP connection pool each; bounding their requests in flight keeps a burst
 * of 3,000 pod updates from opening 3,000 TLS connections at once (kubelets
 * and kube-controller-manager bound theirs with client-side QPS instead).
 */
export class Semaphore {
  private available: number;
  private readonly waiters: Array<() => void> = [];

  constructor(permits: number) {
    this.available = permits;
  }

  /** Runs `fn` once a permit is free. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.available > 0) this.available--;
    else await new Promise<void>((resolve) => this.waiters.push(resolve));
    try {
      return await fn();
    } finally {
      const next = this.waiters.shift();
      if (next) next();
      else this.available++;
    }
  }
}
