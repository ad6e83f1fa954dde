/**
 * The record of the API requests a test cluster answered, for assertions
 * such as "the controller patched status once and never listed twice".
 */
import type { RequestRecord } from '../server/index.js';

/** Fields a request must have to match; an array accepts any of its values. */
export type RequestFilter = {
  [K in keyof RequestRecord]?: RequestRecord[K] | ReadonlyArray<RequestRecord[K]>;
};

/** Requests seen, oldest first: see {@link TestCluster.requests}. */
export class RequestLog {
  private records: RequestRecord[] = [];

  /** @param skip requests left out by User-Agent (the cluster's own controllers and waits). */
  constructor(private readonly skip: (userAgent: string | undefined) => boolean = () => false) {}

  /** Called by the server once per API request. */
  readonly record = (r: RequestRecord): void => {
    if (!this.skip(r.userAgent)) this.records.push(r);
  };

  /** Every request since the start (or the last {@link RequestLog.clear}). */
  all(): RequestRecord[] {
    return [...this.records];
  }

  /**
   * The requests matching `filter`, e.g. `{ verb: 'patch', resource: 'widgets', subresource: 'status' }`
   * or `{ verb: ['list', 'watch'], userAgent: 'my-operator' }` (userAgent matches a substring).
   */
  find(filter: RequestFilter = {}): RequestRecord[] {
    return this.records.filter((r) => matches(r, filter));
  }

  /** How many requests match `filter`. */
  count(filter: RequestFilter = {}): number {
    return this.find(filter).length;
  }

  /** Forgets what was recorded so far (e.g. after the setup, before what a test checks). */
  clear(): void {
    this.records = [];
  }
}

function matches(r: RequestRecord, filter: RequestFilter): boolean {
  for (const [field, want] of Object.entries(filter) as Array<[keyof RequestRecord, unknown]>) {
    if (want === undefined) continue;
    const got = r[field];
    const accepted = Array.isArray(want) ? want : [want];
    const ok =
      field === 'userAgent'
        ? accepted.some((w) => typeof got === 'string' && got.includes(String(w)))
        : accepted.includes(got);
    if (!ok) return false;
  }
  return true;
}
