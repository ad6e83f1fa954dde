/**
 * What the ServiceAccount admission plugin does to and checks of a pod, given its
 * ServiceAccount (k8s.io/kubernetes plugin/pkg/admission/serviceaccount/admission.go, v1.37.2):
 * the token volume and its mounts, the image pull secrets copied, the secrets an account with
 * `kubernetes.io/enforce-mountable-secrets` lets a pod reference, and the mirror pods' limits.
 * The objects are v1 JSON; the plugin's lookups and errors are service-account.ts's.
 */
import { arr, isObject, type JsonObject, objects, rec, str } from '../kinds/access.js';

/** The prefix of the token volume's name (`ServiceAccountVolumeName`), 5 random characters follow. */
export const TOKEN_VOLUME_PREFIX = 'kube-api-access-';

/** Where the token, CA and namespace are mounted (`DefaultAPITokenMountPath`). */
export const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';

/** The annotation that makes a ServiceAccount limit the secrets its pods reference. */
export const ENFORCE_MOUNTABLE_SECRETS = 'kubernetes.io/enforce-mountable-secrets';

/** The annotation the kubelet puts on a static pod's mirror (`MirrorPodAnnotationKey`). */
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

/**
 * The projected volume's lifetime of the token: `serviceaccount.WarnOnlyBoundTokenExpirationSeconds`
 * (pkg/serviceaccount/claims.go), an hour and 7 seconds, which the token issuer recognises as
 * the legacy default to extend and warn about.
 */
const TOKEN_EXPIRATION_SECONDS = 3607;

/** True when `pod` is a static pod's mirror (the annotation is there, whatever its value). */
export function isMirrorPod(pod: JsonObject): boolean {
  return Object.hasOwn(rec(rec(pod.metadata).annotations), MIRROR_POD_ANNOTATION);
}

/** `shouldAutomount`: the pod's `automountServiceAccountToken` wins, then the account's, else true. */
export function shouldAutomount(account: JsonObject, pod: JsonObject): boolean {
  const podChoice = rec(pod.spec).automountServiceAccountToken;
  if (typeof podChoice === 'boolean') return podChoice;
  if (typeof account.automountServiceAccountToken === 'boolean') return account.automountServiceAccountToken;
  return true;
}

/**
 * `TokenVolumeSource`: the token (path `token`), the cluster's CA (`kube-root-ca.crt`'s
 * `ca.crt`) and the namespace, with the default mode written out (kubernetes#104464).
 */
