/**
 * The built-in admission plugins a server runs, and `--disable-admission-plugins` turning some
 * off, named as kube-apiserver names them (pkg/kubeapiserver/options/plugins.go
 * `AllOrderedPlugins`). controller-runtime's envtest starts kube-apiserver with
 * `--disable-admission-plugins=ServiceAccount` (it runs no controller that makes the `default`
 * ServiceAccount the plugin would require), so its pods name no service account; a server
 * started the same way answers as envtest does.
 *
 * watchmark runs these plugins as part of its kinds: Priority and DefaultTolerationSeconds in a
 * Pod's defaults (core/pod/defaults.ts), TaintNodesByCondition as a Node's `admitCreate`
 * (core/node.ts); ServiceAccount, which reads the pod's account, runs in the server's admission
 * (admission/service-account.ts). Each can be turned off, and each kind a plugin touches
 * says what turning it off changes (`ResourceKind.withAdmissionPluginsOff`). NamespaceLifecycle and the
 * webhook plugins are woven into the write path and stay on: asking to disable them is refused
 * rather than ignored. Every other name kube-apiserver knows is a plugin watchmark never runs,
 * so disabling it changes nothing and is accepted; a name kube-apiserver does not know is
 * refused with its words (k8s.io/apiserver pkg/server/options/admission.go `Validate`).
 */
import type { ResourceKind } from './types.js';

/** Every plugin name kube-apiserver v1.37 registers (`AllOrderedPlugins`). */
const KUBE_PLUGINS: ReadonlySet<string> = new Set([
  'AlwaysAdmit',
  'NamespaceAutoProvision',
  'NamespaceLifecycle',
  'NamespaceExists',
  'LimitPodHardAntiAffinityTopology',
  'LimitRanger',
  'ServiceAccount',
  'NodeRestriction',
  'TaintNodesByCondition',
  'AlwaysPullImages',
  'ImagePolicyWebhook',
  'PodSecurity',
  'PodNodeSelector',
  'Priority',
  'DefaultTolerationSeconds',
  'PodTolerationRestriction',
  'EventRateLimit',
  'ExtendedResourceToleration',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'PodGroupProtection',
  'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'DenyServiceExternalIPs',
  'PodTopologyLabels',
  'NodeDeclaredFeatureValidator',
  'PodResizeValidator',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'AlwaysDeny',
]);

/** The plugins watchmark runs and can turn off. */
export const DISABLEABLE_ADMISSION_PLUGINS = [
  'ServiceAccount',
  'Priority',
  'DefaultTolerationSeconds',
  'TaintNodesByCondition',
] as const;

/** The plugins watchmark runs inside its write path, which stay on. */
const ALWAYS_ON = new Set(['NamespaceLifecycle', 'MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook']);

/**
 * Checks `names` as kube-apiserver checks `--disable-admission-plugins` and returns them as a
 * set; throws an Error whose message says which name is wrong and why.
 */
export function disabledAdmissionPlugins(names: readonly string[] = []): ReadonlySet<string> {
  for (const name of names) {
    if (!KUBE_PLUGINS.has(name)) throw new Error(`disable-admission-plugins plugin "${name}" is unknown`);
    if (ALWAYS_ON.has(name)) {
      throw new Error(
        `disable-admission-plugins plugin "${name}" cannot be disabled in watchmark (it can disable ${DISABLEABLE_ADMISSION_PLUGINS.join(', ')})`,
      );
    }
  }
  return new Set(names);
}

/**
 * `kinds` as a server with the plugins in `disabled` off serves them: each kind a plugin touches
 * changed as its own entry says (the Pod's defaults without those plugins' additions, the Node
 * without its create-time taint). Kinds no plugin touches are the same objects.
 */
export function kindsWithAdmission(
  kinds: readonly ResourceKind[],
  disabled: ReadonlySet<string>,
): ResourceKind[] {
  if (disabled.size === 0) return [...kinds];
  return kinds.map((k) => {
    const changed = k.withAdmissionPluginsOff?.(disabled);
    return changed ? { ...k, ...changed } : k;
  });
}
