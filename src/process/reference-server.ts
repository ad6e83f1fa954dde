/**
 * The reference Kubernetes control plane, for the fidelity corpus, the tests
 * and the benchmarks: the real etcd 3.7 and kube-apiserver 1.37 (and, in the
 * `cluster` profile, kube-controller-manager) that `reference/build.sh`
 * builds from Go modules into a cache folder outside the repository. Each
 * start gets free loopback ports, a data folder of its own on tmpfs, a fresh
 * CA with an admin client certificate (`O=system:masters`), a static admin
 * token, and service-account signing keys; `close()` leaves nothing behind.
 *
 * The two profiles are the two shapes users test against today:
 * - `envtest`: controller-runtime's envtest flag set
 *   (pkg/internal/testing/controlplane/apiserver.go `defaultArgs`): no
 *   controller manager, ServiceAccount admission off.
 * - `cluster`: kube-controller-manager beside it, running every controller
 *   that needs no kubelet, so namespaces terminate, garbage is collected,
 *   ServiceAccounts and their CA bundles appear and workloads are reconciled.
 *
 * Every child runs tethered (`TetheredProcess`): if this process dies, even
 * by SIGKILL, they die with it.
 */

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildKubeconfig,
  generateCertificateAuthority,
  generateServingCertificates,
  issueClientCertificate,
} from '../server/index.js';
import {
  findReferenceBinaries,
  REFERENCE_RELEASE,
  type ReferenceBinaries,
  referenceCacheDir,
} from './reference-binaries.js';
import { deadlineFrom, getStatus, mib, residentBytes, spawnLogged, waitReady } from './reference-probes.js';
import { type EtcdCluster, startEtcdCluster } from './spawn/etcd-launcher.js';
import { freePort } from './spawn/free-port.js';
import type { TetheredProcess } from './spawn/tethered-process.js';

/** Which control plane to start. */
export type ReferenceProfile = 'envtest' | 'cluster';

/**
 * kube-controller-manager's controllers that need no kubelet (names as its
 * `--controllers` help lists them at 1.37). Node lifecycle, IPAM, PV binding,
 * attach/detach and the cloud controllers are left out: with no kubelet they
 * would only mark nodes NotReady or wait forever.
 */
export const CLUSTER_CONTROLLERS = [
  'namespace-controller',
  'garbage-collector-controller',
  'serviceaccount-controller',
  'serviceaccount-token-controller',
  'root-ca-certificate-publisher-controller',
  'endpoints-controller',
  'endpointslice-controller',
  'endpointslice-mirroring-controller',
  'deployment-controller',
  'replicaset-controller',
  'replicationcontroller-controller',
  'statefulset-controller',
  'daemonset-controller',
  'job-controller',
  'cronjob-controller',
  'disruption-controller',
  'clusterrole-aggregation-controller',
  'ttl-after-finished-controller',
  'resourcequota-controller',
  'pod-garbage-collector-controller',
  'legacy-serviceaccount-token-cleaner-controller',
  'persistentvolume-binder-controller',
  'persistentvolume-protection-controller',
  'persistentvolumeclaim-protection-controller',
  'volumeattributesclass-protection-controller',
  'ephemeral-volume-controller',
  'service-cidr-controller',
  'validatingadmissionpolicy-status-controller',
  'storage-version-migrator-controller',
  'certificatesigningrequest-cleaner-controller',
  'podcertificaterequest-cleaner-controller',
  'resourceclaim-controller',
  'ttl-controller',
];

/** Options of {@link startReferenceServer}. */
export interface ReferenceServerOptions {
  /** `envtest` (default) or `cluster`. */
  profile?: ReferenceProfile;
  /** The binaries (default: {@link findReferenceBinaries}). */
  binaries?: ReferenceBinaries;
  /** More kube-apiserver flags, appended (a repeated flag wins over the default). */
  apiServerArgs?: string[];
  /** More kube-controller-manager flags, appended. */
  controllerManagerArgs?: string[];
  /** Give up starting after this long (default 120 s: a cold start on 2 loaded cores). */
  startTimeoutMs?: number;
  /** Where progress lines go (default: stderr); `null` for none. */
  log?: ((line: string) => void) | null;
}

/** Resident memory of each process, in bytes (0 once gone). */
export interface ReferenceMemory {
  etcd: number;
  apiServer: number;
  controllerManager: number;
}

