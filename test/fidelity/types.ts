/**
 * The differential corpus's data model. A case is data: an area, and steps
 * run in order against one server (the reference kube-apiserver, then
 * watchmark), each in a namespace of its own. Strings in a step may hold
 * placeholders, filled per server when the step runs:
 * - `$ns`: the case's namespace (the same name on both servers);
 * - `$n`: a suffix unique to the case, for cluster-scoped names;
 * - `$name`: a value an earlier step saved (`save`), which differs by server
 *   (a resourceVersion, a continue token);
 * - `$webhookURL`, `$webhookCA`: the corpus webhook's address and CA bundle
 *   (webhook-server.ts).
 */

/** One HTTP request. */
export interface RequestSpec {
  method?: string;
  path: string;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  /** A JSON body (serialised as given). */
  body?: unknown;
  /** A body sent byte for byte (YAML, broken JSON, ...); wins over `body`. */
  bodyText?: string;
}

/** What to read of a watch before comparing. */
export interface WatchUntil {
  /** Stop after this many events (bookmarks included). */
  events?: number;
  /** Stop at the first BOOKMARK carrying the `k8s.io/initial-events-end` annotation. */
  initialEventsEnd?: boolean;
  /** Read until the server ends the stream (pair with `timeoutSeconds`). */
  end?: boolean;
}

/** A watch: opened, then `during` runs while it is open, then it is read `until`. */
export interface WatchSpec extends RequestSpec {
  until: WatchUntil;
  /** Steps run once the watch's response headers arrived. */
  during?: Step[];
  /** Drop BOOKMARK events whose sending time is not deterministic (periodic ones); default true. */
  dropPeriodicBookmarks?: boolean;
}

/**
 * What of an answer to compare, when not all of it is the case's business
 * (a discovery document also lists resources watchmark does not serve yet):
 * `pick` keeps only the named parts of the body, each a dotted path whose
 * segments may filter a list, `resources[name=pods]`, `items[metadata.name=apps]`;
 * `ignore` drops parts of the observation (`body`, `headers`) that cannot be
 * compared (a protobuf body, whose bytes hold uids and times).
 */
export interface Focus {
  pick?: string[];
  ignore?: Array<'body' | 'headers' | 'status'>;
}

/** Values saved from a step's answer for later steps: name -> dotted path into the body. */
export type SaveSpec = Record<string, string>;

export type Step =
  | ({ request: RequestSpec; save?: SaveSpec; compare?: boolean } & Focus)
  | ({ watch: WatchSpec; compare?: boolean } & Focus)
  | { kubectl: string[]; stdin?: string; compare?: boolean }
  | { waitFor: WaitSpec; compare?: false };

/**
 * A wait before the next step: until the object at `path` is gone (`absent`), its `field`
 * holds `equals`, or the field is unset; or, with `request`, until that request is answered
 * with `status` (a webhook configuration taking effect). 60 s at most unless `timeoutMs`.
 */
export interface WaitSpec {
  path?: string;
  field?: string;
  equals?: unknown;
  absent?: boolean;
  request?: RequestSpec;
  status?: number;
  timeoutMs?: number;
}

/** The servers a case runs on. */
export type Profile = 'envtest' | 'cluster';

/** One differential case. */
export interface FidelityCase {
  /** Unique, stable, `area/...`. */
  id: string;
  area: string;
  /** `cluster` cases need kube-controller-manager's controllers (and watchmark's). */
  profile?: Profile;
  /** Create the case namespace `$ns` first (default true). */
  namespace?: boolean;
  steps: Step[];
}

/** What one server answered to one compared step. */
export interface Observation {
  /** The step's index; `2.0` is the first `during` step of step 2. */
  step: string;
  kind: 'request' | 'watch' | 'kubectl' | 'error';
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  events?: Array<{ type: string; object: unknown }>;
  /** How a watch ended: `count`, `initialEventsEnd`, `end`, or `timeout`. */
  ended?: string;
  exitCode?: number;
  stdout?: string;
  stderr?: string;
  /** A step that could not run (connection refused, timeout waiting): its message. */
  error?: string;
}

/** One field that differs after normalisation. */
export interface Difference {
  /** `steps[2].body.metadata.labels`, `steps[0].events[1].type`, ... */
  path: string;
  reference: unknown;
  watchmark: unknown;
}

/** The verdict on a case. */
export interface CaseResult {
  id: string;
  area: string;
  outcome: 'matched' | 'known' | 'differing';
  /** Differences not covered by a known-difference entry. */
  differences: Difference[];
  /** Differences covered by known entries, with the entry's key. */
  known: Array<Difference & { entry: string }>;
}
