/**
 * What structured-merge-diff reads off the built-in types' OpenAPI: per type (by OpenAPI name, every
 * type of API_TYPES that has any), the type's own `x-kubernetes-map-type` (+structType/+mapType),
 * whether the spec gives it no `type` at all (`untyped`), and per field the
 * `x-kubernetes-list-type`, `x-kubernetes-list-map-keys`, `x-kubernetes-patch-strategy` and
 * `x-kubernetes-patch-merge-key` of a list (with, on a keyed list, the `default` its item type's
 * key fields have), or the `x-kubernetes-map-type` of anything else. Facts only.
 *
 * GENERATED, do not edit: from the OpenAPI v3 documents Kubernetes v1.37.2 publishes
 * (api/openapi-spec/v3/*.json of the Go module k8s.io/kubernetes@v1.37.2,
 * h1:A2VDEiObzkYqFTKhSsn0ZEb0RlLEXpHWj93gi2HqEwE=, the source of API_TYPES too); Apache-2.0.
 * Generated 2026-12-07 by test/server/ssa/builtin-merge.test.ts (WATCHMARK_REGEN_SSA=<folder of
 * the v3 documents>).
 */

/** The merge facts of one field, each the extension's value as the spec has it. */
export interface FieldMergeFacts {
  readonly listType?: string;
  readonly listMapKeys?: readonly string[];
  readonly patchStrategy?: string;
  readonly patchMergeKey?: string;
  readonly mapType?: string;
  /**
   * On a keyed list: the `default` of each key field of the item type that has one (smd keys an
   * item omitting the field by it).
   */
  readonly keyDefaults?: Readonly<Record<string, unknown>>;
}

/** The merge facts of one type. */
export interface TypeMergeFacts {
  /** The spec's schema has no `type` (IntOrString, apiextensions JSON and its unions). */
  readonly untyped?: true;
  readonly mapType?: string;
  readonly fields?: Readonly<Record<string, FieldMergeFacts>>;
}

