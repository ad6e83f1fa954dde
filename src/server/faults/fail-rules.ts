/**
 * The rules of `faults.failNext`: each answers the next `count` requests it matches with a
 * Status, in the order the rules were added (the first rule with requests left wins).
 */
import type { Status } from '../../protocol/status.js';
import { checkFaultCode, faultStatus } from './fault-status.js';
import type { RequestAttributes, RequestVerb } from './request-attributes.js';

/** Which requests fail, and how. Unset fields match anything. */
export interface FailRule {
  /** 400, 403, 404, 409, 410, 429, 500, 503 or 504. */
  code: number;
  /** How many matching requests fail (default 1). */
  count?: number;
  /** Verbs as kube-apiserver's request-info names them (`list`, `watch`, `patch`, ...). */
  verb?: RequestVerb | RequestVerb[] | string | string[];
  /**
   * `pods` (the resource itself, not its subresources, as RBAC reads it), `pods/status`, or
   * group-qualified `deployments.apps`, `deployments.apps/scale`.
   */
  resource?: string;
  namespace?: string;
  name?: string;
  /** Matches when the request's User-Agent contains it. */
  userAgent?: string;
  fieldManager?: string;
  /** The message (409: the part after the object; 500: the cause; 504: after "Timeout: "). */
  message?: string;
  /** 429 and 504: `details.retryAfterSeconds` and the Retry-After header (429 default 1). */
  retryAfterSeconds?: number;
}

/** A rule added by failNext. */
export interface FaultHandle {
  /** Requests answered by this rule so far. */
  readonly hits: number;
  /** Requests it will still fail. */
  readonly remaining: number;
  /** Removes the rule (the requests it has failed stay failed). */
  cancel(): void;
}

class Rule implements FaultHandle {
  hits = 0;
  remaining: number;
  readonly rule: FailRule;
  private readonly verbs: ReadonlySet<string> | undefined;
  private readonly owner: FailRules;

  constructor(rule: FailRule, owner: FailRules) {
    checkFaultCode(rule.code);
    const count = rule.count ?? 1;
    if (!(count > 0)) throw new Error(`failNext: count must be at least 1, not ${count}`);
    this.rule = { ...rule };
    this.remaining = count;
    this.verbs = rule.verb === undefined ? undefined : new Set([rule.verb].flat());
    this.owner = owner;
  }

  cancel(): void {
    this.remaining = 0;
    this.owner.remove(this);
  }

  matches(a: RequestAttributes): boolean {
    const r = this.rule;
    if (this.verbs && !this.verbs.has(a.verb)) return false;
    if (r.resource !== undefined && !resourceMatches(r.resource, a)) return false;
    if (r.namespace !== undefined && r.namespace !== a.namespace) return false;
    if (r.name !== undefined && r.name !== a.name) return false;
    if (r.userAgent !== undefined && !(a.userAgent ?? '').includes(r.userAgent)) return false;
    if (r.fieldManager !== undefined && r.fieldManager !== a.fieldManager) return false;
    return true;
  }
}

/**
 * `pods`, `pods/status`, `deployments.apps/scale` against a request. As in an RBAC rule
 * (pkg/apis/rbac/v1/evaluation_helpers.go `ResourceMatches`), `pods` is the resource alone
 * and a subresource is named with it.
 */
function resourceMatches(wanted: string, a: RequestAttributes): boolean {
  const slash = wanted.indexOf('/');
  const resource = slash < 0 ? wanted : wanted.slice(0, slash);
  const sub = slash < 0 ? undefined : wanted.slice(slash + 1);
  if (sub !== a.subresource) return false;
  return resource === a.resource || (a.apiGroup !== '' && resource === `${a.resource}.${a.apiGroup}`);
}

/** The rules of one server. */
export class FailRules {
  private rules: Rule[] = [];

  /** True when some rule has requests left: only then are requests matched at all. */
  get active(): boolean {
    return this.rules.length > 0;
  }

  add(rule: FailRule): FaultHandle {
    const r = new Rule(rule, this);
    this.rules.push(r);
    return r;
  }

  /** The Status the first matching rule answers `attrs` with (counting the hit), or undefined. */
  take(attrs: RequestAttributes): Status | undefined {
    const rule = this.rules.find((r) => r.matches(attrs));
    if (!rule) return undefined;
    rule.hits++;
    rule.remaining--;
    if (rule.remaining <= 0) this.remove(rule);
    return faultStatus(rule.rule, attrs);
  }

  /** The rules with requests left, as plain data (the debug endpoint shows them). */
  list(): Array<FailRule & { hits: number; remaining: number }> {
    return this.rules.map((r) => ({ ...r.rule, hits: r.hits, remaining: r.remaining }));
  }

  remove(rule: FaultHandle): void {
    this.rules = this.rules.filter((r) => r !== rule);
  }

  clear(): void {
    for (const r of this.rules) r.remaining = 0;
    this.rules = [];
  }
}
