/**
 * What the server lends the resources answered and never stored (kinds' `virtual`): the pod
 * binding, the token authenticators, the authorizer, and the component probes a ComponentStatus
 * reports, built from a request's server.
 */
import { request } from 'node:https';
import type { AccessAttributes, AccessDecision, ComponentHealth, VirtualServices } from '../kinds/types.js';
import { DEFAULT_ISSUER, ServiceAccountTokenIssuer } from '../pki/service-account-token.js';
import { assignPod } from './pod-binding.js';
import type { ResourceContext } from './resource-context.js';

/**
 * The components kube-apiserver probes for ComponentStatuses (pkg/controlplane/instance.go
 * `componentStatusStorage.serversToValidate`): kube-scheduler and kube-controller-manager on
 * their default secure ports. watchmark runs neither as a process of its own, so they answer
 * here only when one was started beside it on these ports, as beside kube-apiserver.
 */
const PROBED: ReadonlyArray<{ name: string; port: number }> = [
  { name: 'scheduler', port: 10259 },
  { name: 'controller-manager', port: 10257 },
];

/** componentstatus validator.go `probeTimeOut`. */
const PROBE_TIMEOUT_MS = 20_000;

/**
 * What a server's resource context holds for them: the service-account token issuer (its key
 * made on first use) and, over etcd, the store's probe for ComponentStatus `etcd-0`.
 */
export function virtualResourceParts(store: {
  name: string;
  currentRevision(): Promise<unknown>;
}): Pick<ResourceContext, 'tokenIssuer' | 'storageProbe'> {
  return {
    tokenIssuer: new ServiceAccountTokenIssuer(),
    storageProbe: store.name === 'etcd' ? () => store.currentRevision().then(() => {}) : undefined,
  };
}

/** The services a virtual resource's answers use on `server`. */
export function virtualServices(server: ResourceContext): VirtualServices {
  const apiAudiences = [server.tokenIssuer?.issuer ?? DEFAULT_ISSUER];
  return {
    apiAudiences,
    async bindPod(namespace, binding, dryRun) {
      const pods = server.kinds.findByPlural('', 'v1', 'pods');
      if (!pods) throw new Error('pods are not served');
      await assignPod(server, pods, namespace, binding, dryRun);
    },
    async authenticateToken(token, audiences) {
      if (!server.authenticateToken) return {};
      return server.authenticateToken(token, audiences.length > 0 ? audiences : apiAudiences);
    },
    authorize,
    componentHealth: () => componentHealth(server),
  };
}

/**
 * watchmark's authorizer: every authenticated request is allowed (RBAC comes with issue 43). A
 * `system:masters` subject is allowed with no reason, as kube-apiserver's privileged-group
 * authorizer allows it; any other subject is allowed too, and the reason says why, where
 * kube-apiserver would ask RBAC.
 */
function authorize(attributes: AccessAttributes): AccessDecision {
  if (attributes.user.groups.includes('system:masters')) return { allowed: true, denied: false };
  return {
    allowed: true,
    denied: false,
    reason: 'watchmark allows every authenticated request (no RBAC authorizer)',
  };
}

/** Each component probed at once, etcd first when the store is etcd. */
async function componentHealth(server: ResourceContext): Promise<ComponentHealth[]> {
  const probes = PROBED.map(({ name, port }) => probeHealthz(name, port));
  if (server.storageProbe) probes.push(probeStorage(server.storageProbe));
  return Promise.all(probes);
}

/** validator.go `EtcdServer.DoServerCheck`: `ok`, or the store's error. */
async function probeStorage(probe: () => Promise<void>): Promise<ComponentHealth> {
  try {
    await probe();
    return { name: 'etcd-0', status: 'True', message: 'ok', error: '' };
  } catch (err) {
    return { name: 'etcd-0', status: 'False', message: '', error: (err as Error).message };
  }
}

/**
 * validator.go `HttpServer.DoServerCheck` through pkg/probe/http: `GET https://127.0.0.1:PORT/healthz`
 * (no certificate check); a 2xx or 3xx is healthy with the body as message; a failure to connect
 * is unhealthy with Go's `Get "URL": dial tcp ADDR: connect: connection refused`.
 */
export function probeHealthz(name: string, port: number, host = '127.0.0.1'): Promise<ComponentHealth> {
  const url = `https://${host}:${port}/healthz`;
  return new Promise((resolve) => {
    const req = request(url, { rejectUnauthorized: false, timeout: PROBE_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const code = res.statusCode ?? 0;
        if (code >= 200 && code < 400) resolve({ name, status: 'True', message: body, error: '' });
        else
          resolve({
            name,
            status: 'False',
            message: `HTTP probe failed with statuscode: ${code}`,
            error: '',
          });
      });
      res.on('error', (err) => resolve(failed(name, url, goDialError(err, host, port))));
    });
    req.on('timeout', () =>
      req.destroy(new Error('context deadline exceeded (Client.Timeout exceeded while awaiting headers)')),
    );
    req.on('error', (err) => resolve(failed(name, url, goDialError(err, host, port))));
    req.end();
  });
}

function failed(name: string, url: string, why: string): ComponentHealth {
  return { name, status: 'False', message: `Get ${JSON.stringify(url)}: ${why}`, error: '' };
}

/** A Node socket error in the words of Go's net package. */
function goDialError(err: Error & { code?: string }, host: string, port: number): string {
  if (err.code === 'ECONNREFUSED') return `dial tcp ${host}:${port}: connect: connection refused`;
  return err.message;
}
