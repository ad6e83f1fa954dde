/**
 * `/healthz`, `/livez` and `/readyz` as kube-apiserver serves them
 * (k8s.io/apiserver/pkg/server/healthz/healthz.go): each root runs its
 * checks and answers `ok`, or with `?verbose` one `[+]NAME ok` line per check
 * and `NAME check passed`; a failed check makes the root answer 500 with the
 * check list, its reason withheld (`[-]etcd failed: reason withheld`), and
 * `NAME check failed`. Each check also has its own path (`/livez/ping`),
 * answering `ok` or 500 `internal server error: REASON` (`adaptCheckToHandler`).
 * `?exclude=NAME` leaves a check out of the root's run.
 */

/** One named health check: resolves when healthy, rejects with the reason when not. */
export interface HealthCheck {
  name: string;
  check(): Promise<void>;
}

/** What a health path answers. */
export interface HealthAnswer {
  code: number;
  body: string;
}

/** The roots kube-apiserver serves, each with its own list of checks. */
export type HealthRoot = 'healthz' | 'livez' | 'readyz';

/** Serves the health roots and their per-check paths. */
export class HealthEndpoints {
  private readonly checks: Record<HealthRoot, HealthCheck[]>;

  constructor(checks: Record<HealthRoot, HealthCheck[]>) {
    this.checks = checks;
  }

  /** The answer for `path`, or undefined when `path` is not a health path. */
  async answer(path: string, query: URLSearchParams): Promise<HealthAnswer | undefined> {
    const [, root, name, ...extra] = path.split('/');
    if (root !== 'healthz' && root !== 'livez' && root !== 'readyz') return undefined;
    const checks = this.checks[root];
    if (name === undefined) return runRoot(root, checks, query);
    const check = checks.find((c) => c.name === name);
    if (!check || extra.length > 0) return undefined;
    try {
      await check.check();
      return { code: 200, body: 'ok' };
    } catch (err) {
      return { code: 500, body: `internal server error: ${(err as Error).message}\n` };
    }
  }
}

async function runRoot(
  root: HealthRoot,
  checks: HealthCheck[],
  query: URLSearchParams,
): Promise<HealthAnswer> {
  const excluded = new Set(query.getAll('exclude'));
  const run = checks.filter((c) => !excluded.has(c.name));
  const results = await Promise.all(
    run.map((c) =>
      c.check().then(
        () => true,
        () => false,
      ),
    ),
  );
  const lines = run.map((c, i) =>
    results[i] ? `[+]${c.name} ok\n` : `[-]${c.name} failed: reason withheld\n`,
  );
  // Always verbose on failure; Go's http.Error adds the final newline.
  if (results.includes(false)) return { code: 500, body: `${lines.join('')}${root} check failed\n` };
  if (!query.has('verbose')) return { code: 200, body: 'ok' };
  return { code: 200, body: `${lines.join('')}${root} check passed\n` };
}

/** A check that always passes: kube-apiserver's `ping` and `log`. */
export function alwaysHealthy(name: string): HealthCheck {
  return { name, check: async () => {} };
}
