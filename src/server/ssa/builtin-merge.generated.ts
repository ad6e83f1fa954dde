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
  'io.k8s.api.core.v1.CephFSVolumeSource': {
    fields: {
      monitors: {
        listType: 'atomic',
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
  'io.k8s.api.core.v1.ISCSIVolumeSource': {
    fields: {
      portals: {
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
  'io.k8s.api.core.v1.RBDVolumeSource': {
    fields: {
      monitors: {
        listType: 'atomic',
      },
    },
  },
  'io.k8s.api.core.v1.ResourceFieldSelector': {
    mapType: 'atomic',
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
};
