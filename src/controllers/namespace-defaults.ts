/**
 * The two per-namespace objects kube-controller-manager keeps, as {@link NamespaceObjectSpec}s:
 * the `default` ServiceAccount (pkg/controller/serviceaccount/serviceaccounts_controller.go
 * `syncNamespace`: created when missing, never changed) and the `kube-root-ca.crt` ConfigMap
 * (pkg/controller/certificates/rootcacertpublisher/publisher.go `syncNamespace`: the CA bundle
 * pods use to verify the API server, put back when deleted or changed).
 */
import type { KubeObject } from '../protocol/events.js';
import type { NamespaceObjectSpec } from './namespace-objects.js';

/** The `default` ServiceAccount of every namespace. */
export const DEFAULT_SERVICE_ACCOUNT: NamespaceObjectSpec = {
  controller: 'serviceaccount-controller',
  plural: 'serviceaccounts',
  name: 'default',
  desired: (namespace) => ({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'default', namespace },
  }),
};

/** The ConfigMap's annotation, in the publisher's words (publisher.go `DescriptionAnnotation`). */
export const ROOT_CA_DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

/**
 * The `kube-root-ca.crt` ConfigMap holding `caPem` (kube-controller-manager's `--root-ca-file`,
 * or its kubeconfig's CA): its data and annotation are put back when changed, other changes
 * (labels, other annotations) are kept, as `syncNamespace` does.
 */
export function rootCaConfigMap(caPem: string): NamespaceObjectSpec {
  const name = 'kube-root-ca.crt';
  return {
    controller: 'root-ca-certificate-publisher-controller',
    plural: 'configmaps',
    name,
    desired: (namespace) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace, annotations: { 'kubernetes.io/description': ROOT_CA_DESCRIPTION } },
      data: { 'ca.crt': caPem },
    }),
    repair(stored: KubeObject): KubeObject | undefined {
      const data = (stored.data ?? {}) as Record<string, string>;
      const annotations = stored.metadata?.annotations ?? {};
      const sameData = Object.keys(data).length === 1 && data['ca.crt'] === caPem;
      // Any description will do; only a missing one is put back.
      if (sameData && annotations['kubernetes.io/description']) return undefined;
      return {
        ...stored,
        metadata: {
          ...stored.metadata,
          annotations: { ...annotations, 'kubernetes.io/description': ROOT_CA_DESCRIPTION },
        },
        data: { 'ca.crt': caPem },
      };
    },
  };
}