/** A running reference control plane. */
export interface ReferenceServer {
  readonly profile: ReferenceProfile;
  /** `https://127.0.0.1:PORT`. */
  readonly url: string;
  /** The CA that signed the serving certificate. */
  readonly caPem: string;
  /** A static token of a `system:masters` user (`--token-auth-file`). */
  readonly token: string;
  /** An admin client certificate (`CN=admin, O=system:masters`) and its key. */
  readonly clientCertPem: string;
  readonly clientKeyPem: string;
  /** A kubeconfig with the admin client certificate, written in the data folder (mode 0600). */
  readonly kubeconfigPath: string;
  readonly etcdEndpoint: string;
  readonly binaries: ReferenceBinaries;
  /** Milliseconds from the call until etcd was healthy, /readyz answered ok, and (cluster) the controllers served. */
  readonly timings: { etcdMs: number; apiServerMs: number; controllerManagerMs: number; totalMs: number };
  /** kube-apiserver's log (its stderr), for a case that differs. */
  readonly apiServerLog: string;
  /** Resident memory of the processes now. */
  memory(): Promise<ReferenceMemory>;
  /** Stops every process, API servers before the etcd they write to, and removes the data folder. */
  close(): Promise<void>;
}

/** kubeadm's default, and watchmark's: the `kubernetes` Service is 10.96.0.1 on both. */
const SERVICE_CIDR = '10.96.0.0/12';

/**
 * Starts etcd and kube-apiserver (and kube-controller-manager in the `cluster`
 * profile) on free loopback ports and resolves once `/readyz` answers ok (and,
 * in `cluster`, once the `default` ServiceAccount exists, proof that the
 * controllers run). Throws with the tail of the failing process's log.
 */
