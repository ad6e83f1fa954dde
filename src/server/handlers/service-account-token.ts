/**
 * `POST /api/v1/namespaces/NS/serviceaccounts/NAME/token` (TokenRequest), as kube-apiserver's
 * TokenREST serves it (pkg/registry/core/serviceaccount/storage/token.go `Create`), and the
 * checking of the tokens it issues when one comes back as a bearer token or in a TokenReview
 * (pkg/serviceaccount/jwt.go `AuthenticateToken`, claims.go `Validate`, and the bound objects'
 * lookups of the legacy validator's successor in claims.go).
 */
import { randomUUID } from 'node:crypto';
import { StatusError } from '../../protocol/status.js';
import { invalidStatus, validateTokenRequest } from '../kinds/authentication/token-request.js';
import type { ResourceKind, TokenAuthentication, VirtualUser } from '../kinds/types.js';
import { invalid } from '../kinds/validation.js';
import type { ServiceAccountTokenIssuer } from '../pki/service-account-token.js';
import { rfc3339 } from '../registry/meta.js';
import type { ObjectStorage } from '../registry/object-storage.js';
import { replyObject } from './reply.js';
import type { NamedScope } from './request-scope.js';
import { decodeCreate, recordCreator } from './virtual.js';

/** claims.go `WarnOnlyBoundTokenExpirationSeconds`: the kubelet's default projected token age. */
const WARN_ONLY_EXPIRATION_SECONDS = 60 * 60 + 7;
/** `--service-account-extend-token-expiration`'s extended age: a year. */
const EXTENDED_EXPIRATION_SECONDS = 365 * 24 * 60 * 60;
/** defaults.go `SetDefaults_TokenRequestSpec`: an hour. */
const DEFAULT_EXPIRATION_SECONDS = 60 * 60;

interface TokenRequestSpec {
  audiences?: string[] | null;
  expirationSeconds?: number;
  boundObjectRef?: { kind?: string; apiVersion?: string; name?: string; uid?: string } | null;
}

/** The kinds a token is checked and bound against, found in the server's table. */
function kindOf(scope: NamedScope, group: string, plural: string): ResourceKind {
  const kind = scope.server.kinds.findByPlural(group, 'v1', plural);
  if (!kind)
    throw StatusError.of(
      'InternalError',
      `Internal error occurred: ${plural} are not served`,
      undefined,
      500,
    );
  return kind;
}

/** The TokenRequest type, as the endpoint decodes its body. */
function tokenRequestKind(serviceAccounts: ResourceKind): ResourceKind {
  return {
    ...serviceAccounts,
    group: 'authentication.k8s.io',
    version: 'v1',
    kind: 'TokenRequest',
    virtual: undefined,
  };
}

