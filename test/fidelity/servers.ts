/**
 * The two servers a corpus run compares: the reference control plane
 * (src/process/reference-server.ts) and watchmark, each in the same profile.
 * `envtest`: no controllers on either side (watchmark's namespace finaliser
 * lives in the server and is always on), and the ServiceAccount admission
 * plugin off on both, as envtest starts kube-apiserver. `cluster`: kube-controller-manager
 * beside kube-apiserver; beside watchmark its namespace and garbage collectors, the
 * per-namespace defaults (the `default` ServiceAccount, `kube-root-ca.crt`), the disruption
 * controller and the others names.ts lists, and the simulation's workload controllers
 * (Deployments, ReplicaSets, ReplicationControllers) with no nodes, scheduler or kubelet.
 */

import { randomBytes } from 'node:crypto';
import {
  findReferenceBinaries,
  type ReferenceServer,
  startReferenceServer,
} from '../../src/process/index.js';
import { type TestCluster, testCluster } from '../../src/testing/index.js';
import { releaseEndpoint } from './http.js';
import type { Server } from './runner.js';
import type { Profile } from './types.js';
import { startFidelityWebhook } from './webhook-server.js';

/**
 * The corpus's requests reach watchmark as the user they reach the reference as (the token file
 * reference-server.ts writes: `admin-token`, uid `admin-token`, group `system:masters`), so what a
 * server records of who asked (a CertificateSigningRequest's spec.username, uid and groups) is
 * compared like the rest.
 */
const SAME_USER_TOKEN = randomBytes(24).toString('hex');
const SAME_USER_TOKEN_FILE = {
  text: `${SAME_USER_TOKEN},admin-token,admin-token,"system:masters"\n`,
  name: 'fidelity-tokens.csv',
};

export interface ServerPair {
  reference: Server;
  watchmark: Server;
  referenceServer: ReferenceServer;
  watchmarkCluster: TestCluster;
  close(): Promise<void>;
}

/** Starts both servers of a profile side by side. */
export async function startPair(profile: Profile, log?: (line: string) => void): Promise<ServerPair> {
  const binaries = findReferenceBinaries();
  if (!binaries) throw new Error('the reference binaries are not built: run bash reference/build.sh');
  const webhook = await startFidelityWebhook();
  // What admission cases name in their configurations (webhook-server.ts).
  const vars = { webhookURL: webhook.url, webhookCA: webhook.caBundle };
  const [ref, wm] = await Promise.allSettled([
    startReferenceServer({ profile, binaries, log: log ?? null }),
    testCluster({
      tls: true,
      // The simulation's workload controllers without nodes, a scheduler or kubelets, as the reference.
      nodes: 0,
      controllers:
        profile === 'cluster'
          ? [
              'namespace',
              'gc',
              'serviceaccount',
              'root-ca-cert-publisher',
              'disruption',
              'endpoint',
              'endpointslice',
              'endpointslicemirroring',
              'clusterrole-aggregation',
              'job',
              'cronjob',
              'ttl-after-finished',
              'service-cidr',
              // kube-controller-manager's deployment, replicaset and replicationcontroller controllers.
              'simulation',
            ]
          : [],
      server: {
        tokenFile: SAME_USER_TOKEN_FILE,
        // The envtest reference runs without the ServiceAccount plugin, as envtest does.
        ...(profile === 'envtest' ? { disableAdmissionPlugins: ['ServiceAccount'] } : {}),
      },
    }),
  ]);
  if (ref.status === 'rejected' || wm.status === 'rejected') {
    if (ref.status === 'fulfilled') await ref.value.close();
    if (wm.status === 'fulfilled') await wm.value.close();
    await webhook.close();
    throw ref.status === 'rejected' ? ref.reason : (wm as PromiseRejectedResult).reason;
  }
  const referenceServer = ref.value;
  const watchmarkCluster = wm.value;
  const reference: Server = {
    name: 'reference',
    url: referenceServer.url,
    caPem: referenceServer.caPem,
    token: referenceServer.token,
    kubeconfigPath: referenceServer.kubeconfigPath,
    kubectl: binaries.kubectl,
    vars,
  };
  const watchmark: Server = {
    name: 'watchmark',
    url: watchmarkCluster.url,
    caPem: watchmarkCluster.server.caPem ?? '',
    token: SAME_USER_TOKEN,
    kubeconfigPath: watchmarkCluster.kubeconfigPath,
    kubectl: binaries.kubectl,
    vars,
  };
  return {
    reference,
    watchmark,
    referenceServer,
    watchmarkCluster,
    async close() {
      releaseEndpoint(reference);
      releaseEndpoint(watchmark);
      await Promise.all([referenceServer.close(), watchmarkCluster.close(), webhook.close()]);
    },
  };
}