/** Every type with a fact, by its OpenAPI name. */
export const BUILTIN_MERGE: Readonly<Record<string, TypeMergeFacts>> = {
  'io.k8s.api.admissionregistration.v1.MatchResources': {
    mapType: 'atomic',
    fields: {
      excludeResourceRules: {
        listType: 'atomic',
      },
      resourceRules: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicySpec': {
    fields: {
      matchConditions: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
      mutations: {
        listType: 'atomic',
      },
      variables: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.admissionregistration.v1.MutatingWebhook': {
    fields: {
      admissionReviewVersions: {
        listType: 'atomic',
      },
      matchConditions: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
      rules: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration': {
    fields: {
      webhooks: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
    },
  },
  'io.k8s.api.admissionregistration.v1.NamedRuleWithOperations': {
    mapType: 'atomic',
    fields: {
      apiGroups: {
        listType: 'atomic',
      },
      apiVersions: {
        listType: 'atomic',
      },
      operations: {
        listType: 'atomic',
      },
      resourceNames: {
        listType: 'atomic',
      },
      resources: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.admissionregistration.v1.ParamKind': {
    mapType: 'atomic',
  },
  'io.k8s.api.admissionregistration.v1.ParamRef': {
    mapType: 'atomic',
  },
  'io.k8s.api.admissionregistration.v1.RuleWithOperations': {
    fields: {
      apiGroups: {
        listType: 'atomic',
      },
      apiVersions: {
        listType: 'atomic',
      },
      operations: {
        listType: 'atomic',
      },
      resources: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.admissionregistration.v1.TypeChecking': {
    fields: {
      expressionWarnings: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec': {
    fields: {
      validationActions: {
        listType: 'set',
      },
    },
  },
  'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicySpec': {
    fields: {
      auditAnnotations: {
        listType: 'atomic',
      },
      matchConditions: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
      validations: {
        listType: 'atomic',
      },
      variables: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
    },
  },
  'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        keyDefaults: {
          type: '',
        },
      },
    },
  },
  'io.k8s.api.admissionregistration.v1.ValidatingWebhook': {
    fields: {
      admissionReviewVersions: {
        listType: 'atomic',
      },
      matchConditions: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
      rules: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration': {
    fields: {
      webhooks: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
    },
  },
  'io.k8s.api.admissionregistration.v1.Variable': {
    mapType: 'atomic',
  },
  'io.k8s.api.apps.v1.DaemonSetStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        keyDefaults: {
          type: '',
        },
      },
    },
  },
  'io.k8s.api.apps.v1.DeploymentStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        keyDefaults: {
          type: '',
        },
      },
    },
  },
  'io.k8s.api.apps.v1.ReplicaSetStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        keyDefaults: {
          type: '',
        },
      },
    },
  },
  'io.k8s.api.apps.v1.StatefulSetSpec': {
    fields: {
      volumeClaimTemplates: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.apps.v1.StatefulSetStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        keyDefaults: {
          type: '',
        },
      },
    },
  },
  'io.k8s.api.authentication.v1.TokenRequestSpec': {
    fields: {
      audiences: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.authentication.v1.TokenReviewSpec': {
    fields: {
      audiences: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.authentication.v1.TokenReviewStatus': {
    fields: {
      audiences: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.authentication.v1.UserInfo': {
    fields: {
      groups: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.authorization.v1.FieldSelectorAttributes': {
    fields: {
      requirements: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.authorization.v1.LabelSelectorAttributes': {
    fields: {
      requirements: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.authorization.v1.NonResourceRule': {
    fields: {
      nonResourceURLs: {
        listType: 'atomic',
      },
      verbs: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.authorization.v1.ResourceRule': {
    fields: {
      apiGroups: {
        listType: 'atomic',
      },
      resourceNames: {
        listType: 'atomic',
      },
      resources: {
        listType: 'atomic',
      },
      verbs: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.authorization.v1.SubjectAccessReviewSpec': {
    fields: {
      groups: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.authorization.v1.SubjectRulesReviewStatus': {
    fields: {
      nonResourceRules: {
        listType: 'atomic',
      },
      resourceRules: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.autoscaling.v1.CrossVersionObjectReference': {
    mapType: 'atomic',
  },
  'io.k8s.api.autoscaling.v2.HPAScalingRules': {
    fields: {
      policies: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec': {
    fields: {
      metrics: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        keyDefaults: {
          type: '',
        },
      },
      currentMetrics: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.batch.v1.CronJobStatus': {
    fields: {
      active: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.batch.v1.JobSchedulingConfiguration': {
    fields: {
      resourceClaims: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
    },
  },
  'io.k8s.api.batch.v1.JobStatus': {
    fields: {
      conditions: {
        listType: 'atomic',
        patchStrategy: 'merge',
        patchMergeKey: 'type',
      },
    },
  },
  'io.k8s.api.batch.v1.PodFailurePolicy': {
    fields: {
      rules: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.batch.v1.PodFailurePolicyOnExitCodesRequirement': {
    fields: {
      values: {
        listType: 'set',
      },
    },
  },
  'io.k8s.api.batch.v1.PodFailurePolicyRule': {
    fields: {
      onPodConditions: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.batch.v1.SuccessPolicy': {
    fields: {
      rules: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.batch.v1.UncountedTerminatedPods': {
    fields: {
      failed: {
        listType: 'set',
      },
      succeeded: {
        listType: 'set',
      },
    },
  },
  'io.k8s.api.certificates.v1.CertificateSigningRequestSpec': {
    fields: {
      groups: {
        listType: 'atomic',
      },
      usages: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.certificates.v1.CertificateSigningRequestStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        keyDefaults: {
          type: '',
        },
      },
    },
  },
  'io.k8s.api.certificates.v1.PodCertificateRequestStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        keyDefaults: {
          type: '',
        },
      },
    },
  },
  'io.k8s.api.core.v1.Capabilities': {
    fields: {
      add: {
        listType: 'atomic',
      },
      drop: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.CephFSPersistentVolumeSource': {
    fields: {
      monitors: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.CephFSVolumeSource': {
    fields: {
      monitors: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.ComponentStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        keyDefaults: {
          type: '',
        },
      },
    },
  },
  'io.k8s.api.core.v1.ConfigMapKeySelector': {
    mapType: 'atomic',
  },
  'io.k8s.api.core.v1.ConfigMapProjection': {
    fields: {
      items: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.ConfigMapVolumeSource': {
    fields: {
      items: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.Container': {
    fields: {
      args: {
        listType: 'atomic',
      },
      command: {
        listType: 'atomic',
      },
      env: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
      envFrom: {
        listType: 'atomic',
      },
      ports: {
        listType: 'map',
        listMapKeys: ['containerPort', 'protocol'],
        patchStrategy: 'merge',
        patchMergeKey: 'containerPort',
        keyDefaults: {
          containerPort: 0,
          protocol: 'TCP',
        },
      },
      resizePolicy: {
        listType: 'atomic',
      },
      restartPolicyRules: {
        listType: 'atomic',
      },
      volumeDevices: {
        listType: 'map',
        listMapKeys: ['devicePath'],
        patchStrategy: 'merge',
        patchMergeKey: 'devicePath',
        keyDefaults: {
          devicePath: '',
        },
      },
      volumeMounts: {
        listType: 'map',
        listMapKeys: ['mountPath'],
        patchStrategy: 'merge',
        patchMergeKey: 'mountPath',
        keyDefaults: {
          mountPath: '',
        },
      },
    },
  },
  'io.k8s.api.core.v1.ContainerImage': {
    fields: {
      names: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.ContainerRestartRuleOnExitCodes': {
    fields: {
      values: {
        listType: 'set',
      },
    },
  },
  'io.k8s.api.core.v1.ContainerStatus': {
    fields: {
      allocatedResourcesStatus: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
      volumeMounts: {
        listType: 'map',
        listMapKeys: ['mountPath'],
        patchStrategy: 'merge',
        patchMergeKey: 'mountPath',
        keyDefaults: {
          mountPath: '',
        },
      },
    },
  },
  'io.k8s.api.core.v1.DownwardAPIProjection': {
    fields: {
      items: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.DownwardAPIVolumeSource': {
    fields: {
      items: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.EndpointAddress': {
    mapType: 'atomic',
  },
  'io.k8s.api.core.v1.EndpointPort': {
    mapType: 'atomic',
  },
  'io.k8s.api.core.v1.EndpointSubset': {
    fields: {
      addresses: {
        listType: 'atomic',
      },
      notReadyAddresses: {
        listType: 'atomic',
      },
      ports: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.Endpoints': {
    fields: {
      subsets: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.EphemeralContainer': {
    fields: {
      args: {
        listType: 'atomic',
      },
      command: {
        listType: 'atomic',
      },
      env: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
      envFrom: {
        listType: 'atomic',
      },
      ports: {
        listType: 'map',
        listMapKeys: ['containerPort', 'protocol'],
        patchStrategy: 'merge',
        patchMergeKey: 'containerPort',
        keyDefaults: {
          containerPort: 0,
          protocol: 'TCP',
        },
      },
      resizePolicy: {
        listType: 'atomic',
      },
      restartPolicyRules: {
        listType: 'atomic',
      },
      volumeDevices: {
        listType: 'map',
        listMapKeys: ['devicePath'],
        patchStrategy: 'merge',
        patchMergeKey: 'devicePath',
        keyDefaults: {
          devicePath: '',
        },
      },
      volumeMounts: {
        listType: 'map',
        listMapKeys: ['mountPath'],
        patchStrategy: 'merge',
        patchMergeKey: 'mountPath',
        keyDefaults: {
          mountPath: '',
        },
      },
    },
  },
  'io.k8s.api.core.v1.EvictionResponder': {
    mapType: 'atomic',
  },
  'io.k8s.api.core.v1.ExecAction': {
    fields: {
      command: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.FCVolumeSource': {
    fields: {
      targetWWNs: {
        listType: 'atomic',
      },
      wwids: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.FileKeySelector': {
    mapType: 'atomic',
  },
  'io.k8s.api.core.v1.HTTPGetAction': {
    fields: {
      httpHeaders: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.HostAlias': {
    fields: {
      hostnames: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.ISCSIPersistentVolumeSource': {
    fields: {
      portals: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.ISCSIVolumeSource': {
    fields: {
      portals: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.LimitRangeSpec': {
    fields: {
      limits: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.LinuxContainerUser': {
    fields: {
      supplementalGroups: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.LoadBalancerIngress': {
    fields: {
      ports: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.LoadBalancerStatus': {
    fields: {
      ingress: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.LocalObjectReference': {
    mapType: 'atomic',
  },
  'io.k8s.api.core.v1.NamespaceSpec': {
    fields: {
      finalizers: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.NamespaceStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        keyDefaults: {
          type: '',
        },
      },
    },
  },
  'io.k8s.api.core.v1.NodeAffinity': {
    fields: {
      preferredDuringSchedulingIgnoredDuringExecution: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.NodeAllocatableResourceClaimStatus': {
    fields: {
      containers: {
        listType: 'set',
      },
      mapping: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
      overhead: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
    },
  },
  'io.k8s.api.core.v1.NodePodPreemptionPolicy': {
    fields: {
      disableResizePreemption: {
        listType: 'set',
      },
    },
  },
  'io.k8s.api.core.v1.NodeSelector': {
    mapType: 'atomic',
    fields: {
      nodeSelectorTerms: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.NodeSelectorRequirement': {
    fields: {
      values: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.NodeSelectorTerm': {
    mapType: 'atomic',
    fields: {
      matchExpressions: {
        listType: 'atomic',
      },
      matchFields: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.NodeSpec': {
    fields: {
      podCIDRs: {
        listType: 'set',
        patchStrategy: 'merge',
      },
      taints: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.NodeStatus': {
    fields: {
      addresses: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        keyDefaults: {
          type: '',
        },
      },
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        keyDefaults: {
          type: '',
        },
      },
      declaredFeatures: {
        listType: 'atomic',
      },
      images: {
        listType: 'atomic',
      },
      runtimeHandlers: {
        listType: 'atomic',
      },
      volumesAttached: {
        listType: 'atomic',
      },
      volumesInUse: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.ObjectFieldSelector': {
    mapType: 'atomic',
  },
  'io.k8s.api.core.v1.ObjectReference': {
    mapType: 'atomic',
  },
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec': {
    fields: {
      accessModes: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus': {
    fields: {
      accessModes: {
        listType: 'atomic',
      },
      allocatedResourceStatuses: {
        mapType: 'granular',
      },
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        keyDefaults: {
          type: '',
        },
      },
    },
  },
  'io.k8s.api.core.v1.PersistentVolumeSpec': {
    fields: {
      accessModes: {
        listType: 'atomic',
      },
      claimRef: {
        mapType: 'granular',
      },
      mountOptions: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.PodAffinity': {
    fields: {
      preferredDuringSchedulingIgnoredDuringExecution: {
        listType: 'atomic',
      },
      requiredDuringSchedulingIgnoredDuringExecution: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.PodAffinityTerm': {
    fields: {
      matchLabelKeys: {
        listType: 'atomic',
      },
      mismatchLabelKeys: {
        listType: 'atomic',
      },
      namespaces: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.PodAntiAffinity': {
    fields: {
      preferredDuringSchedulingIgnoredDuringExecution: {
        listType: 'atomic',
      },
      requiredDuringSchedulingIgnoredDuringExecution: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.PodDNSConfig': {
    fields: {
      nameservers: {
        listType: 'atomic',
      },
      options: {
        listType: 'atomic',
      },
      searches: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.PodExtendedResourceClaimStatus': {
    fields: {
      requestMappings: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.PodSecurityContext': {
    fields: {
      supplementalGroups: {
        listType: 'atomic',
      },
      sysctls: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.PodSpec': {
    fields: {
      containers: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
      ephemeralContainers: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
      evictionResponders: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
      hostAliases: {
        listType: 'map',
        listMapKeys: ['ip'],
        patchStrategy: 'merge',
        patchMergeKey: 'ip',
        keyDefaults: {
          ip: '',
        },
      },
      imagePullSecrets: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
      initContainers: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
      nodeSelector: {
        mapType: 'atomic',
      },
      readinessGates: {
        listType: 'atomic',
      },
      resourceClaims: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge,retainKeys',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
      schedulingGates: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
      tolerations: {
        listType: 'atomic',
      },
      topologySpreadConstraints: {
        listType: 'map',
        listMapKeys: ['topologyKey', 'whenUnsatisfiable'],
        patchStrategy: 'merge',
        patchMergeKey: 'topologyKey',
        keyDefaults: {
          topologyKey: '',
          whenUnsatisfiable: '',
        },
      },
      volumes: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge,retainKeys',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
    },
  },
  'io.k8s.api.core.v1.PodStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        keyDefaults: {
          type: '',
        },
      },
      containerStatuses: {
        listType: 'atomic',
      },
      ephemeralContainerStatuses: {
        listType: 'atomic',
      },
      hostIPs: {
        listType: 'atomic',
        patchStrategy: 'merge',
        patchMergeKey: 'ip',
      },
      initContainerStatuses: {
        listType: 'atomic',
      },
      nodeAllocatableResourceClaimStatuses: {
        listType: 'map',
        listMapKeys: ['resourceClaimName'],
        patchStrategy: 'merge',
        patchMergeKey: 'resourceClaimName',
        keyDefaults: {
          resourceClaimName: '',
        },
      },
      podIPs: {
        listType: 'map',
        listMapKeys: ['ip'],
        patchStrategy: 'merge',
        patchMergeKey: 'ip',
        keyDefaults: {
          ip: '',
        },
      },
      resourceClaimStatuses: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge,retainKeys',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
      volumeHealth: {
        listType: 'map',
        listMapKeys: ['name'],
        keyDefaults: {
          name: '',
        },
      },
    },
  },
  'io.k8s.api.core.v1.PodVolumeHealth': {
    fields: {
      healthConditions: {
        listType: 'map',
        listMapKeys: ['status', 'reason'],
        patchStrategy: 'merge',
        patchMergeKey: 'status',
        keyDefaults: {
          status: '',
          reason: '',
        },
      },
    },
  },
  'io.k8s.api.core.v1.ProjectedVolumeSource': {
    fields: {
      sources: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.RBDPersistentVolumeSource': {
    fields: {
      monitors: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.RBDVolumeSource': {
    fields: {
      monitors: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.ReplicationControllerSpec': {
    fields: {
      selector: {
        mapType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.ReplicationControllerStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        keyDefaults: {
          type: '',
        },
      },
    },
  },
  'io.k8s.api.core.v1.ResourceFieldSelector': {
    mapType: 'atomic',
  },
  'io.k8s.api.core.v1.ResourceQuotaSpec': {
    fields: {
      scopes: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.ResourceRequirements': {
    fields: {
      claims: {
        listType: 'map',
        listMapKeys: ['name'],
        keyDefaults: {
          name: '',
        },
      },
    },
  },
  'io.k8s.api.core.v1.ResourceStatus': {
    fields: {
      resources: {
        listType: 'map',
        listMapKeys: ['resourceID'],
        keyDefaults: {
          resourceID: '',
        },
      },
    },
  },
  'io.k8s.api.core.v1.ScopeSelector': {
    mapType: 'atomic',
    fields: {
      matchExpressions: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.ScopedResourceSelectorRequirement': {
    fields: {
      values: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.SecretKeySelector': {
    mapType: 'atomic',
  },
  'io.k8s.api.core.v1.SecretProjection': {
    fields: {
      items: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.SecretReference': {
    mapType: 'atomic',
  },
  'io.k8s.api.core.v1.SecretVolumeSource': {
    fields: {
      items: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.ServiceAccount': {
    fields: {
      imagePullSecrets: {
        listType: 'atomic',
      },
      secrets: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
      },
    },
  },
  'io.k8s.api.core.v1.ServiceSpec': {
    fields: {
      clusterIPs: {
        listType: 'atomic',
      },
      externalIPs: {
        listType: 'atomic',
      },
      ipFamilies: {
        listType: 'atomic',
      },
      loadBalancerSourceRanges: {
        listType: 'atomic',
      },
      ports: {
        listType: 'map',
        listMapKeys: ['port', 'protocol'],
        patchStrategy: 'merge',
        patchMergeKey: 'port',
        keyDefaults: {
          port: 0,
          protocol: 'TCP',
        },
      },
      selector: {
        mapType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.ServiceStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        keyDefaults: {
          type: '',
        },
      },
    },
  },
  'io.k8s.api.core.v1.TopologySelectorLabelRequirement': {
    fields: {
      values: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.TopologySelectorTerm': {
    mapType: 'atomic',
    fields: {
      matchLabelExpressions: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.TopologySpreadConstraint': {
    fields: {
      matchLabelKeys: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.TypedLocalObjectReference': {
    mapType: 'atomic',
  },
  'io.k8s.api.core.v1.VolumeHealthStatus': {
    fields: {
      healthConditions: {
        listType: 'map',
        listMapKeys: ['status', 'reason'],
        patchStrategy: 'merge',
        patchMergeKey: 'status',
        keyDefaults: {
          status: '',
          reason: '',
        },
      },
    },
  },
  'io.k8s.api.core.v1.VolumeMount': {
    fields: {
      bindMountOptions: {
        listType: 'set',
      },
    },
  },
  'io.k8s.api.discovery.v1.Endpoint': {
    fields: {
      addresses: {
        listType: 'set',
      },
    },
  },
  'io.k8s.api.discovery.v1.EndpointHints': {
    fields: {
      forNodes: {
        listType: 'atomic',
      },
      forZones: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.discovery.v1.EndpointPort': {
    mapType: 'atomic',
  },
  'io.k8s.api.discovery.v1.EndpointSlice': {
    fields: {
      endpoints: {
        listType: 'atomic',
      },
      ports: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.flowcontrol.v1.FlowSchemaSpec': {
    fields: {
      rules: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.flowcontrol.v1.FlowSchemaStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
      },
    },
  },
  'io.k8s.api.flowcontrol.v1.NonResourcePolicyRule': {
    fields: {
      nonResourceURLs: {
        listType: 'set',
      },
      verbs: {
        listType: 'set',
      },
    },
  },
  'io.k8s.api.flowcontrol.v1.PolicyRulesWithSubjects': {
    fields: {
      nonResourceRules: {
        listType: 'atomic',
      },
      resourceRules: {
        listType: 'atomic',
      },
      subjects: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
      },
    },
  },
  'io.k8s.api.flowcontrol.v1.ResourcePolicyRule': {
    fields: {
      apiGroups: {
        listType: 'set',
      },
      namespaces: {
        listType: 'set',
      },
      resources: {
        listType: 'set',
      },
      verbs: {
        listType: 'set',
      },
    },
  },
  'io.k8s.api.networking.v1.HTTPIngressRuleValue': {
    fields: {
      paths: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.networking.v1.IPBlock': {
    fields: {
      except: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.networking.v1.IngressLoadBalancerIngress': {
    fields: {
      ports: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.networking.v1.IngressLoadBalancerStatus': {
    fields: {
      ingress: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.networking.v1.IngressSpec': {
    fields: {
      rules: {
        listType: 'atomic',
      },
      tls: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.networking.v1.IngressTLS': {
    fields: {
      hosts: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.networking.v1.NetworkPolicyEgressRule': {
    fields: {
      ports: {
        listType: 'atomic',
      },
      to: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.networking.v1.NetworkPolicyIngressRule': {
    fields: {
      from: {
        listType: 'atomic',
      },
      ports: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.networking.v1.NetworkPolicySpec': {
    fields: {
      egress: {
        listType: 'atomic',
      },
      ingress: {
        listType: 'atomic',
      },
      policyTypes: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.networking.v1.ServiceBackendPort': {
    mapType: 'atomic',
  },
  'io.k8s.api.networking.v1.ServiceCIDRSpec': {
    fields: {
      cidrs: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.networking.v1.ServiceCIDRStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        keyDefaults: {
          type: '',
        },
      },
    },
  },
  'io.k8s.api.node.v1.Scheduling': {
    fields: {
      nodeSelector: {
        mapType: 'atomic',
      },
      tolerations: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.policy.v1.PodDisruptionBudgetStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        keyDefaults: {
          type: '',
        },
      },
    },
  },
  'io.k8s.api.rbac.v1.AggregationRule': {
    fields: {
      clusterRoleSelectors: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.rbac.v1.ClusterRole': {
    fields: {
      rules: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.rbac.v1.ClusterRoleBinding': {
    fields: {
      subjects: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.rbac.v1.PolicyRule': {
    fields: {
      apiGroups: {
        listType: 'atomic',
      },
      nonResourceURLs: {
        listType: 'atomic',
      },
      resourceNames: {
        listType: 'atomic',
      },
      resources: {
        listType: 'atomic',
      },
      verbs: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.rbac.v1.Role': {
    fields: {
      rules: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.rbac.v1.RoleBinding': {
    fields: {
      subjects: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.rbac.v1.RoleRef': {
    mapType: 'atomic',
  },
  'io.k8s.api.rbac.v1.Subject': {
    mapType: 'atomic',
  },
  'io.k8s.api.resource.v1.AllocatedDeviceStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        keyDefaults: {
          type: '',
        },
      },
    },
  },
  'io.k8s.api.resource.v1.CapacityRequestPolicy': {
    fields: {
      validValues: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.resource.v1.Device': {
    fields: {
      bindingConditions: {
        listType: 'atomic',
      },
      bindingFailureConditions: {
        listType: 'atomic',
      },
      consumesCounters: {
        listType: 'atomic',
      },
      taints: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.resource.v1.DeviceAllocationConfiguration': {
    fields: {
      requests: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.resource.v1.DeviceAllocationResult': {
    fields: {
      config: {
        listType: 'atomic',
      },
      results: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.resource.v1.DeviceAttribute': {
    fields: {
      bools: {
        listType: 'atomic',
      },
      ints: {
        listType: 'atomic',
      },
      strings: {
        listType: 'atomic',
      },
      versions: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.resource.v1.DeviceClaim': {
    fields: {
      config: {
        listType: 'atomic',
      },
      constraints: {
        listType: 'atomic',
      },
      requests: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.resource.v1.DeviceClaimConfiguration': {
    fields: {
      requests: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.resource.v1.DeviceClassSpec': {
    fields: {
      config: {
        listType: 'atomic',
      },
      selectors: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.resource.v1.DeviceConstraint': {
    fields: {
      requests: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.resource.v1.DeviceCounterConsumption': {
    fields: {
      compatibilityGroups: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.resource.v1.DeviceRequest': {
    fields: {
      firstAvailable: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.resource.v1.DeviceRequestAllocationResult': {
    fields: {
      bindingConditions: {
        listType: 'atomic',
      },
      bindingFailureConditions: {
        listType: 'atomic',
      },
      skipNodeOperations: {
        listType: 'set',
      },
      tolerations: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.resource.v1.DeviceSubRequest': {
    fields: {
      derivedAttributes: {
        listType: 'atomic',
      },
      selectors: {
        listType: 'atomic',
      },
      tolerations: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.resource.v1.DeviceTaintRuleStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        keyDefaults: {
          type: '',
        },
      },
    },
  },
  'io.k8s.api.resource.v1.ExactDeviceRequest': {
    fields: {
      derivedAttributes: {
        listType: 'atomic',
      },
      selectors: {
        listType: 'atomic',
      },
      tolerations: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.resource.v1.NetworkDeviceData': {
    fields: {
      ips: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.resource.v1.ResourceClaimStatus': {
    fields: {
      devices: {
        listType: 'map',
        listMapKeys: ['driver', 'device', 'pool', 'shareID'],
        keyDefaults: {
          driver: '',
          device: '',
          pool: '',
        },
      },
      reservedFor: {
        listType: 'map',
        listMapKeys: ['uid'],
        patchStrategy: 'merge',
        patchMergeKey: 'uid',
        keyDefaults: {
          uid: '',
        },
      },
    },
  },
  'io.k8s.api.resource.v1.ResourceSliceSpec': {
    fields: {
      devices: {
        listType: 'atomic',
      },
      sharedCounters: {
        listType: 'atomic',
      },
      skipNodeOperations: {
        listType: 'set',
      },
    },
  },
  'io.k8s.api.scheduling.v1alpha3.WorkloadPodGroupSchedulingConstraints': {
    fields: {
      topology: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.storage.v1.CSIDriverSpec': {
    fields: {
      tokenRequests: {
        listType: 'atomic',
      },
      volumeLifecycleModes: {
        listType: 'set',
      },
    },
  },
  'io.k8s.api.storage.v1.CSINodeDriver': {
    fields: {
      topologyKeys: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.storage.v1.CSINodeSpec': {
    fields: {
      drivers: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
    },
  },
  'io.k8s.api.storage.v1.CSINodeStatus': {
    fields: {
      storageHealth: {
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
        keyDefaults: {
          name: '',
        },
      },
    },
  },
  'io.k8s.api.storage.v1.StorageClass': {
    fields: {
      allowedTopologies: {
        listType: 'atomic',
      },
      mountOptions: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.storage.v1.StorageHealth': {
    fields: {
      healthConditions: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.storagemigration.v1.StorageVersionMigrationStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        keyDefaults: {
          type: '',
        },
      },
    },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionNames': {
    fields: {
      categories: {
        listType: 'atomic',
      },
      shortNames: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec': {
    fields: {
      versions: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        keyDefaults: {
          type: '',
        },
      },
      storedVersions: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion': {
    fields: {
      additionalPrinterColumns: {
        listType: 'atomic',
      },
      selectableFields: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON': {
    untyped: true,
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps': {
    fields: {
      allOf: {
        listType: 'atomic',
      },
      anyOf: {
        listType: 'atomic',
      },
      enum: {
        listType: 'atomic',
      },
      oneOf: {
        listType: 'atomic',
      },
      required: {
        listType: 'atomic',
      },
      'x-kubernetes-list-map-keys': {
        listType: 'atomic',
      },
      'x-kubernetes-validations': {
        listType: 'map',
        listMapKeys: ['rule'],
        patchStrategy: 'merge',
        patchMergeKey: 'rule',
        keyDefaults: {
          rule: '',
        },
      },
    },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray': {
    untyped: true,
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool': {
    untyped: true,
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray': {
    untyped: true,
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.WebhookConversion': {
    fields: {
      conversionReviewVersions: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': {
    untyped: true,
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions': {
    fields: {
      dryRun: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement': {
    fields: {
      values: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector': {
    mapType: 'atomic',
    fields: {
      matchExpressions: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement': {
    fields: {
      values: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': {
    fields: {
      finalizers: {
        listType: 'set',
        patchStrategy: 'merge',
      },
      managedFields: {
        listType: 'atomic',
      },
      ownerReferences: {
        listType: 'map',
        listMapKeys: ['uid'],
        patchStrategy: 'merge',
        patchMergeKey: 'uid',
        keyDefaults: {
          uid: '',
        },
      },
    },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference': {
    mapType: 'atomic',
  },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': {
    untyped: true,
  },
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceStatus': {
    fields: {
      conditions: {
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        keyDefaults: {
          type: '',
        },
      },
    },
  },
};