/** TokenREST.Create: 201 with the TokenRequest, its status the signed token. */
export async function requestToken(scope: NamedScope): Promise<void> {
  const { server, name } = scope;
  const namespace = scope.namespace!;
  const issuer = server.tokenIssuer;
  if (!issuer) throw StatusError.of('NotFound', 'the server could not find the requested resource', {});
  const target = tokenRequestKind(scope.kind);
  const req = await decodeCreate(scope, target);
  req.metadata = { ...req.metadata, namespace: req.metadata?.namespace || namespace };
  const spec = (req.spec ?? {}) as TokenRequestSpec;
  // The defaults the decoding applies, which the field manager sees (defaults.go).
  spec.expirationSeconds ??= DEFAULT_EXPIRATION_SECONDS;
  req.spec = spec;
  await recordCreator(scope, target, req, 'token', { audiences: null, boundObjectRef: null });
  // Fields without omitempty, written null; the field manager saw them absent.
  spec.audiences ??= null;
  spec.boundObjectRef ??= null;
  const meta = req.metadata;
  if (meta.name && meta.name !== name) {
    throw invalidRequest(
      name,
      'metadata.name',
      meta.name,
      'must match the service account name if specified',
    );
  }
  const account = await server.objects.get(scope.kind, namespace, name);
  const accountUid = account.metadata?.uid ?? '';
  if (meta.uid && meta.uid !== accountUid) {
    throw conflict(
      'TokenRequest.authentication.k8s.io',
      name,
      `the UID in the token request (${meta.uid}) does not match the UID of the service account (${accountUid})`,
    );
  }
  const kubeAudiences = [issuer.issuer];
  if (!spec.audiences || spec.audiences.length === 0) spec.audiences = kubeAudiences;
  meta.name ||= name;
  meta.uid ||= accountUid;
  const now = server.clock.now();
  meta.creationTimestamp = rfc3339(now);
  const errors = validateTokenRequest(req);
  if (errors.length > 0) throw invalidStatus('TokenRequest', 'authentication.k8s.io', '', errors);
  const bound = await boundObjects(scope, namespace, name, spec);
  let exp = spec.expirationSeconds;
  let warnAfter = 0;
  // token.go: the kubelet's default request, bound to a pod for the API server's audiences, lives
  // a year and warns after the hour it asked for (`--service-account-extend-token-expiration`).
  if (
    bound.pod &&
    exp === WARN_ONLY_EXPIRATION_SECONDS &&
    spec.audiences.every((a) => kubeAudiences.includes(a))
  ) {
    warnAfter = exp;
    exp = EXTENDED_EXPIRATION_SECONDS;
  }
  const seconds = Math.floor(now / 1000);
  const kube: Record<string, unknown> = {
    namespace,
    serviceaccount: { name, uid: accountUid },
  };
  if (bound.pod) kube.pod = bound.pod;
  if (bound.secret) kube.secret = bound.secret;
  if (bound.node) kube.node = bound.node;
  if (warnAfter) kube.warnafter = seconds + warnAfter;
  const token = issuer.sign({
    iss: issuer.issuer,
    sub: `system:serviceaccount:${namespace}:${name}`,
    aud: spec.audiences,
    iat: seconds,
    nbf: seconds,
    exp: seconds + exp,
    jti: randomUUID(),
    'kubernetes.io': kube,
  });
  req.status = { token, expirationTimestamp: rfc3339((seconds + spec.expirationSeconds) * 1000) };
  replyObject(scope, 201, req);
}

interface BoundRefs {
  pod?: { name: string; uid: string };
  secret?: { name: string; uid: string };
  node?: { name: string; uid?: string };
}

