/**
 * Why a test fails, for the failures understood so far: each cause is
 * recognised by its failure message or its test name and says what the server
 * answered. Written after reading every failure of a full run; a failure no
 * pattern knows stays without a cause, to be read.
 */
/** A known cause of failure. */
export interface Cause {
  id: string;
  /** What happens, in a sentence: the request, the answer. */
  text: string;
  /** Whether watchmark leaves this out on purpose (docs/testing.md, "What is faithful"). */
  onPurpose: boolean;
  /** What `pattern` is matched against: the failure message, or the test's name. */
  on: 'message' | 'name';
  pattern: RegExp;
}

const notServed = (what: string, request: string): string =>
  `${what} is not served by watchmark: ${request} answers 404 NotFound ("the server could not find the requested resource"); the reference serves it`;

/** The causes, most specific first. */
export const CAUSES: Cause[] = [
  {
    id: 'setup-envtest-download',
    text: 'not the server: the test downloads kube-apiserver v1.28.0 with setup-envtest (no release buckets here); on the reference it fails at setup, on an existing cluster the download is skipped and the test runs against aggregated discovery it means to turn off',
    onPurpose: false,
    on: 'name',
    pattern: /aggregatedDiscovery=false/,
  },
  {
    id: 'metrics-authn-authz',
    text: 'controller-runtime\'s metrics authn/authz filter needs a ServiceAccount, its token (TokenRequest), RBAC (ClusterRole, ClusterRoleBinding), TokenReview and SubjectAccessReview; watchmark serves ServiceAccounts but none of the rest (every authenticated user may do everything): creating the ClusterRole fails first (no matches for kind "ClusterRole": discovery has no rbac.authorization.k8s.io)',
    onPurpose: true,
    on: 'name',
    pattern: /serving metrics with https and authn\/authz/,
  },
  {
    id: 'service-account-token',
    text: notServed(
      'The serviceaccounts/token subresource (TokenRequest)',
      'POST /api/v1/namespaces/NS/serviceaccounts/NAME/token (ServiceAccounts themselves are served since 228db91)',
    ),
    onPurpose: true,
    on: 'name',
    pattern: /create ServiceAccount tokens/,
  },
  {
    id: 'pod-eviction',
    text: notServed(
      'The pods/eviction subresource',
      'POST /api/v1/namespaces/NS/pods/NAME/eviction (the reference answers 201 Status Success and deletes the pod)',
    ),
    onPurpose: true,
    on: 'name',
    pattern: /evict/i,
  },
  {
    id: 'certificate-signing-requests',
    text: notServed(
      'certificates.k8s.io (CertificateSigningRequest)',
      'POST /apis/certificates.k8s.io/v1/certificatesigningrequests',
    ),
    onPurpose: true,
    on: 'message',
    pattern: /certificatesigningrequests|approve CSRs/,
  },
  {
    id: 'rbac',
    text: notServed(
      'rbac.authorization.k8s.io (ClusterRole)',
      'POST /apis/rbac.authorization.k8s.io/v1/clusterroles',
    ),
    onPurpose: true,
    on: 'message',
    pattern: /rbac\.authorization\.k8s\.io|clusterroles/,
  },
  {
    id: 'events-k8s-io',
    text: notServed(
      'events.k8s.io/v1 (only core v1 Events are)',
      'GET /apis/events.k8s.io/v1/namespaces/NS/events',
    ),
    onPurpose: true,
    on: 'message',
    pattern: /events\.events\.k8s\.io/,
  },
  {
    id: 'networking-ingress',
    text: notServed('networking.k8s.io (Ingress)', 'GET /apis/networking.k8s.io/v1'),
    onPurpose: true,
    on: 'message',
    pattern: /networking\.k8s\.io/,
  },
  {
    id: 'autoscaling-hpa',
    text: `${notServed('autoscaling (HorizontalPodAutoscaler)', 'GET /apis/autoscaling/v2')}; the RESTMapper cannot scope the owner, so nothing is enqueued`,
    onPurpose: true,
    on: 'name',
    pattern: /owners matching Group and Kind with a different version/,
  },
  {
    id: 'conversion-webhook',
    text: 'CRD conversion webhooks are not called by watchmark: a list of a version other than the storage version answers 500 "conversion webhook for GROUP/VERSION, Kind=KIND failed: watchmark does not call conversion webhooks"; the reference calls the webhook',
    onPurpose: true,
    on: 'message',
    pattern: /Manager didn't start in time/,
  },
  {
    id: 'goroutine-leak-http1',
    text: 'watchmark serves HTTP/1.1 only (node:https, no ALPN h2); kube-apiserver serves HTTP/2, which client-go then uses for every request over one connection. The test snapshots goroutines (goleak.IgnoreCurrent) before the manager starts and looks again after stopping it and closing idle connections: over HTTP/1.1 the manager dialled connections of its own after the snapshot (one per concurrent request), and one (a net/http persistConn readLoop) is still open when goleak looks. It passes on the reference used the same way, as an existing cluster; on watchmark it failed in 3 of 5 runs (the three under load) and passed in 2',
    onPurpose: false,
    on: 'message',
    pattern: /found unexpected goroutines/,
  },
  {
    id: 'reference-slow-under-load',
    text: 'not watchmark: a timing-bound test that failed on the reference while the machine was loaded (load average 20-24 on 2 cores: CRD removal beyond 20 s, a cancelled informer still handing back no error) and passed on it in other runs',
    onPurpose: false,
    on: 'name',
    pattern:
      /UninstallCRDs should uninstall the CRDs from the cluster|should allow for get informer to be cancelled/,
  },
  {
    id: 'shared-server',
    text: 'not watchmark: the test expects a fresh control plane per test (it creates driver1 again); the runner starts one server per package, so objects of an earlier test remain',
    onPurpose: false,
    on: 'message',
    pattern: /"driver1" already exists/,
  },
];

/**
 * The cause of the failed test `name` (failing with `message`), if one is known; a `go test`
 * function one of whose subtests (in `failedNames`) failed says so.
 */
export function causeOf(name: string, message: string, failedNames: Set<string>): Cause | undefined {
  const known = CAUSES.find((c) => c.pattern.test(c.on === 'name' ? name : message));
  if (known) return known;
  if ([...failedNames].some((other) => other.startsWith(`${name}/`))) return SUBTEST_FAILED;
  return undefined;
}

/** A `go test` function that failed because one of its subtests did. */
export const SUBTEST_FAILED: Cause = {
  id: 'subtest-failed',
  text: 'a subtest failed (see the subtests)',
  onPurpose: false,
  on: 'name',
  pattern: /$^/,
};