export async function startReferenceServer(opts: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const profile = opts.profile ?? 'envtest';
  const binaries = opts.binaries ?? findReferenceBinaries();
  if (!binaries) {
    throw new Error(
      `the reference binaries are not built (${referenceCacheDir()}): run bash reference/build.sh`,
    );
  }
  const log = opts.log === null ? () => {} : (opts.log ?? ((line) => process.stderr.write(`${line}\n`)));
  const timeoutMs = opts.startTimeoutMs ?? 120_000;
  const started = performance.now();
  const dataDir = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'watchmark-reference-'));
  const children: TetheredProcess[] = [];
  let etcd: EtcdCluster | undefined;
  const close = async () => {
    for (const child of children.reverse()) await child.stop(5_000);
    await etcd?.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    etcd = await startEtcdCluster({ binary: binaries.etcd, dataDir: join(dataDir, 'etcd') });
    const etcdMs = performance.now() - started;

    const files = await writeCredentials(dataDir);
    const port = await freePort();
    const url = `https://127.0.0.1:${port}`;
    const apiServerArgs = [
      `--etcd-servers=${etcd.endpoints[0]}`,
      `--secure-port=${port}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      // 1.37 refuses a loopback advertise address in the endpoint reconciler
      // ("may not be in the loopback range"); the kubernetes Service is still made.
      '--endpoint-reconciler-type=none',
      `--service-cluster-ip-range=${SERVICE_CIDR}`,
      '--allow-privileged=true',
      '--authorization-mode=RBAC',
      `--cert-dir=${join(dataDir, 'certs')}`,
      `--tls-cert-file=${files.servingCert}`,
      `--tls-private-key-file=${files.servingKey}`,
      `--client-ca-file=${files.clientCa}`,
      `--token-auth-file=${files.tokens}`,
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      `--service-account-key-file=${files.saPublic}`,
      `--service-account-signing-key-file=${files.saPrivate}`,
      ...(profile === 'envtest' ? ['--disable-admission-plugins=ServiceAccount'] : []),
      ...(opts.apiServerArgs ?? []),
    ];
    const apiServerLog = join(dataDir, 'kube-apiserver.log');
    children.push(await spawnLogged(binaries.kubeApiserver, apiServerArgs, apiServerLog));
    const client = { url, caPem: files.caPem, token: files.token };
    await waitReady(
      'kube-apiserver /readyz',
      () => getStatus(client, '/readyz'),
      children[0],
      apiServerLog,
      deadlineFrom(started, timeoutMs),
    );
    const apiServerMs = performance.now() - started;

    const kubeconfigPath = join(dataDir, 'admin.kubeconfig');
    await writeFile(
      kubeconfigPath,
      buildKubeconfig({
        server: url,
        caPem: files.caPem,
        clientCertPem: files.admin.certPem,
        clientKeyPem: files.admin.keyPem,
        name: 'reference',
      }),
      { mode: 0o600 },
    );

    let controllerManagerMs = 0;
    if (profile === 'cluster') {
      const kcmLog = join(dataDir, 'kube-controller-manager.log');
      const kcmArgs = [
        `--kubeconfig=${kubeconfigPath}`,
        '--leader-elect=false',
        `--secure-port=${await freePort()}`,
        '--bind-address=127.0.0.1',
        `--service-account-private-key-file=${files.saPrivate}`,
        `--root-ca-file=${files.servingCa}`,
        '--use-service-account-credentials=false',
        `--service-cluster-ip-range=${SERVICE_CIDR}`,
        `--controllers=${CLUSTER_CONTROLLERS.join(',')}`,
        ...(opts.controllerManagerArgs ?? []),
      ];
      children.push(await spawnLogged(binaries.kubeControllerManager, kcmArgs, kcmLog));
      await waitReady(
        'the default ServiceAccount (kube-controller-manager running)',
        () => getStatus(client, '/api/v1/namespaces/default/serviceaccounts/default'),
        children[1],
        kcmLog,
        deadlineFrom(started, timeoutMs),
      );
      controllerManagerMs = performance.now() - started;
    }
    const totalMs = performance.now() - started;
    const pids = () => ({
      etcd: etcd?.members[0]?.pid,
      apiServer: children[0]?.pid,
      controllerManager: children[1]?.pid,
    });
    const server: ReferenceServer = {
      profile,
      url,
      caPem: files.caPem,
      token: files.token,
      clientCertPem: files.admin.certPem,
      clientKeyPem: files.admin.keyPem,
      kubeconfigPath,
      etcdEndpoint: etcd.endpoints[0],
      binaries,
      timings: { etcdMs, apiServerMs, controllerManagerMs, totalMs },
      apiServerLog,
      async memory() {
        const p = pids();
        return {
          etcd: await residentBytes(p.etcd),
          apiServer: await residentBytes(p.apiServer),
          controllerManager: await residentBytes(p.controllerManager),
        };
      },
      close,
    };
    const memory = await server.memory();
    log(
      `reference ${profile} (kube-apiserver ${REFERENCE_RELEASE.kube}, etcd ${REFERENCE_RELEASE.etcd}) ready at ${url} ` +
        `in ${Math.round(totalMs)} ms (etcd ${Math.round(etcdMs)} ms, kube-apiserver ${Math.round(apiServerMs - etcdMs)} ms` +
        (profile === 'cluster' ? `, controllers ${Math.round(controllerManagerMs - apiServerMs)} ms` : '') +
        `); RSS etcd ${mib(memory.etcd)}, kube-apiserver ${mib(memory.apiServer)}` +
        (profile === 'cluster' ? `, kube-controller-manager ${mib(memory.controllerManager)}` : ''),
    );
    return server;
  } catch (err) {
    await close();
    throw err;
  }
}

/** The files kube-apiserver and kube-controller-manager read: certificates, keys, the token file. */
async function writeCredentials(dir: string) {
  const serving = await generateServingCertificates({ hosts: ['127.0.0.1', 'localhost'] });
  const clientCa = await generateCertificateAuthority('watchmark-reference-client-ca');
  const admin = await issueClientCertificate(clientCa, {
    commonName: 'admin',
    organizations: ['system:masters'],
  });
  const sa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const token = randomBytes(24).toString('hex');
  const path = (name: string) => join(dir, name);
  const files = {
    servingCa: path('serving-ca.crt'),
    servingCert: path('serving.crt'),
    servingKey: path('serving.key'),
    clientCa: path('client-ca.crt'),
    saPublic: path('sa.pub'),
    saPrivate: path('sa.key'),
    tokens: path('tokens.csv'),
  };
  await Promise.all([
    writeFile(files.servingCa, serving.caCertPem),
    writeFile(files.servingCert, serving.certPem),
    writeFile(files.servingKey, serving.keyPem, { mode: 0o600 }),
    writeFile(files.clientCa, clientCa.certPem),
    writeFile(files.saPublic, sa.publicKey.export({ type: 'spki', format: 'pem' }) as string),
    writeFile(files.saPrivate, sa.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, {
      mode: 0o600,
    }),
    // token,user,uid,"group1,group2"
    writeFile(files.tokens, `${token},admin-token,admin-token,"system:masters"\n`, { mode: 0o600 }),
  ]);
  return { ...files, caPem: serving.caCertPem, token, admin };
}