/** token.go's `BoundObjectRef` switch: the object looked up, its uid checked. */
async function boundObjects(
  scope: NamedScope,
  namespace: string,
  account: string,
  spec: TokenRequestSpec,
): Promise<BoundRefs> {
  const ref = spec.boundObjectRef;
  if (!ref) return {};
  const { objects } = scope.server;
  const apiVersion = ref.apiVersion ?? '';
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  const refName = ref.name ?? '';
  const out: BoundRefs = {};
  let uid: string;
  if (group === '' && ref.kind === 'Pod') {
    const pod = await objects.get(kindOf(scope, '', 'pods'), namespace, refName);
    const podSpec = (pod.spec ?? {}) as { serviceAccountName?: string; nodeName?: string };
    if (podSpec.serviceAccountName !== account) {
      throw StatusError.of(
        'BadRequest',
        `cannot bind token for serviceaccount "${account}" to pod running with different serviceaccount name.`,
      );
    }
    uid = pod.metadata?.uid ?? '';
    out.pod = { name: refName, uid };
    // ServiceAccountTokenPodNodeInfo: the pod's node, by name alone when it is gone.
    if (podSpec.nodeName) out.node = await nodeRef(scope, objects, podSpec.nodeName);
  } else if (group === '' && ref.kind === 'Node') {
    const node = await objects.get(kindOf(scope, '', 'nodes'), undefined, refName);
    uid = node.metadata?.uid ?? '';
    out.node = { name: refName, uid };
  } else if (group === '' && ref.kind === 'Secret') {
    const secret = await objects.get(kindOf(scope, '', 'secrets'), namespace, refName);
    uid = secret.metadata?.uid ?? '';
    out.secret = { name: refName, uid };
  } else {
    // schema.GroupVersionKind's String(): `group/version, Kind=kind`.
    throw StatusError.of(
      'BadRequest',
      `cannot bind token to object of type ${group}/${version}, Kind=${ref.kind ?? ''}`,
    );
  }
  if (ref.uid && ref.uid !== uid) {
    throw conflict(
      ref.kind ?? '',
      refName,
      `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  return out;
}

async function nodeRef(
  scope: NamedScope,
  objects: ObjectStorage,
  name: string,
): Promise<{ name: string; uid?: string }> {
  try {
    const node = await objects.get(kindOf(scope, '', 'nodes'), undefined, name);
    return { name, uid: node.metadata?.uid ?? '' };
  } catch (err) {
    if (err instanceof StatusError && err.status.code === 404) return { name };
    throw err;
  }
}

/** `errors.NewInvalid(TokenRequest, name, field.Invalid(...))`. */
function invalidRequest(name: string, field: string, value: string, detail: string): StatusError {
  return invalidStatus('TokenRequest', 'authentication.k8s.io', name, [invalid(field, value, detail)]);
}

/** `errors.NewConflict(GroupResource{Resource: kind}, name, err)`. */
function conflict(resource: string, name: string, why: string): StatusError {
  const [kindName, ...groupParts] = resource.split('.');
  const group = groupParts.join('.');
  return StatusError.of('Conflict', `Operation cannot be fulfilled on ${resource} "${name}": ${why}`, {
    name,
    ...(group ? { group } : {}),
    kind: kindName,
  });
}

/**
 * jwt.go `AuthenticateToken` with claims.go's validation: a service-account token of this
 * server, for `audiences`, whose account (and bound pod, secret or node) still exists with the
 * uid it was issued for. Undefined: not a token of this issuer.
 */
export async function authenticateServiceAccountToken(
  issuer: ServiceAccountTokenIssuer,
  objects: ObjectStorage,
  kinds: { findByPlural(group: string, version: string, plural: string): ResourceKind | undefined },
  token: string,
  audiences: string[],
  now: number,
): Promise<TokenAuthentication | undefined> {
  const checked = issuer.check(token, now);
  if (!checked.ok) return checked.ours ? { error: checked.error } : undefined;
  const claims = checked.claims;
  const aud = Array.isArray(claims.aud)
    ? (claims.aud as string[])
    : typeof claims.aud === 'string'
      ? [claims.aud]
      : [];
  const accepted = aud.filter((a) => audiences.includes(a));
  if (accepted.length === 0) {
    return {
      error: `token audiences ${goQuotedList(aud)} is invalid for the target audiences ${goQuotedList(audiences)}`,
    };
  }
  const kube = (claims['kubernetes.io'] ?? {}) as {
    namespace?: string;
    serviceaccount?: { name?: string; uid?: string };
    pod?: { name?: string; uid?: string };
    secret?: { name?: string; uid?: string };
    node?: { name?: string; uid?: string };
  };
  const namespace = kube.namespace ?? '';
  const lookups: Array<[string, string | undefined, { name?: string; uid?: string } | undefined]> = [
    ['serviceaccounts', namespace, kube.serviceaccount],
    ['pods', namespace, kube.pod],
    ['secrets', namespace, kube.secret],
  ];
  for (const [plural, ns, ref] of lookups) {
    if (!ref) continue;
    const kind = kinds.findByPlural('', 'v1', plural);
    if (!kind) continue;
    try {
      const obj = await objects.get(kind, ns, ref.name ?? '');
      const uid = obj.metadata?.uid ?? '';
      if (ref.uid && uid !== ref.uid) {
        return { error: `${kind.singular} UID (${uid}) does not match claim (${ref.uid})` };
      }
      if (obj.metadata?.deletionTimestamp) {
        return { error: `${kind.kind} ${ns}/${ref.name} has been deleted` };
      }
    } catch (err) {
      if (err instanceof StatusError) return { error: err.status.message ?? 'not found' };
      throw err;
    }
  }
  const account = kube.serviceaccount ?? {};
  const extra: Record<string, string[]> = {};
  if (typeof claims.jti === 'string' && claims.jti) {
    extra['authentication.kubernetes.io/credential-id'] = [`JTI=${claims.jti}`];
  }
  if (kube.node?.name) extra['authentication.kubernetes.io/node-name'] = [kube.node.name];
  if (kube.node?.uid) extra['authentication.kubernetes.io/node-uid'] = [kube.node.uid];
  if (kube.pod?.name) extra['authentication.kubernetes.io/pod-name'] = [kube.pod.name];
  if (kube.pod?.uid) extra['authentication.kubernetes.io/pod-uid'] = [kube.pod.uid];
  const user: VirtualUser = {
    name: `system:serviceaccount:${namespace}:${account.name ?? ''}`,
    uid: account.uid ?? '',
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
    extra,
  };
  return { user, audiences: accepted };
}

/** Go's `%q` of a string slice: `["a" "b"]`. */
function goQuotedList(values: string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}