export function tokenVolumeSource(): JsonObject {
  return {
    sources: [
      { serviceAccountToken: { expirationSeconds: TOKEN_EXPIRATION_SECONDS, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      {
        downwardAPI: {
          items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
        },
      },
    ],
    defaultMode: 420,
  };
}

/**
 * `mountServiceAccountToken`: every init container and container without a mount at
 * {@link TOKEN_MOUNT_PATH} gets one, read-only, of the token volume: the pod's first volume named
 * `kube-api-access-*` when it has one, else a new projected volume named by `generateName`
 * (added only when some container mounts it). Ephemeral containers get none.
 */
export function mountServiceAccountToken(pod: JsonObject, generateName: (base: string) => string): void {
  const spec = rec(pod.spec);
  const existing = objects(spec.volumes).find((v) => str(v.name).startsWith(TOKEN_VOLUME_PREFIX));
  const volumeName = existing ? str(existing.name) : generateName(TOKEN_VOLUME_PREFIX);
  let mounted = false;
  for (const key of ['initContainers', 'containers']) {
    for (const container of objects(spec[key])) {
      const mounts = objects(container.volumeMounts);
      if (mounts.some((m) => str(m.mountPath) === TOKEN_MOUNT_PATH)) continue;
      container.volumeMounts = [
        ...arr(container.volumeMounts),
        { name: volumeName, readOnly: true, mountPath: TOKEN_MOUNT_PATH },
      ];
      mounted = true;
    }
  }
  if (existing || !mounted) return;
  spec.volumes = [...arr(spec.volumes), { name: volumeName, projected: tokenVolumeSource() }];
}

/** `Admit`: a pod with no image pull secrets gets the account's (their names only). */
export function copyImagePullSecrets(account: JsonObject, pod: JsonObject): void {
  const spec = rec(pod.spec);
  if (arr(spec.imagePullSecrets).length > 0) return;
  const copied = arr(account.imagePullSecrets).map((ref) => {
    const name = str(rec(ref).name);
    return name === '' ? {} : { name };
  });
  // An empty Go slice is omitted from the JSON.
  if (copied.length > 0) spec.imagePullSecrets = copied;
  else delete spec.imagePullSecrets;
}

/**
 * `enforceMountableSecrets`: the account's annotation read as Go's `strconv.ParseBool` reads it
 * (anything else is false); the plugin's global `LimitSecretReferences` is off in kube-apiserver.
 */
export function enforcesMountableSecrets(account: JsonObject): boolean {
  const value = rec(rec(account.metadata).annotations)[ENFORCE_MOUNTABLE_SECRETS];
  return typeof value === 'string' && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value);
}

/** The secret names the account lists (`secrets[].name`). */
function mountableSecrets(account: JsonObject): Set<string> {
  return new Set(objects(account.secrets).map((s) => str(s.name)));
}

/**
 * The first env or envFrom secret reference of `containers` the account does not list, worded
 * as `limitSecretReferences` words it (`what` is "init container", "container" or "ephemeral
 * container"); undefined when there is none.
 */
function containerSecretRefusal(
  containers: JsonObject[],
  what: string,
  allowed: Set<string>,
  account: string,
): string | undefined {
  const tail = `is not allowed because service account ${account} does not reference that secret`;
  for (const c of containers) {
    for (const env of objects(c.env)) {
      const ref = rec(env.valueFrom).secretKeyRef;
      if (isObject(ref) && !allowed.has(str(ref.name)))
        return `${what} ${str(c.name)} with envVar ${str(env.name)} referencing secret.secretName="${str(ref.name)}" ${tail}`;
    }
    for (const from of objects(c.envFrom)) {
      if (isObject(from.secretRef) && !allowed.has(str(from.secretRef.name)))
        return `${what} ${str(c.name)} with envFrom referencing secret.secretName="${str(from.secretRef.name)}" ${tail}`;
    }
  }
  return undefined;
}

/**
 * `limitSecretReferences`: what a pod of an account that enforces mountable secrets may not
 * reference (secret volumes, the init containers' and containers' env and envFrom secrets
 * beyond the account's `secrets`, image pull secrets beyond its `imagePullSecrets`), as the
 * plugin words the first one found; undefined when the pod keeps to them.
 */
export function secretReferenceRefusal(account: JsonObject, pod: JsonObject): string | undefined {
  const name = str(rec(account.metadata).name);
  const allowed = mountableSecrets(account);
  const spec = rec(pod.spec);
  for (const volume of objects(spec.volumes)) {
    if (!isObject(volume.secret)) continue;
    const secret = str(volume.secret.secretName);
    if (!allowed.has(secret))
      return `volume with secret.secretName="${secret}" is not allowed because service account ${name} does not reference that secret`;
  }
  const refusal =
    containerSecretRefusal(objects(spec.initContainers), 'init container', allowed, name) ??
    containerSecretRefusal(objects(spec.containers), 'container', allowed, name);
  if (refusal) return refusal;
  const pullSecrets = new Set(objects(account.imagePullSecrets).map((s) => str(s.name)));
  const pulls = objects(spec.imagePullSecrets);
  for (const [i, ref] of pulls.entries()) {
    if (!pullSecrets.has(str(ref.name)))
      return `imagePullSecrets[${i}].name="${str(ref.name)}" is not allowed because service account ${name} does not reference that imagePullSecret`;
  }
  return undefined;
}

/** `limitEphemeralContainerSecretReferences`: the ephemeral containers' env and envFrom secrets. */
export function ephemeralSecretReferenceRefusal(account: JsonObject, pod: JsonObject): string | undefined {
  const name = str(rec(account.metadata).name);
  const containers = objects(rec(pod.spec).ephemeralContainers);
  return containerSecretRefusal(containers, 'ephemeral container', mountableSecrets(account), name);
}

/** The `secretRef` volume sources `podutil.VisitPodSecretNames` reads, v1 field names. */
const SECRET_REF_SOURCES = ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'];

/** True when `pod` names any secret, as `podutil.VisitPodSecretNames` visits them (empty names skipped). */
function referencesSecrets(pod: JsonObject): boolean {
  const spec = rec(pod.spec);
  const names: unknown[] = objects(spec.imagePullSecrets).map((r) => r.name);
  for (const key of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const c of objects(spec[key])) {
      for (const from of objects(c.envFrom)) names.push(rec(from.secretRef).name);
      for (const env of objects(c.env)) names.push(rec(rec(env.valueFrom).secretKeyRef).name);
    }
  }
  for (const v of objects(spec.volumes)) {
    names.push(
      rec(v.azureFile).secretName,
      rec(v.secret).secretName,
      rec(rec(v.csi).nodePublishSecretRef).name,
    );
    for (const key of SECRET_REF_SOURCES) names.push(rec(rec(v[key]).secretRef).name);
    for (const source of objects(rec(v.projected).sources)) names.push(rec(source.secret).name);
  }
  return names.some((n) => typeof n === 'string' && n !== '');
}

/**
 * `Validate` of a mirror pod: it may name no service account, reference no secret and project
 * no service account token (the kubelet would delete a mirror whose spec admission changed, so
 * the plugin refuses rather than mutates). The refusal's words, or undefined.
 */
export function mirrorPodRefusal(pod: JsonObject): string | undefined {
  const spec = rec(pod.spec);
  if (str(spec.serviceAccountName) !== '') return 'a mirror pod may not reference service accounts';
  if (referencesSecrets(pod)) return 'a mirror pod may not reference secrets';
  for (const v of objects(spec.volumes)) {
    if (objects(rec(v.projected).sources).some((s) => isObject(s.serviceAccountToken)))
      return 'a mirror pod may not use ServiceAccountToken volume projections';
  }
  return undefined;
}
