/**
 * The door of a paused server: while closed, every request that arrives waits, unanswered,
 * as on a process stopped with SIGSTOP (the kernel still accepts connections; nothing reads
 * them). Opening it lets them through in the order they came.
 */
export class RequestGate {
  private waiting: Array<() => void> = [];
  private holds = 0;

  /** True while at least one holder keeps the door closed. */
  get closed(): boolean {
    return this.holds > 0;
  }

  /** Requests waiting now. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /** Closes the door; every {@link close} needs its own {@link open}. */
  close(): void {
    this.holds++;
  }

  /** Opens the door once its last holder opens it: the waiting requests go, oldest first. */
  open(): void {
    if (this.holds === 0) return;
    this.holds--;
    if (this.holds > 0) return;
    const waiting = this.waiting;
    this.waiting = [];
    for (const go of waiting) go();
  }

  /** Runs `go` now, or when the door opens. */
  pass(go: () => void): void {
    if (this.holds === 0) go();
    else this.waiting.push(go);
  }

  /** Forgets every waiting request (the server is closing: their connections are cut). */
  drop(): void {
    this.waiting = [];
    this.holds = 0;
  }
}
