/**
 * The structure of the Kubernetes API types the served kinds reach, for the OpenAPI v3
 * `components.schemas` (see openapi-schemas.ts) and the schema engine (schema/). GENERATED from
 * the OpenAPI v3 documents Kubernetes v1.37.2 publishes (api/openapi-spec/v3/*.json of the Go
 * module k8s.io/kubernetes@v1.37.2, h1:A2VDEiObzkYqFTKhSsn0ZEb0RlLEXpHWj93gi2HqEwE=; Apache-2.0)
 * by scripts/openapi-types.ts: do not edit; regenerate with `npx tsx scripts/openapi-types.ts`.
 */
import type { ApiType } from './openapi-model.js';

/** Every type, by its OpenAPI name. */
export const API_TYPES: Readonly<Record<string, ApiType>> = {
  'io.k8s.api.admissionregistration.v1.ApplyConfiguration': { fields: { expression: 'string' } },
  'io.k8s.api.admissionregistration.v1.AuditAnnotation': {
    fields: { key: 'string', valueExpression: 'string' },
    required: ['key', 'valueExpression'],
  },
  'io.k8s.api.admissionregistration.v1.ExpressionWarning': {
    fields: { fieldRef: 'string', warning: 'string' },
    required: ['fieldRef', 'warning'],
  },
  'io.k8s.api.admissionregistration.v1.JSONPatch': { fields: { expression: 'string' } },
  'io.k8s.api.admissionregistration.v1.MatchCondition': {
    fields: { expression: 'string', name: 'string' },
    required: ['name', 'expression'],
  },
  'io.k8s.api.admissionregistration.v1.MatchResources': {
    fields: {
      excludeResourceRules: '[]io.k8s.api.admissionregistration.v1.NamedRuleWithOperations',
      matchPolicy: 'string',
      namespaceSelector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      objectSelector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      resourceRules: '[]io.k8s.api.admissionregistration.v1.NamedRuleWithOperations',
    },
  },
  'io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicy': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicySpec',
    },
  },
  'io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicyBinding': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicyBindingSpec',
    },
  },
  'io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicyBindingSpec': {
    fields: {
      matchResources: 'io.k8s.api.admissionregistration.v1.MatchResources',
      paramRef: 'io.k8s.api.admissionregistration.v1.ParamRef',
      policyName: 'string',
    },
  },
  'io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicySpec': {
    fields: {
      failurePolicy: 'string',
      matchConditions: '[]io.k8s.api.admissionregistration.v1.MatchCondition',
      matchConstraints: 'io.k8s.api.admissionregistration.v1.MatchResources',
      mutations: '[]io.k8s.api.admissionregistration.v1.Mutation',
      paramKind: 'io.k8s.api.admissionregistration.v1.ParamKind',
      reinvocationPolicy: 'string',
      variables: '[]io.k8s.api.admissionregistration.v1.Variable',
    },
  },
  'io.k8s.api.admissionregistration.v1.MutatingWebhook': {
    fields: {
      admissionReviewVersions: '[]string',
      clientConfig: 'io.k8s.api.admissionregistration.v1.WebhookClientConfig',
      failurePolicy: 'string',
      matchConditions: '[]io.k8s.api.admissionregistration.v1.MatchCondition',
      matchPolicy: 'string',
      name: 'string',
      namespaceSelector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      objectSelector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      reinvocationPolicy: 'string',
      rules: '[]io.k8s.api.admissionregistration.v1.RuleWithOperations',
      sideEffects: 'string',
      timeoutSeconds: 'int32',
    },
    required: ['name', 'clientConfig', 'sideEffects', 'admissionReviewVersions'],
  },
  'io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      webhooks: '[]io.k8s.api.admissionregistration.v1.MutatingWebhook',
    },
  },
  'io.k8s.api.admissionregistration.v1.Mutation': {
    fields: {
      applyConfiguration: 'io.k8s.api.admissionregistration.v1.ApplyConfiguration',
      jsonPatch: 'io.k8s.api.admissionregistration.v1.JSONPatch',
      patchType: 'string',
    },
    required: ['patchType'],
  },
  'io.k8s.api.admissionregistration.v1.NamedRuleWithOperations': {
    fields: {
      apiGroups: '[]string',
      apiVersions: '[]string',
      operations: '[]string',
      resourceNames: '[]string',
      resources: '[]string',
      scope: 'string',
    },
  },
  'io.k8s.api.admissionregistration.v1.ParamKind': { fields: { apiVersion: 'string', kind: 'string' } },
  'io.k8s.api.admissionregistration.v1.ParamRef': {
    fields: {
      name: 'string',
      namespace: 'string',
      parameterNotFoundAction: 'string',
      selector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
    },
  },
  'io.k8s.api.admissionregistration.v1.RuleWithOperations': {
    fields: {
      apiGroups: '[]string',
      apiVersions: '[]string',
      operations: '[]string',
      resources: '[]string',
      scope: 'string',
    },
  },
  'io.k8s.api.admissionregistration.v1.ServiceReference': {
    fields: { name: 'string', namespace: 'string', path: 'string', port: 'int32' },
    required: ['namespace', 'name'],
  },
  'io.k8s.api.admissionregistration.v1.TypeChecking': {
    fields: { expressionWarnings: '[]io.k8s.api.admissionregistration.v1.ExpressionWarning' },
  },
  'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicySpec',
      status: 'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyStatus',
    },
  },
  'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec',
    },
    required: ['spec'],
  },
  'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec': {
    fields: {
      matchResources: 'io.k8s.api.admissionregistration.v1.MatchResources',
      paramRef: 'io.k8s.api.admissionregistration.v1.ParamRef',
      policyName: 'string',
      validationActions: '[]string',
    },
    required: ['policyName', 'validationActions'],
  },
  'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicySpec': {
    fields: {
      auditAnnotations: '[]io.k8s.api.admissionregistration.v1.AuditAnnotation',
      failurePolicy: 'string',
      matchConditions: '[]io.k8s.api.admissionregistration.v1.MatchCondition',
      matchConstraints: 'io.k8s.api.admissionregistration.v1.MatchResources',
      paramKind: 'io.k8s.api.admissionregistration.v1.ParamKind',
      validations: '[]io.k8s.api.admissionregistration.v1.Validation',
      variables: '[]io.k8s.api.admissionregistration.v1.Variable',
    },
  },
  'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyStatus': {
    fields: {
      conditions: '[]io.k8s.apimachinery.pkg.apis.meta.v1.Condition',
      observedGeneration: 'int64',
      typeChecking: 'io.k8s.api.admissionregistration.v1.TypeChecking',
    },
  },
  'io.k8s.api.admissionregistration.v1.ValidatingWebhook': {
    fields: {
      admissionReviewVersions: '[]string',
      clientConfig: 'io.k8s.api.admissionregistration.v1.WebhookClientConfig',
      failurePolicy: 'string',
      matchConditions: '[]io.k8s.api.admissionregistration.v1.MatchCondition',
      matchPolicy: 'string',
      name: 'string',
      namespaceSelector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      objectSelector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      rules: '[]io.k8s.api.admissionregistration.v1.RuleWithOperations',
      sideEffects: 'string',
      timeoutSeconds: 'int32',
    },
    required: ['name', 'clientConfig', 'sideEffects', 'admissionReviewVersions'],
  },
  'io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      webhooks: '[]io.k8s.api.admissionregistration.v1.ValidatingWebhook',
    },
  },
  'io.k8s.api.admissionregistration.v1.Validation': {
    fields: { expression: 'string', message: 'string', messageExpression: 'string', reason: 'string' },
    required: ['expression'],
  },
  'io.k8s.api.admissionregistration.v1.Variable': {
    fields: { expression: 'string', name: 'string' },
    required: ['name', 'expression'],
  },
  'io.k8s.api.admissionregistration.v1.WebhookClientConfig': {
    fields: {
      caBundle: 'bytes',
      service: 'io.k8s.api.admissionregistration.v1.ServiceReference',
      url: 'string',
    },
  },
  'io.k8s.api.apps.v1.ControllerRevision': {
    fields: {
      apiVersion: 'string',
      data: 'io.k8s.apimachinery.pkg.runtime.RawExtension',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      revision: 'int64',
    },
    required: ['data'],
  },
  'io.k8s.api.apps.v1.DaemonSet': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.apps.v1.DaemonSetSpec',
      status: 'io.k8s.api.apps.v1.DaemonSetStatus',
    },
    required: ['spec'],
  },
  'io.k8s.api.apps.v1.DaemonSetCondition': {
    fields: {
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      reason: 'string',
      status: 'string',
      type: 'string',
    },
  },
  'io.k8s.api.apps.v1.DaemonSetSpec': {
    fields: {
      minReadySeconds: 'int32',
      revisionHistoryLimit: 'int32',
      selector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      template: 'io.k8s.api.core.v1.PodTemplateSpec',
      updateStrategy: 'io.k8s.api.apps.v1.DaemonSetUpdateStrategy',
    },
    required: ['selector', 'template'],
  },
  'io.k8s.api.apps.v1.DaemonSetStatus': {
    fields: {
      collisionCount: 'int32',
      conditions: '[]io.k8s.api.apps.v1.DaemonSetCondition',
      currentNumberScheduled: 'int32',
      desiredNumberScheduled: 'int32',
      numberAvailable: 'int32',
      numberMisscheduled: 'int32',
      numberReady: 'int32',
      numberUnavailable: 'int32',
      observedGeneration: 'int64',
      updatedNumberScheduled: 'int32',
    },
    required: ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady'],
  },
  'io.k8s.api.apps.v1.DaemonSetUpdateStrategy': {
    fields: { rollingUpdate: 'io.k8s.api.apps.v1.RollingUpdateDaemonSet', type: 'string' },
  },
  'io.k8s.api.apps.v1.Deployment': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.apps.v1.DeploymentSpec',
      status: 'io.k8s.api.apps.v1.DeploymentStatus',
    },
    required: ['spec'],
  },
  'io.k8s.api.apps.v1.DeploymentCondition': {
    fields: {
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      lastUpdateTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      reason: 'string',
      status: 'string',
      type: 'string',
    },
  },
  'io.k8s.api.apps.v1.DeploymentSpec': {
    fields: {
      minReadySeconds: 'int32',
      paused: 'boolean',
      progressDeadlineSeconds: 'int32',
      replicas: 'int32',
      revisionHistoryLimit: 'int32',
      selector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      strategy: 'io.k8s.api.apps.v1.DeploymentStrategy',
      template: 'io.k8s.api.core.v1.PodTemplateSpec',
    },
    required: ['selector', 'template'],
  },
  'io.k8s.api.apps.v1.DeploymentStatus': {
    fields: {
      availableReplicas: 'int32',
      collisionCount: 'int32',
      conditions: '[]io.k8s.api.apps.v1.DeploymentCondition',
      observedGeneration: 'int64',
      readyReplicas: 'int32',
      replicas: 'int32',
      terminatingReplicas: 'int32',
      unavailableReplicas: 'int32',
      updatedReplicas: 'int32',
    },
  },
  'io.k8s.api.apps.v1.DeploymentStrategy': {
    fields: { rollingUpdate: 'io.k8s.api.apps.v1.RollingUpdateDeployment', type: 'string' },
  },
  'io.k8s.api.apps.v1.ReplicaSet': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.apps.v1.ReplicaSetSpec',
      status: 'io.k8s.api.apps.v1.ReplicaSetStatus',
    },
    required: ['spec'],
  },
  'io.k8s.api.apps.v1.ReplicaSetCondition': {
    fields: {
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      reason: 'string',
      status: 'string',
      type: 'string',
    },
  },
  'io.k8s.api.apps.v1.ReplicaSetSpec': {
    fields: {
      minReadySeconds: 'int32',
      replicas: 'int32',
      selector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      template: 'io.k8s.api.core.v1.PodTemplateSpec',
    },
    required: ['selector'],
  },
  'io.k8s.api.apps.v1.ReplicaSetStatus': {
    fields: {
      availableReplicas: 'int32',
      conditions: '[]io.k8s.api.apps.v1.ReplicaSetCondition',
      fullyLabeledReplicas: 'int32',
      observedGeneration: 'int64',
      readyReplicas: 'int32',
      replicas: 'int32',
      terminatingReplicas: 'int32',
    },
    required: ['replicas'],
  },
  'io.k8s.api.apps.v1.RollingUpdateDaemonSet': {
    fields: {
      maxSurge: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
      maxUnavailable: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
    },
  },
  'io.k8s.api.apps.v1.RollingUpdateDeployment': {
    fields: {
      maxSurge: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
      maxUnavailable: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
    },
  },
  'io.k8s.api.apps.v1.RollingUpdateStatefulSetStrategy': {
    fields: { maxUnavailable: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString', partition: 'int32' },
  },
  'io.k8s.api.apps.v1.StatefulSet': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.apps.v1.StatefulSetSpec',
      status: 'io.k8s.api.apps.v1.StatefulSetStatus',
    },
    required: ['spec'],
  },
  'io.k8s.api.apps.v1.StatefulSetCondition': {
    fields: {
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      reason: 'string',
      status: 'string',
      type: 'string',
    },
  },
  'io.k8s.api.apps.v1.StatefulSetOrdinals': { fields: { start: 'int32' } },
  'io.k8s.api.apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy': {
    fields: { whenDeleted: 'string', whenScaled: 'string' },
  },
  'io.k8s.api.apps.v1.StatefulSetSpec': {
    fields: {
      minReadySeconds: 'int32',
      ordinals: 'io.k8s.api.apps.v1.StatefulSetOrdinals',
      persistentVolumeClaimRetentionPolicy:
        'io.k8s.api.apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy',
      podManagementPolicy: 'string',
      replicas: 'int32',
      revisionHistoryLimit: 'int32',
      selector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      serviceName: 'string',
      template: 'io.k8s.api.core.v1.PodTemplateSpec',
      updateStrategy: 'io.k8s.api.apps.v1.StatefulSetUpdateStrategy',
      volumeClaimTemplates: '[]io.k8s.api.core.v1.PersistentVolumeClaim',
    },
    required: ['selector', 'template'],
  },
  'io.k8s.api.apps.v1.StatefulSetStatus': {
    fields: {
      availableReplicas: 'int32',
      collisionCount: 'int32',
      conditions: '[]io.k8s.api.apps.v1.StatefulSetCondition',
      currentReplicas: 'int32',
      currentRevision: 'string',
      observedGeneration: 'int64',
      readyReplicas: 'int32',
      replicas: 'int32',
      updateRevision: 'string',
      updatedReplicas: 'int32',
    },
    required: ['replicas'],
  },
  'io.k8s.api.apps.v1.StatefulSetUpdateStrategy': {
    fields: { rollingUpdate: 'io.k8s.api.apps.v1.RollingUpdateStatefulSetStrategy', type: 'string' },
  },
  'io.k8s.api.authentication.v1.BoundObjectReference': {
    fields: { apiVersion: 'string', kind: 'string', name: 'string', uid: 'string' },
  },
  'io.k8s.api.authentication.v1.SelfSubjectReview': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      status: 'io.k8s.api.authentication.v1.SelfSubjectReviewStatus',
    },
  },
  'io.k8s.api.authentication.v1.SelfSubjectReviewStatus': {
    fields: { userInfo: 'io.k8s.api.authentication.v1.UserInfo' },
  },
  'io.k8s.api.authentication.v1.TokenRequest': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.authentication.v1.TokenRequestSpec',
      status: 'io.k8s.api.authentication.v1.TokenRequestStatus',
    },
  },
  'io.k8s.api.authentication.v1.TokenRequestSpec': {
    fields: {
      attestations: '{}[]string',
      audiences: '[]string',
      boundObjectRef: 'io.k8s.api.authentication.v1.BoundObjectReference',
      expirationSeconds: 'int64',
    },
  },
  'io.k8s.api.authentication.v1.TokenRequestStatus': {
    fields: { expirationTimestamp: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time', token: 'string' },
  },
  'io.k8s.api.authentication.v1.TokenReview': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.authentication.v1.TokenReviewSpec',
      status: 'io.k8s.api.authentication.v1.TokenReviewStatus',
    },
    required: ['spec'],
  },
  'io.k8s.api.authentication.v1.TokenReviewSpec': {
    fields: { audiences: '[]string', token: 'string' },
    required: ['token'],
  },
  'io.k8s.api.authentication.v1.TokenReviewStatus': {
    fields: {
      audiences: '[]string',
      authenticated: 'boolean',
      error: 'string',
      user: 'io.k8s.api.authentication.v1.UserInfo',
    },
  },
  'io.k8s.api.authentication.v1.UserInfo': {
    fields: { extra: '{}[]string', groups: '[]string', uid: 'string', username: 'string' },
  },
  'io.k8s.api.authorization.v1.FieldSelectorAttributes': {
    fields: {
      rawSelector: 'string',
      requirements: '[]io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement',
    },
  },
  'io.k8s.api.authorization.v1.LabelSelectorAttributes': {
    fields: {
      rawSelector: 'string',
      requirements: '[]io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement',
    },
  },
  'io.k8s.api.authorization.v1.LocalSubjectAccessReview': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.authorization.v1.SubjectAccessReviewSpec',
      status: 'io.k8s.api.authorization.v1.SubjectAccessReviewStatus',
    },
    required: ['spec'],
  },
  'io.k8s.api.authorization.v1.NonResourceAttributes': { fields: { path: 'string', verb: 'string' } },
  'io.k8s.api.authorization.v1.NonResourceRule': {
    fields: { nonResourceURLs: '[]string', verbs: '[]string' },
    required: ['verbs'],
  },
  'io.k8s.api.authorization.v1.ResourceAttributes': {
    fields: {
      fieldSelector: 'io.k8s.api.authorization.v1.FieldSelectorAttributes',
      group: 'string',
      labelSelector: 'io.k8s.api.authorization.v1.LabelSelectorAttributes',
      name: 'string',
      namespace: 'string',
      resource: 'string',
      subresource: 'string',
      verb: 'string',
      version: 'string',
    },
  },
  'io.k8s.api.authorization.v1.ResourceRule': {
    fields: { apiGroups: '[]string', resourceNames: '[]string', resources: '[]string', verbs: '[]string' },
    required: ['verbs'],
  },
  'io.k8s.api.authorization.v1.SelfSubjectAccessReview': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.authorization.v1.SelfSubjectAccessReviewSpec',
      status: 'io.k8s.api.authorization.v1.SubjectAccessReviewStatus',
    },
    required: ['spec'],
  },
  'io.k8s.api.authorization.v1.SelfSubjectAccessReviewSpec': {
    fields: {
      nonResourceAttributes: 'io.k8s.api.authorization.v1.NonResourceAttributes',
      resourceAttributes: 'io.k8s.api.authorization.v1.ResourceAttributes',
    },
  },
  'io.k8s.api.authorization.v1.SelfSubjectRulesReview': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.authorization.v1.SelfSubjectRulesReviewSpec',
      status: 'io.k8s.api.authorization.v1.SubjectRulesReviewStatus',
    },
    required: ['spec'],
  },
  'io.k8s.api.authorization.v1.SelfSubjectRulesReviewSpec': { fields: { namespace: 'string' } },
  'io.k8s.api.authorization.v1.SubjectAccessReview': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.authorization.v1.SubjectAccessReviewSpec',
      status: 'io.k8s.api.authorization.v1.SubjectAccessReviewStatus',
    },
    required: ['spec'],
  },
  'io.k8s.api.authorization.v1.SubjectAccessReviewSpec': {
    fields: {
      extra: '{}[]string',
      groups: '[]string',
      nonResourceAttributes: 'io.k8s.api.authorization.v1.NonResourceAttributes',
      resourceAttributes: 'io.k8s.api.authorization.v1.ResourceAttributes',
      uid: 'string',
      user: 'string',
    },
  },
  'io.k8s.api.authorization.v1.SubjectAccessReviewStatus': {
    fields: { allowed: 'boolean', denied: 'boolean', evaluationError: 'string', reason: 'string' },
    required: ['allowed'],
  },
  'io.k8s.api.authorization.v1.SubjectRulesReviewStatus': {
    fields: {
      evaluationError: 'string',
      incomplete: 'boolean',
      nonResourceRules: '[]io.k8s.api.authorization.v1.NonResourceRule',
      resourceRules: '[]io.k8s.api.authorization.v1.ResourceRule',
    },
    required: ['resourceRules', 'nonResourceRules', 'incomplete'],
  },
  'io.k8s.api.autoscaling.v1.CrossVersionObjectReference': {
    fields: { apiVersion: 'string', kind: 'string', name: 'string' },
    required: ['kind', 'name'],
  },
  'io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerSpec',
      status: 'io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerStatus',
    },
    required: ['spec'],
  },
  'io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerSpec': {
    fields: {
      maxReplicas: 'int32',
      minReplicas: 'int32',
      scaleTargetRef: 'io.k8s.api.autoscaling.v1.CrossVersionObjectReference',
      targetCPUUtilizationPercentage: 'int32',
    },
    required: ['scaleTargetRef', 'maxReplicas'],
  },
  'io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerStatus': {
    fields: {
      currentCPUUtilizationPercentage: 'int32',
      currentReplicas: 'int32',
      desiredReplicas: 'int32',
      lastScaleTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      observedGeneration: 'int64',
    },
    required: ['currentReplicas', 'desiredReplicas'],
  },
  'io.k8s.api.autoscaling.v1.Scale': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.autoscaling.v1.ScaleSpec',
      status: 'io.k8s.api.autoscaling.v1.ScaleStatus',
    },
  },
  'io.k8s.api.autoscaling.v1.ScaleSpec': { fields: { replicas: 'int32' } },
  'io.k8s.api.autoscaling.v1.ScaleStatus': {
    fields: { replicas: 'int32', selector: 'string' },
    required: ['replicas'],
  },
  'io.k8s.api.autoscaling.v2.ContainerResourceMetricSource': {
    fields: { container: 'string', name: 'string', target: 'io.k8s.api.autoscaling.v2.MetricTarget' },
    required: ['name', 'target', 'container'],
  },
  'io.k8s.api.autoscaling.v2.ContainerResourceMetricStatus': {
    fields: { container: 'string', current: 'io.k8s.api.autoscaling.v2.MetricValueStatus', name: 'string' },
    required: ['name', 'current', 'container'],
  },
  'io.k8s.api.autoscaling.v2.CrossVersionObjectReference': {
    fields: { apiVersion: 'string', kind: 'string', name: 'string' },
    required: ['kind', 'name'],
  },
  'io.k8s.api.autoscaling.v2.ExternalMetricSource': {
    fields: {
      metric: 'io.k8s.api.autoscaling.v2.MetricIdentifier',
      target: 'io.k8s.api.autoscaling.v2.MetricTarget',
    },
    required: ['metric', 'target'],
  },
  'io.k8s.api.autoscaling.v2.ExternalMetricStatus': {
    fields: {
      current: 'io.k8s.api.autoscaling.v2.MetricValueStatus',
      metric: 'io.k8s.api.autoscaling.v2.MetricIdentifier',
    },
    required: ['metric', 'current'],
  },
  'io.k8s.api.autoscaling.v2.HPAScalingPolicy': {
    fields: { periodSeconds: 'int32', type: 'string', value: 'int32' },
    required: ['type', 'value', 'periodSeconds'],
  },
  'io.k8s.api.autoscaling.v2.HPAScalingRules': {
    fields: {
      policies: '[]io.k8s.api.autoscaling.v2.HPAScalingPolicy',
      selectPolicy: 'string',
      stabilizationWindowSeconds: 'int32',
      tolerance: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
    },
  },
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec',
      status: 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus',
    },
    required: ['spec'],
  },
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerBehavior': {
    fields: {
      scaleDown: 'io.k8s.api.autoscaling.v2.HPAScalingRules',
      scaleUp: 'io.k8s.api.autoscaling.v2.HPAScalingRules',
    },
  },
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerCondition': {
    fields: {
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      observedGeneration: 'int64',
      reason: 'string',
      status: 'string',
      type: 'string',
    },
    required: ['type', 'status'],
  },
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec': {
    fields: {
      behavior: 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerBehavior',
      maxReplicas: 'int32',
      metrics: '[]io.k8s.api.autoscaling.v2.MetricSpec',
      minReplicas: 'int32',
      scaleTargetRef: 'io.k8s.api.autoscaling.v2.CrossVersionObjectReference',
    },
    required: ['scaleTargetRef', 'maxReplicas'],
  },
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus': {
    fields: {
      conditions: '[]io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerCondition',
      currentMetrics: '[]io.k8s.api.autoscaling.v2.MetricStatus',
      currentReplicas: 'int32',
      desiredReplicas: 'int32',
      lastScaleTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      observedGeneration: 'int64',
    },
    required: ['desiredReplicas'],
  },
  'io.k8s.api.autoscaling.v2.MetricIdentifier': {
    fields: { name: 'string', selector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector' },
    required: ['name'],
  },
  'io.k8s.api.autoscaling.v2.MetricSpec': {
    fields: {
      containerResource: 'io.k8s.api.autoscaling.v2.ContainerResourceMetricSource',
      external: 'io.k8s.api.autoscaling.v2.ExternalMetricSource',
      object: 'io.k8s.api.autoscaling.v2.ObjectMetricSource',
      pods: 'io.k8s.api.autoscaling.v2.PodsMetricSource',
      resource: 'io.k8s.api.autoscaling.v2.ResourceMetricSource',
      type: 'string',
    },
    required: ['type'],
  },
  'io.k8s.api.autoscaling.v2.MetricStatus': {
    fields: {
      containerResource: 'io.k8s.api.autoscaling.v2.ContainerResourceMetricStatus',
      external: 'io.k8s.api.autoscaling.v2.ExternalMetricStatus',
      object: 'io.k8s.api.autoscaling.v2.ObjectMetricStatus',
      pods: 'io.k8s.api.autoscaling.v2.PodsMetricStatus',
      resource: 'io.k8s.api.autoscaling.v2.ResourceMetricStatus',
      type: 'string',
    },
    required: ['type'],
  },
  'io.k8s.api.autoscaling.v2.MetricTarget': {
    fields: {
      averageUtilization: 'int32',
      averageValue: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
      type: 'string',
      value: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
    },
    required: ['type'],
  },
  'io.k8s.api.autoscaling.v2.MetricValueStatus': {
    fields: {
      averageUtilization: 'int32',
      averageValue: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
      value: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
    },
  },
  'io.k8s.api.autoscaling.v2.ObjectMetricSource': {
    fields: {
      describedObject: 'io.k8s.api.autoscaling.v2.CrossVersionObjectReference',
      metric: 'io.k8s.api.autoscaling.v2.MetricIdentifier',
      target: 'io.k8s.api.autoscaling.v2.MetricTarget',
    },
    required: ['describedObject', 'target', 'metric'],
  },
  'io.k8s.api.autoscaling.v2.ObjectMetricStatus': {
    fields: {
      current: 'io.k8s.api.autoscaling.v2.MetricValueStatus',
      describedObject: 'io.k8s.api.autoscaling.v2.CrossVersionObjectReference',
      metric: 'io.k8s.api.autoscaling.v2.MetricIdentifier',
    },
    required: ['metric', 'current', 'describedObject'],
  },
  'io.k8s.api.autoscaling.v2.PodsMetricSource': {
    fields: {
      metric: 'io.k8s.api.autoscaling.v2.MetricIdentifier',
      target: 'io.k8s.api.autoscaling.v2.MetricTarget',
    },
    required: ['metric', 'target'],
  },
  'io.k8s.api.autoscaling.v2.PodsMetricStatus': {
    fields: {
      current: 'io.k8s.api.autoscaling.v2.MetricValueStatus',
      metric: 'io.k8s.api.autoscaling.v2.MetricIdentifier',
    },
    required: ['metric', 'current'],
  },
  'io.k8s.api.autoscaling.v2.ResourceMetricSource': {
    fields: { name: 'string', target: 'io.k8s.api.autoscaling.v2.MetricTarget' },
    required: ['name', 'target'],
  },
  'io.k8s.api.autoscaling.v2.ResourceMetricStatus': {
    fields: { current: 'io.k8s.api.autoscaling.v2.MetricValueStatus', name: 'string' },
    required: ['name', 'current'],
  },
  'io.k8s.api.batch.v1.CronJob': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.batch.v1.CronJobSpec',
      status: 'io.k8s.api.batch.v1.CronJobStatus',
    },
    required: ['spec'],
  },
  'io.k8s.api.batch.v1.CronJobSpec': {
    fields: {
      concurrencyPolicy: 'string',
      failedJobsHistoryLimit: 'int32',
      jobTemplate: 'io.k8s.api.batch.v1.JobTemplateSpec',
      schedule: 'string',
      startingDeadlineSeconds: 'int64',
      successfulJobsHistoryLimit: 'int32',
      suspend: 'boolean',
      timeZone: 'string',
    },
    required: ['schedule', 'jobTemplate'],
  },
  'io.k8s.api.batch.v1.CronJobStatus': {
    fields: {
      active: '[]io.k8s.api.core.v1.ObjectReference',
      lastScheduleTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      lastSuccessfulTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
    },
  },
  'io.k8s.api.batch.v1.Job': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.batch.v1.JobSpec',
      status: 'io.k8s.api.batch.v1.JobStatus',
    },
  },
  'io.k8s.api.batch.v1.JobCondition': {
    fields: {
      lastProbeTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      reason: 'string',
      status: 'string',
      type: 'string',
    },
    required: ['type', 'status'],
  },
  'io.k8s.api.batch.v1.JobSchedulingConfiguration': {
    fields: {
      disruptionMode: 'io.k8s.api.scheduling.v1alpha3.WorkloadPodGroupDisruptionMode',
      resourceClaims: '[]io.k8s.api.scheduling.v1alpha3.WorkloadPodGroupResourceClaim',
      schedulingConstraints: 'io.k8s.api.scheduling.v1alpha3.WorkloadPodGroupSchedulingConstraints',
      schedulingPolicy: 'io.k8s.api.scheduling.v1alpha3.WorkloadPodGroupSchedulingPolicy',
    },
  },
  'io.k8s.api.batch.v1.JobSpec': {
    fields: {
      activeDeadlineSeconds: 'int64',
      backoffLimit: 'int32',
      backoffLimitPerIndex: 'int32',
      completionMode: 'string',
      completions: 'int32',
      managedBy: 'string',
      manualSelector: 'boolean',
      maxFailedIndexes: 'int32',
      parallelism: 'int32',
      podFailurePolicy: 'io.k8s.api.batch.v1.PodFailurePolicy',
      podReplacementPolicy: 'string',
      scheduling: 'io.k8s.api.batch.v1.JobSchedulingConfiguration',
      selector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      successPolicy: 'io.k8s.api.batch.v1.SuccessPolicy',
      suspend: 'boolean',
      template: 'io.k8s.api.core.v1.PodTemplateSpec',
      ttlSecondsAfterFinished: 'int32',
    },
    required: ['template'],
  },
  'io.k8s.api.batch.v1.JobStatus': {
    fields: {
      active: 'int32',
      completedIndexes: 'string',
      completionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      conditions: '[]io.k8s.api.batch.v1.JobCondition',
      failed: 'int32',
      failedIndexes: 'string',
      ready: 'int32',
      startTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      succeeded: 'int32',
      terminating: 'int32',
      uncountedTerminatedPods: 'io.k8s.api.batch.v1.UncountedTerminatedPods',
    },
  },
  'io.k8s.api.batch.v1.JobTemplateSpec': {
    fields: {
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.batch.v1.JobSpec',
    },
  },
  'io.k8s.api.batch.v1.PodFailurePolicy': {
    fields: { rules: '[]io.k8s.api.batch.v1.PodFailurePolicyRule' },
    required: ['rules'],
  },
  'io.k8s.api.batch.v1.PodFailurePolicyOnExitCodesRequirement': {
    fields: { containerName: 'string', operator: 'string', values: '[]int32' },
    required: ['operator', 'values'],
  },
  'io.k8s.api.batch.v1.PodFailurePolicyOnPodConditionsPattern': {
    fields: { status: 'string', type: 'string' },
    required: ['type'],
  },
  'io.k8s.api.batch.v1.PodFailurePolicyRule': {
    fields: {
      action: 'string',
      onExitCodes: 'io.k8s.api.batch.v1.PodFailurePolicyOnExitCodesRequirement',
      onPodConditions: '[]io.k8s.api.batch.v1.PodFailurePolicyOnPodConditionsPattern',
    },
    required: ['action'],
  },
  'io.k8s.api.batch.v1.SuccessPolicy': {
    fields: { rules: '[]io.k8s.api.batch.v1.SuccessPolicyRule' },
    required: ['rules'],
  },
  'io.k8s.api.batch.v1.SuccessPolicyRule': {
    fields: { succeededCount: 'int32', succeededIndexes: 'string' },
  },
  'io.k8s.api.batch.v1.UncountedTerminatedPods': { fields: { failed: '[]string', succeeded: '[]string' } },
  'io.k8s.api.certificates.v1.CertificateSigningRequest': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.certificates.v1.CertificateSigningRequestSpec',
      status: 'io.k8s.api.certificates.v1.CertificateSigningRequestStatus',
    },
    required: ['spec'],
  },
  'io.k8s.api.certificates.v1.CertificateSigningRequestCondition': {
    fields: {
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      lastUpdateTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      reason: 'string',
      status: 'string',
      type: 'string',
    },
    required: ['type', 'status'],
  },
  'io.k8s.api.certificates.v1.CertificateSigningRequestSpec': {
    fields: {
      expirationSeconds: 'int32',
      extra: '{}[]string',
      groups: '[]string',
      request: 'bytes',
      signerName: 'string',
      uid: 'string',
      usages: '[]string',
      username: 'string',
    },
    required: ['request', 'signerName'],
  },
  'io.k8s.api.certificates.v1.CertificateSigningRequestStatus': {
    fields: {
      certificate: 'bytes',
      conditions: '[]io.k8s.api.certificates.v1.CertificateSigningRequestCondition',
    },
  },
  'io.k8s.api.certificates.v1.ClusterTrustBundle': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.certificates.v1.ClusterTrustBundleSpec',
    },
    required: ['spec'],
  },
  'io.k8s.api.certificates.v1.ClusterTrustBundleSpec': {
    fields: { signerName: 'string', trustBundle: 'string' },
    required: ['trustBundle'],
  },
  'io.k8s.api.certificates.v1.PodCertificateRequest': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.certificates.v1.PodCertificateRequestSpec',
      status: 'io.k8s.api.certificates.v1.PodCertificateRequestStatus',
    },
    required: ['spec'],
  },
  'io.k8s.api.certificates.v1.PodCertificateRequestSpec': {
    fields: {
      maxExpirationSeconds: 'int32',
      nodeName: 'string',
      nodeUID: 'string',
      podName: 'string',
      podUID: 'string',
      serviceAccountName: 'string',
      serviceAccountUID: 'string',
      signerName: 'string',
      stubPKCS10Request: 'bytes',
      unverifiedUserAnnotations: '{}string',
    },
    required: [
      'signerName',
      'podName',
      'podUID',
      'serviceAccountName',
      'serviceAccountUID',
      'nodeName',
      'nodeUID',
      'stubPKCS10Request',
    ],
  },
  'io.k8s.api.certificates.v1.PodCertificateRequestStatus': {
    fields: {
      beginRefreshAt: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      certificateChain: 'string',
      conditions: '[]io.k8s.apimachinery.pkg.apis.meta.v1.Condition',
      notAfter: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      notBefore: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
    },
  },
  'io.k8s.api.coordination.v1.Lease': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.coordination.v1.LeaseSpec',
    },
  },
  'io.k8s.api.coordination.v1.LeaseSpec': {
    fields: {
      acquireTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
      holderIdentity: 'string',
      leaseDurationSeconds: 'int32',
      leaseTransitions: 'int32',
      preferredHolder: 'string',
      renewTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
      strategy: 'string',
    },
  },
  'io.k8s.api.core.v1.AWSElasticBlockStoreVolumeSource': {
    fields: { fsType: 'string', partition: 'int32', readOnly: 'boolean', volumeID: 'string' },
    required: ['volumeID'],
  },
  'io.k8s.api.core.v1.Affinity': {
    fields: {
      nodeAffinity: 'io.k8s.api.core.v1.NodeAffinity',
      podAffinity: 'io.k8s.api.core.v1.PodAffinity',
      podAntiAffinity: 'io.k8s.api.core.v1.PodAntiAffinity',
    },
  },
  'io.k8s.api.core.v1.AppArmorProfile': {
    fields: { localhostProfile: 'string', type: 'string' },
    required: ['type'],
  },
  'io.k8s.api.core.v1.AttachedVolume': {
    fields: { devicePath: 'string', name: 'string' },
    required: ['name', 'devicePath'],
  },
  'io.k8s.api.core.v1.AzureDiskVolumeSource': {
    fields: {
      cachingMode: 'string',
      diskName: 'string',
      diskURI: 'string',
      fsType: 'string',
      kind: 'string',
      readOnly: 'boolean',
    },
    required: ['diskName', 'diskURI'],
  },
  'io.k8s.api.core.v1.AzureFilePersistentVolumeSource': {
    fields: { readOnly: 'boolean', secretName: 'string', secretNamespace: 'string', shareName: 'string' },
    required: ['secretName', 'shareName'],
  },
  'io.k8s.api.core.v1.AzureFileVolumeSource': {
    fields: { readOnly: 'boolean', secretName: 'string', shareName: 'string' },
    required: ['secretName', 'shareName'],
  },
  'io.k8s.api.core.v1.Binding': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      target: 'io.k8s.api.core.v1.ObjectReference',
    },
    required: ['target'],
  },
  'io.k8s.api.core.v1.CSIPersistentVolumeSource': {
    fields: {
      controllerExpandSecretRef: 'io.k8s.api.core.v1.SecretReference',
      controllerPublishSecretRef: 'io.k8s.api.core.v1.SecretReference',
      driver: 'string',
      fsType: 'string',
      nodeExpandSecretRef: 'io.k8s.api.core.v1.SecretReference',
      nodePublishSecretRef: 'io.k8s.api.core.v1.SecretReference',
      nodeStageSecretRef: 'io.k8s.api.core.v1.SecretReference',
      readOnly: 'boolean',
      volumeAttributes: '{}string',
      volumeHandle: 'string',
    },
    required: ['driver', 'volumeHandle'],
  },
  'io.k8s.api.core.v1.CSIVolumeSource': {
    fields: {
      driver: 'string',
      fsType: 'string',
      nodePublishSecretRef: 'io.k8s.api.core.v1.LocalObjectReference',
      readOnly: 'boolean',
      volumeAttributes: '{}string',
    },
    required: ['driver'],
  },
  'io.k8s.api.core.v1.Capabilities': { fields: { add: '[]string', drop: '[]string' } },
  'io.k8s.api.core.v1.CephFSPersistentVolumeSource': {
    fields: {
      monitors: '[]string',
      path: 'string',
      readOnly: 'boolean',
      secretFile: 'string',
      secretRef: 'io.k8s.api.core.v1.SecretReference',
      user: 'string',
    },
    required: ['monitors'],
  },
  'io.k8s.api.core.v1.CephFSVolumeSource': {
    fields: {
      monitors: '[]string',
      path: 'string',
      readOnly: 'boolean',
      secretFile: 'string',
      secretRef: 'io.k8s.api.core.v1.LocalObjectReference',
      user: 'string',
    },
    required: ['monitors'],
  },
  'io.k8s.api.core.v1.CinderPersistentVolumeSource': {
    fields: {
      fsType: 'string',
      readOnly: 'boolean',
      secretRef: 'io.k8s.api.core.v1.SecretReference',
      volumeID: 'string',
    },
    required: ['volumeID'],
  },
  'io.k8s.api.core.v1.CinderVolumeSource': {
    fields: {
      fsType: 'string',
      readOnly: 'boolean',
      secretRef: 'io.k8s.api.core.v1.LocalObjectReference',
      volumeID: 'string',
    },
    required: ['volumeID'],
  },
  'io.k8s.api.core.v1.ClientIPConfig': { fields: { timeoutSeconds: 'int32' } },
  'io.k8s.api.core.v1.ClusterTrustBundleProjection': {
    fields: {
      labelSelector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      name: 'string',
      optional: 'boolean',
      path: 'string',
      signerName: 'string',
      user: 'int64',
    },
    required: ['path'],
  },
  'io.k8s.api.core.v1.ComponentCondition': {
    fields: { error: 'string', message: 'string', status: 'string', type: 'string' },
    required: ['type', 'status'],
  },
  'io.k8s.api.core.v1.ComponentStatus': {
    fields: {
      apiVersion: 'string',
      conditions: '[]io.k8s.api.core.v1.ComponentCondition',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
    },
  },
  'io.k8s.api.core.v1.ConfigMap': {
    fields: {
      apiVersion: 'string',
      binaryData: '{}bytes',
      data: '{}string',
      immutable: 'boolean',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
    },
  },
  'io.k8s.api.core.v1.ConfigMapEnvSource': { fields: { name: 'string', optional: 'boolean' } },
  'io.k8s.api.core.v1.ConfigMapKeySelector': {
    fields: { key: 'string', name: 'string', optional: 'boolean' },
    required: ['key'],
  },
  'io.k8s.api.core.v1.ConfigMapNodeConfigSource': {
    fields: {
      kubeletConfigKey: 'string',
      name: 'string',
      namespace: 'string',
      resourceVersion: 'string',
      uid: 'string',
    },
    required: ['namespace', 'name', 'kubeletConfigKey'],
  },
  'io.k8s.api.core.v1.ConfigMapProjection': {
    fields: { items: '[]io.k8s.api.core.v1.KeyToPath', name: 'string', optional: 'boolean' },
  },
  'io.k8s.api.core.v1.ConfigMapVolumeSource': {
    fields: {
      defaultMode: 'int32',
      defaultUser: 'int64',
      items: '[]io.k8s.api.core.v1.KeyToPath',
      name: 'string',
      optional: 'boolean',
    },
  },
  'io.k8s.api.core.v1.Container': {
    fields: {
      args: '[]string',
      command: '[]string',
      env: '[]io.k8s.api.core.v1.EnvVar',
      envFrom: '[]io.k8s.api.core.v1.EnvFromSource',
      image: 'string',
      imagePullPolicy: 'string',
      lifecycle: 'io.k8s.api.core.v1.Lifecycle',
      livenessProbe: 'io.k8s.api.core.v1.Probe',
      name: 'string',
      ports: '[]io.k8s.api.core.v1.ContainerPort',
      readinessProbe: 'io.k8s.api.core.v1.Probe',
      resizePolicy: '[]io.k8s.api.core.v1.ContainerResizePolicy',
      resources: 'io.k8s.api.core.v1.ResourceRequirements',
      restartPolicy: 'string',
      restartPolicyRules: '[]io.k8s.api.core.v1.ContainerRestartRule',
      securityContext: 'io.k8s.api.core.v1.SecurityContext',
      startupProbe: 'io.k8s.api.core.v1.Probe',
      stdin: 'boolean',
      stdinOnce: 'boolean',
      terminationMessagePath: 'string',
      terminationMessagePolicy: 'string',
      tty: 'boolean',
      volumeDevices: '[]io.k8s.api.core.v1.VolumeDevice',
      volumeMounts: '[]io.k8s.api.core.v1.VolumeMount',
      workingDir: 'string',
    },
    required: ['name'],
  },
  'io.k8s.api.core.v1.ContainerExtendedResourceRequest': {
    fields: { containerName: 'string', requestName: 'string', resourceName: 'string' },
    required: ['containerName', 'resourceName', 'requestName'],
  },
  'io.k8s.api.core.v1.ContainerImage': { fields: { names: '[]string', sizeBytes: 'int64' } },
  'io.k8s.api.core.v1.ContainerPort': {
    fields: {
      containerPort: 'int32',
      hostIP: 'string',
      hostPort: 'int32',
      name: 'string',
      protocol: 'string',
    },
    required: ['containerPort'],
  },
  'io.k8s.api.core.v1.ContainerResizePolicy': {
    fields: { resourceName: 'string', restartPolicy: 'string' },
    required: ['resourceName', 'restartPolicy'],
  },
  'io.k8s.api.core.v1.ContainerRestartRule': {
    fields: { action: 'string', exitCodes: 'io.k8s.api.core.v1.ContainerRestartRuleOnExitCodes' },
    required: ['action'],
  },
  'io.k8s.api.core.v1.ContainerRestartRuleOnExitCodes': {
    fields: { operator: 'string', values: '[]int32' },
    required: ['operator'],
  },
  'io.k8s.api.core.v1.ContainerState': {
    fields: {
      running: 'io.k8s.api.core.v1.ContainerStateRunning',
      terminated: 'io.k8s.api.core.v1.ContainerStateTerminated',
      waiting: 'io.k8s.api.core.v1.ContainerStateWaiting',
    },
  },
  'io.k8s.api.core.v1.ContainerStateRunning': {
    fields: { startedAt: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time' },
  },
  'io.k8s.api.core.v1.ContainerStateTerminated': {
    fields: {
      containerID: 'string',
      exitCode: 'int32',
      finishedAt: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      reason: 'string',
      signal: 'int32',
      startedAt: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
    },
    required: ['exitCode'],
  },
  'io.k8s.api.core.v1.ContainerStateWaiting': { fields: { message: 'string', reason: 'string' } },
  'io.k8s.api.core.v1.ContainerStatus': {
    fields: {
      allocatedResources: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
      allocatedResourcesStatus: '[]io.k8s.api.core.v1.ResourceStatus',
      containerID: 'string',
      image: 'string',
      imageID: 'string',
      lastState: 'io.k8s.api.core.v1.ContainerState',
      name: 'string',
      ready: 'boolean',
      resources: 'io.k8s.api.core.v1.ResourceRequirements',
      restartCount: 'int32',
      started: 'boolean',
      state: 'io.k8s.api.core.v1.ContainerState',
      stopSignal: 'string',
      user: 'io.k8s.api.core.v1.ContainerUser',
      volumeMounts: '[]io.k8s.api.core.v1.VolumeMountStatus',
    },
    required: ['name', 'ready', 'restartCount', 'image', 'imageID'],
  },
  'io.k8s.api.core.v1.ContainerUser': { fields: { linux: 'io.k8s.api.core.v1.LinuxContainerUser' } },
  'io.k8s.api.core.v1.DaemonEndpoint': { fields: { Port: 'int32' }, required: ['Port'] },
  'io.k8s.api.core.v1.DownwardAPIProjection': {
    fields: { items: '[]io.k8s.api.core.v1.DownwardAPIVolumeFile' },
  },
  'io.k8s.api.core.v1.DownwardAPIVolumeFile': {
    fields: {
      fieldRef: 'io.k8s.api.core.v1.ObjectFieldSelector',
      mode: 'int32',
      path: 'string',
      resourceFieldRef: 'io.k8s.api.core.v1.ResourceFieldSelector',
      user: 'int64',
    },
    required: ['path'],
  },
  'io.k8s.api.core.v1.DownwardAPIVolumeSource': {
    fields: {
      defaultMode: 'int32',
      defaultUser: 'int64',
      items: '[]io.k8s.api.core.v1.DownwardAPIVolumeFile',
    },
  },
  'io.k8s.api.core.v1.EmptyDirVolumeSource': {
    fields: { medium: 'string', mode: 'int32', sizeLimit: 'io.k8s.apimachinery.pkg.api.resource.Quantity' },
  },
  'io.k8s.api.core.v1.EndpointAddress': {
    fields: {
      hostname: 'string',
      ip: 'string',
      nodeName: 'string',
      targetRef: 'io.k8s.api.core.v1.ObjectReference',
    },
    required: ['ip'],
  },
  'io.k8s.api.core.v1.EndpointPort': {
    fields: { appProtocol: 'string', name: 'string', port: 'int32', protocol: 'string' },
    required: ['port'],
  },
  'io.k8s.api.core.v1.EndpointSubset': {
    fields: {
      addresses: '[]io.k8s.api.core.v1.EndpointAddress',
      notReadyAddresses: '[]io.k8s.api.core.v1.EndpointAddress',
      ports: '[]io.k8s.api.core.v1.EndpointPort',
    },
  },
  'io.k8s.api.core.v1.Endpoints': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      subsets: '[]io.k8s.api.core.v1.EndpointSubset',
    },
  },
  'io.k8s.api.core.v1.EnvFromSource': {
    fields: {
      configMapRef: 'io.k8s.api.core.v1.ConfigMapEnvSource',
      prefix: 'string',
      secretRef: 'io.k8s.api.core.v1.SecretEnvSource',
    },
  },
  'io.k8s.api.core.v1.EnvVar': {
    fields: { name: 'string', value: 'string', valueFrom: 'io.k8s.api.core.v1.EnvVarSource' },
    required: ['name'],
  },
  'io.k8s.api.core.v1.EnvVarSource': {
    fields: {
      configMapKeyRef: 'io.k8s.api.core.v1.ConfigMapKeySelector',
      fieldRef: 'io.k8s.api.core.v1.ObjectFieldSelector',
      fileKeyRef: 'io.k8s.api.core.v1.FileKeySelector',
      resourceFieldRef: 'io.k8s.api.core.v1.ResourceFieldSelector',
      secretKeyRef: 'io.k8s.api.core.v1.SecretKeySelector',
    },
  },
  'io.k8s.api.core.v1.EphemeralContainer': {
    fields: {
      args: '[]string',
      command: '[]string',
      env: '[]io.k8s.api.core.v1.EnvVar',
      envFrom: '[]io.k8s.api.core.v1.EnvFromSource',
      image: 'string',
      imagePullPolicy: 'string',
      lifecycle: 'io.k8s.api.core.v1.Lifecycle',
      livenessProbe: 'io.k8s.api.core.v1.Probe',
      name: 'string',
      ports: '[]io.k8s.api.core.v1.ContainerPort',
      readinessProbe: 'io.k8s.api.core.v1.Probe',
      resizePolicy: '[]io.k8s.api.core.v1.ContainerResizePolicy',
      resources: 'io.k8s.api.core.v1.ResourceRequirements',
      restartPolicy: 'string',
      restartPolicyRules: '[]io.k8s.api.core.v1.ContainerRestartRule',
      securityContext: 'io.k8s.api.core.v1.SecurityContext',
      startupProbe: 'io.k8s.api.core.v1.Probe',
      stdin: 'boolean',
      stdinOnce: 'boolean',
      targetContainerName: 'string',
      terminationMessagePath: 'string',
      terminationMessagePolicy: 'string',
      tty: 'boolean',
      volumeDevices: '[]io.k8s.api.core.v1.VolumeDevice',
      volumeMounts: '[]io.k8s.api.core.v1.VolumeMount',
      workingDir: 'string',
    },
    required: ['name'],
  },
  'io.k8s.api.core.v1.EphemeralVolumeSource': {
    fields: { volumeClaimTemplate: 'io.k8s.api.core.v1.PersistentVolumeClaimTemplate' },
  },
  'io.k8s.api.core.v1.Event': {
    fields: {
      action: 'string',
      apiVersion: 'string',
      count: 'int32',
      eventTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
      firstTimestamp: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      involvedObject: 'io.k8s.api.core.v1.ObjectReference',
      kind: 'string',
      lastTimestamp: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      reason: 'string',
      related: 'io.k8s.api.core.v1.ObjectReference',
      reportingComponent: 'string',
      reportingInstance: 'string',
      series: 'io.k8s.api.core.v1.EventSeries',
      source: 'io.k8s.api.core.v1.EventSource',
      type: 'string',
    },
    required: ['metadata', 'involvedObject'],
  },
  'io.k8s.api.core.v1.EventSeries': {
    fields: { count: 'int32', lastObservedTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime' },
  },
  'io.k8s.api.core.v1.EventSource': { fields: { component: 'string', host: 'string' } },
  'io.k8s.api.core.v1.EvictionResponder': {
    fields: { name: 'string', priority: 'int32' },
    required: ['name', 'priority'],
  },
  'io.k8s.api.core.v1.ExecAction': { fields: { command: '[]string' } },
  'io.k8s.api.core.v1.FCVolumeSource': {
    fields: {
      fsType: 'string',
      lun: 'int32',
      readOnly: 'boolean',
      targetWWNs: '[]string',
      wwids: '[]string',
    },
  },
  'io.k8s.api.core.v1.FileKeySelector': {
    fields: { key: 'string', optional: 'boolean', path: 'string', volumeName: 'string' },
    required: ['volumeName', 'path', 'key'],
  },
  'io.k8s.api.core.v1.FlexPersistentVolumeSource': {
    fields: {
      driver: 'string',
      fsType: 'string',
      options: '{}string',
      readOnly: 'boolean',
      secretRef: 'io.k8s.api.core.v1.SecretReference',
    },
    required: ['driver'],
  },
  'io.k8s.api.core.v1.FlexVolumeSource': {
    fields: {
      driver: 'string',
      fsType: 'string',
      options: '{}string',
      readOnly: 'boolean',
      secretRef: 'io.k8s.api.core.v1.LocalObjectReference',
    },
    required: ['driver'],
  },
  'io.k8s.api.core.v1.FlockerVolumeSource': { fields: { datasetName: 'string', datasetUUID: 'string' } },
  'io.k8s.api.core.v1.GCEPersistentDiskVolumeSource': {
    fields: { fsType: 'string', partition: 'int32', pdName: 'string', readOnly: 'boolean' },
    required: ['pdName'],
  },
  'io.k8s.api.core.v1.GRPCAction': {
    fields: { mode: 'string', port: 'int32', service: 'string' },
    required: ['port'],
  },
  'io.k8s.api.core.v1.GitRepoVolumeSource': {
    fields: { directory: 'string', repository: 'string', revision: 'string' },
    required: ['repository'],
  },
  'io.k8s.api.core.v1.GlusterfsPersistentVolumeSource': {
    fields: { endpoints: 'string', endpointsNamespace: 'string', path: 'string', readOnly: 'boolean' },
    required: ['endpoints', 'path'],
  },
  'io.k8s.api.core.v1.GlusterfsVolumeSource': {
    fields: { endpoints: 'string', path: 'string', readOnly: 'boolean' },
    required: ['endpoints', 'path'],
  },
  'io.k8s.api.core.v1.HTTPGetAction': {
    fields: {
      host: 'string',
      httpHeaders: '[]io.k8s.api.core.v1.HTTPHeader',
      path: 'string',
      port: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
      protocol: 'string',
      scheme: 'string',
    },
    required: ['port'],
  },
  'io.k8s.api.core.v1.HTTPHeader': {
    fields: { name: 'string', value: 'string' },
    required: ['name', 'value'],
  },
  'io.k8s.api.core.v1.HostAlias': { fields: { hostnames: '[]string', ip: 'string' }, required: ['ip'] },
  'io.k8s.api.core.v1.HostIP': { fields: { ip: 'string' }, required: ['ip'] },
  'io.k8s.api.core.v1.HostPathVolumeSource': {
    fields: { path: 'string', type: 'string' },
    required: ['path'],
  },
  'io.k8s.api.core.v1.ISCSIPersistentVolumeSource': {
    fields: {
      chapAuthDiscovery: 'boolean',
      chapAuthSession: 'boolean',
      fsType: 'string',
      initiatorName: 'string',
      iqn: 'string',
      iscsiInterface: 'string',
      lun: 'int32',
      portals: '[]string',
      readOnly: 'boolean',
      secretRef: 'io.k8s.api.core.v1.SecretReference',
      targetPortal: 'string',
    },
    required: ['targetPortal', 'iqn', 'lun'],
  },
  'io.k8s.api.core.v1.ISCSIVolumeSource': {
    fields: {
      chapAuthDiscovery: 'boolean',
      chapAuthSession: 'boolean',
      fsType: 'string',
      initiatorName: 'string',
      iqn: 'string',
      iscsiInterface: 'string',
      lun: 'int32',
      portals: '[]string',
      readOnly: 'boolean',
      secretRef: 'io.k8s.api.core.v1.LocalObjectReference',
      targetPortal: 'string',
    },
    required: ['targetPortal', 'iqn', 'lun'],
  },
  'io.k8s.api.core.v1.ImageVolumeSource': { fields: { pullPolicy: 'string', reference: 'string' } },
  'io.k8s.api.core.v1.ImageVolumeStatus': { fields: { imageRef: 'string' }, required: ['imageRef'] },
  'io.k8s.api.core.v1.KeyToPath': {
    fields: { key: 'string', mode: 'int32', path: 'string', user: 'int64' },
    required: ['key', 'path'],
  },
  'io.k8s.api.core.v1.Lifecycle': {
    fields: {
      postStart: 'io.k8s.api.core.v1.LifecycleHandler',
      preStop: 'io.k8s.api.core.v1.LifecycleHandler',
      stopSignal: 'string',
    },
  },
  'io.k8s.api.core.v1.LifecycleHandler': {
    fields: {
      exec: 'io.k8s.api.core.v1.ExecAction',
      httpGet: 'io.k8s.api.core.v1.HTTPGetAction',
      sleep: 'io.k8s.api.core.v1.SleepAction',
      tcpSocket: 'io.k8s.api.core.v1.TCPSocketAction',
    },
  },
  'io.k8s.api.core.v1.LimitRange': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.core.v1.LimitRangeSpec',
    },
  },
  'io.k8s.api.core.v1.LimitRangeItem': {
    fields: {
      default: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
      defaultRequest: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
      max: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
      maxLimitRequestRatio: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
      min: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
      type: 'string',
    },
    required: ['type'],
  },
  'io.k8s.api.core.v1.LimitRangeSpec': {
    fields: { limits: '[]io.k8s.api.core.v1.LimitRangeItem' },
    required: ['limits'],
  },
  'io.k8s.api.core.v1.LinuxContainerUser': {
    fields: { gid: 'int64', supplementalGroups: '[]int64', uid: 'int64' },
    required: ['uid', 'gid'],
  },
  'io.k8s.api.core.v1.LoadBalancerIngress': {
    fields: { hostname: 'string', ip: 'string', ipMode: 'string', ports: '[]io.k8s.api.core.v1.PortStatus' },
  },
  'io.k8s.api.core.v1.LoadBalancerStatus': {
    fields: { ingress: '[]io.k8s.api.core.v1.LoadBalancerIngress' },
  },
  'io.k8s.api.core.v1.LocalObjectReference': { fields: { name: 'string' } },
  'io.k8s.api.core.v1.LocalVolumeSource': {
    fields: { fsType: 'string', path: 'string' },
    required: ['path'],
  },
  'io.k8s.api.core.v1.ModifyVolumeStatus': {
    fields: { status: 'string', targetVolumeAttributesClassName: 'string' },
    required: ['status'],
  },
  'io.k8s.api.core.v1.NFSVolumeSource': {
    fields: { path: 'string', readOnly: 'boolean', server: 'string' },
    required: ['server', 'path'],
  },
  'io.k8s.api.core.v1.Namespace': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.core.v1.NamespaceSpec',
      status: 'io.k8s.api.core.v1.NamespaceStatus',
    },
  },
  'io.k8s.api.core.v1.NamespaceCondition': {
    fields: {
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      reason: 'string',
      status: 'string',
      type: 'string',
    },
    required: ['type', 'status'],
  },
  'io.k8s.api.core.v1.NamespaceSpec': { fields: { finalizers: '[]string' } },
  'io.k8s.api.core.v1.NamespaceStatus': {
    fields: { conditions: '[]io.k8s.api.core.v1.NamespaceCondition', phase: 'string' },
  },
  'io.k8s.api.core.v1.Node': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.core.v1.NodeSpec',
      status: 'io.k8s.api.core.v1.NodeStatus',
    },
  },
  'io.k8s.api.core.v1.NodeAddress': {
    fields: { address: 'string', type: 'string' },
    required: ['type', 'address'],
  },
  'io.k8s.api.core.v1.NodeAffinity': {
    fields: {
      preferredDuringSchedulingIgnoredDuringExecution: '[]io.k8s.api.core.v1.PreferredSchedulingTerm',
      requiredDuringSchedulingIgnoredDuringExecution: 'io.k8s.api.core.v1.NodeSelector',
    },
  },
  'io.k8s.api.core.v1.NodeAllocatableMappedResources': {
    fields: { name: 'string', quantity: 'io.k8s.apimachinery.pkg.api.resource.Quantity' },
    required: ['name', 'quantity'],
  },
  'io.k8s.api.core.v1.NodeAllocatableOverheadResources': {
    fields: {
      name: 'string',
      perContainer: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
      perPod: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
    },
    required: ['name'],
  },
  'io.k8s.api.core.v1.NodeAllocatableResourceClaimStatus': {
    fields: {
      containers: '[]string',
      mapping: '[]io.k8s.api.core.v1.NodeAllocatableMappedResources',
      overhead: '[]io.k8s.api.core.v1.NodeAllocatableOverheadResources',
      resourceClaimName: 'string',
    },
    required: ['resourceClaimName'],
  },
  'io.k8s.api.core.v1.NodeCondition': {
    fields: {
      lastHeartbeatTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      reason: 'string',
      status: 'string',
      type: 'string',
    },
    required: ['type', 'status'],
  },
  'io.k8s.api.core.v1.NodeConfigSource': {
    fields: { configMap: 'io.k8s.api.core.v1.ConfigMapNodeConfigSource' },
  },
  'io.k8s.api.core.v1.NodeConfigStatus': {
    fields: {
      active: 'io.k8s.api.core.v1.NodeConfigSource',
      assigned: 'io.k8s.api.core.v1.NodeConfigSource',
      error: 'string',
      lastKnownGood: 'io.k8s.api.core.v1.NodeConfigSource',
    },
  },
  'io.k8s.api.core.v1.NodeDaemonEndpoints': {
    fields: { kubeletEndpoint: 'io.k8s.api.core.v1.DaemonEndpoint' },
  },
  'io.k8s.api.core.v1.NodeFeatures': { fields: { supplementalGroupsPolicy: 'boolean' } },
  'io.k8s.api.core.v1.NodePodPreemptionPolicy': { fields: { disableResizePreemption: '[]string' } },
  'io.k8s.api.core.v1.NodeRuntimeHandler': {
    fields: { features: 'io.k8s.api.core.v1.NodeRuntimeHandlerFeatures', name: 'string' },
  },
  'io.k8s.api.core.v1.NodeRuntimeHandlerFeatures': {
    fields: { recursiveReadOnlyMounts: 'boolean', userNamespaces: 'boolean' },
  },
  'io.k8s.api.core.v1.NodeSelector': {
    fields: { nodeSelectorTerms: '[]io.k8s.api.core.v1.NodeSelectorTerm' },
    required: ['nodeSelectorTerms'],
  },
  'io.k8s.api.core.v1.NodeSelectorRequirement': {
    fields: { key: 'string', operator: 'string', values: '[]string' },
    required: ['key', 'operator'],
  },
  'io.k8s.api.core.v1.NodeSelectorTerm': {
    fields: {
      matchExpressions: '[]io.k8s.api.core.v1.NodeSelectorRequirement',
      matchFields: '[]io.k8s.api.core.v1.NodeSelectorRequirement',
    },
  },
  'io.k8s.api.core.v1.NodeSpec': {
    fields: {
      configSource: 'io.k8s.api.core.v1.NodeConfigSource',
      externalID: 'string',
      podCIDR: 'string',
      podCIDRs: '[]string',
      podPreemptionPolicy: 'io.k8s.api.core.v1.NodePodPreemptionPolicy',
      providerID: 'string',
      taints: '[]io.k8s.api.core.v1.Taint',
      unschedulable: 'boolean',
    },
  },
  'io.k8s.api.core.v1.NodeStatus': {
    fields: {
      addresses: '[]io.k8s.api.core.v1.NodeAddress',
      allocatable: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
      capacity: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
      conditions: '[]io.k8s.api.core.v1.NodeCondition',
      config: 'io.k8s.api.core.v1.NodeConfigStatus',
      daemonEndpoints: 'io.k8s.api.core.v1.NodeDaemonEndpoints',
      declaredFeatures: '[]string',
      features: 'io.k8s.api.core.v1.NodeFeatures',
      images: '[]io.k8s.api.core.v1.ContainerImage',
      nodeInfo: 'io.k8s.api.core.v1.NodeSystemInfo',
      phase: 'string',
      runtimeHandlers: '[]io.k8s.api.core.v1.NodeRuntimeHandler',
      volumesAttached: '[]io.k8s.api.core.v1.AttachedVolume',
      volumesInUse: '[]string',
    },
  },
  'io.k8s.api.core.v1.NodeSwapStatus': { fields: { capacity: 'int64' } },
  'io.k8s.api.core.v1.NodeSystemInfo': {
    fields: {
      architecture: 'string',
      bootID: 'string',
      containerRuntimeVersion: 'string',
      kernelVersion: 'string',
      kubeProxyVersion: 'string',
      kubeletVersion: 'string',
      machineID: 'string',
      operatingSystem: 'string',
      osImage: 'string',
      runningInUserNamespace: 'boolean',
      swap: 'io.k8s.api.core.v1.NodeSwapStatus',
      systemUUID: 'string',
    },
    required: [
      'machineID',
      'systemUUID',
      'bootID',
      'kernelVersion',
      'osImage',
      'containerRuntimeVersion',
      'kubeletVersion',
      'kubeProxyVersion',
      'operatingSystem',
      'architecture',
    ],
  },
  'io.k8s.api.core.v1.ObjectFieldSelector': {
    fields: { apiVersion: 'string', fieldPath: 'string' },
    required: ['fieldPath'],
  },
  'io.k8s.api.core.v1.ObjectReference': {
    fields: {
      apiVersion: 'string',
      fieldPath: 'string',
      kind: 'string',
      name: 'string',
      namespace: 'string',
      resourceVersion: 'string',
      uid: 'string',
    },
  },
  'io.k8s.api.core.v1.PersistentVolume': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.core.v1.PersistentVolumeSpec',
      status: 'io.k8s.api.core.v1.PersistentVolumeStatus',
    },
  },
  'io.k8s.api.core.v1.PersistentVolumeClaim': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.core.v1.PersistentVolumeClaimSpec',
      status: 'io.k8s.api.core.v1.PersistentVolumeClaimStatus',
    },
  },
  'io.k8s.api.core.v1.PersistentVolumeClaimCondition': {
    fields: {
      lastProbeTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      reason: 'string',
      status: 'string',
      type: 'string',
    },
    required: ['type', 'status'],
  },
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec': {
    fields: {
      accessModes: '[]string',
      dataSource: 'io.k8s.api.core.v1.TypedLocalObjectReference',
      dataSourceRef: 'io.k8s.api.core.v1.TypedObjectReference',
      resources: 'io.k8s.api.core.v1.VolumeResourceRequirements',
      selector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      storageClassName: 'string',
      volumeAttributesClassName: 'string',
      volumeMode: 'string',
      volumeName: 'string',
    },
  },
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus': {
    fields: {
      accessModes: '[]string',
      allocatedResourceStatuses: '{}string',
      allocatedResources: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
      capacity: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
      conditions: '[]io.k8s.api.core.v1.PersistentVolumeClaimCondition',
      currentVolumeAttributesClassName: 'string',
      healthStatus: 'io.k8s.api.core.v1.VolumeHealthStatus',
      modifyVolumeStatus: 'io.k8s.api.core.v1.ModifyVolumeStatus',
      phase: 'string',
    },
  },
  'io.k8s.api.core.v1.PersistentVolumeClaimTemplate': {
    fields: {
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.core.v1.PersistentVolumeClaimSpec',
    },
    required: ['spec'],
  },
  'io.k8s.api.core.v1.PersistentVolumeClaimVolumeSource': {
    fields: { claimName: 'string', readOnly: 'boolean' },
    required: ['claimName'],
  },
  'io.k8s.api.core.v1.PersistentVolumeSpec': {
    fields: {
      accessModes: '[]string',
      awsElasticBlockStore: 'io.k8s.api.core.v1.AWSElasticBlockStoreVolumeSource',
      azureDisk: 'io.k8s.api.core.v1.AzureDiskVolumeSource',
      azureFile: 'io.k8s.api.core.v1.AzureFilePersistentVolumeSource',
      capacity: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
      cephfs: 'io.k8s.api.core.v1.CephFSPersistentVolumeSource',
      cinder: 'io.k8s.api.core.v1.CinderPersistentVolumeSource',
      claimRef: 'io.k8s.api.core.v1.ObjectReference',
      csi: 'io.k8s.api.core.v1.CSIPersistentVolumeSource',
      fc: 'io.k8s.api.core.v1.FCVolumeSource',
      flexVolume: 'io.k8s.api.core.v1.FlexPersistentVolumeSource',
      flocker: 'io.k8s.api.core.v1.FlockerVolumeSource',
      gcePersistentDisk: 'io.k8s.api.core.v1.GCEPersistentDiskVolumeSource',
      glusterfs: 'io.k8s.api.core.v1.GlusterfsPersistentVolumeSource',
      hostPath: 'io.k8s.api.core.v1.HostPathVolumeSource',
      iscsi: 'io.k8s.api.core.v1.ISCSIPersistentVolumeSource',
      local: 'io.k8s.api.core.v1.LocalVolumeSource',
      mountOptions: '[]string',
      nfs: 'io.k8s.api.core.v1.NFSVolumeSource',
      nodeAffinity: 'io.k8s.api.core.v1.VolumeNodeAffinity',
      persistentVolumeReclaimPolicy: 'string',
      photonPersistentDisk: 'io.k8s.api.core.v1.PhotonPersistentDiskVolumeSource',
      portworxVolume: 'io.k8s.api.core.v1.PortworxVolumeSource',
      quobyte: 'io.k8s.api.core.v1.QuobyteVolumeSource',
      rbd: 'io.k8s.api.core.v1.RBDPersistentVolumeSource',
      scaleIO: 'io.k8s.api.core.v1.ScaleIOPersistentVolumeSource',
      storageClassName: 'string',
      storageos: 'io.k8s.api.core.v1.StorageOSPersistentVolumeSource',
      volumeAttributesClassName: 'string',
      volumeMode: 'string',
      vsphereVolume: 'io.k8s.api.core.v1.VsphereVirtualDiskVolumeSource',
    },
  },
  'io.k8s.api.core.v1.PersistentVolumeStatus': {
    fields: {
      lastPhaseTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      phase: 'string',
      reason: 'string',
    },
  },
  'io.k8s.api.core.v1.PhotonPersistentDiskVolumeSource': {
    fields: { fsType: 'string', pdID: 'string' },
    required: ['pdID'],
  },
  'io.k8s.api.core.v1.Pod': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.core.v1.PodSpec',
      status: 'io.k8s.api.core.v1.PodStatus',
    },
  },
  'io.k8s.api.core.v1.PodAffinity': {
    fields: {
      preferredDuringSchedulingIgnoredDuringExecution: '[]io.k8s.api.core.v1.WeightedPodAffinityTerm',
      requiredDuringSchedulingIgnoredDuringExecution: '[]io.k8s.api.core.v1.PodAffinityTerm',
    },
  },
  'io.k8s.api.core.v1.PodAffinityTerm': {
    fields: {
      labelSelector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      matchLabelKeys: '[]string',
      mismatchLabelKeys: '[]string',
      namespaceSelector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      namespaces: '[]string',
      topologyKey: 'string',
    },
    required: ['topologyKey'],
  },
  'io.k8s.api.core.v1.PodAntiAffinity': {
    fields: {
      preferredDuringSchedulingIgnoredDuringExecution: '[]io.k8s.api.core.v1.WeightedPodAffinityTerm',
      requiredDuringSchedulingIgnoredDuringExecution: '[]io.k8s.api.core.v1.PodAffinityTerm',
    },
  },
  'io.k8s.api.core.v1.PodCertificateProjection': {
    fields: {
      certificateChainPath: 'string',
      credentialBundlePath: 'string',
      keyPath: 'string',
      keyType: 'string',
      maxExpirationSeconds: 'int32',
      signerName: 'string',
      user: 'int64',
      userAnnotations: '{}string',
    },
    required: ['signerName', 'keyType'],
  },
  'io.k8s.api.core.v1.PodCondition': {
    fields: {
      lastProbeTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      observedGeneration: 'int64',
      reason: 'string',
      status: 'string',
      type: 'string',
    },
    required: ['type', 'status'],
  },
  'io.k8s.api.core.v1.PodDNSConfig': {
    fields: {
      nameservers: '[]string',
      options: '[]io.k8s.api.core.v1.PodDNSConfigOption',
      searches: '[]string',
    },
  },
  'io.k8s.api.core.v1.PodDNSConfigOption': { fields: { name: 'string', value: 'string' } },
  'io.k8s.api.core.v1.PodExtendedResourceClaimStatus': {
    fields: {
      requestMappings: '[]io.k8s.api.core.v1.ContainerExtendedResourceRequest',
      resourceClaimName: 'string',
    },
    required: ['requestMappings', 'resourceClaimName'],
  },
  'io.k8s.api.core.v1.PodIP': { fields: { ip: 'string' }, required: ['ip'] },
  'io.k8s.api.core.v1.PodOS': { fields: { name: 'string' }, required: ['name'] },
  'io.k8s.api.core.v1.PodReadinessGate': { fields: { conditionType: 'string' }, required: ['conditionType'] },
  'io.k8s.api.core.v1.PodResourceClaim': {
    fields: { name: 'string', resourceClaimName: 'string', resourceClaimTemplateName: 'string' },
    required: ['name'],
  },
  'io.k8s.api.core.v1.PodResourceClaimStatus': {
    fields: { name: 'string', resourceClaimName: 'string' },
    required: ['name'],
  },
  'io.k8s.api.core.v1.PodSchedulingGate': { fields: { name: 'string' }, required: ['name'] },
  'io.k8s.api.core.v1.PodSchedulingGroup': { fields: { podGroupName: 'string' } },
  'io.k8s.api.core.v1.PodSecurityContext': {
    fields: {
      appArmorProfile: 'io.k8s.api.core.v1.AppArmorProfile',
      fsGroup: 'int64',
      fsGroupChangePolicy: 'string',
      runAsGroup: 'int64',
      runAsNonRoot: 'boolean',
      runAsUser: 'int64',
      seLinuxChangePolicy: 'string',
      seLinuxOptions: 'io.k8s.api.core.v1.SELinuxOptions',
      seccompProfile: 'io.k8s.api.core.v1.SeccompProfile',
      supplementalGroups: '[]int64',
      supplementalGroupsPolicy: 'string',
      sysctls: '[]io.k8s.api.core.v1.Sysctl',
      windowsOptions: 'io.k8s.api.core.v1.WindowsSecurityContextOptions',
    },
  },
  'io.k8s.api.core.v1.PodSpec': {
    fields: {
      activeDeadlineSeconds: 'int64',
      affinity: 'io.k8s.api.core.v1.Affinity',
      automountServiceAccountToken: 'boolean',
      containers: '[]io.k8s.api.core.v1.Container',
      dnsConfig: 'io.k8s.api.core.v1.PodDNSConfig',
      dnsPolicy: 'string',
      enableServiceLinks: 'boolean',
      ephemeralContainers: '[]io.k8s.api.core.v1.EphemeralContainer',
      evictionResponders: '[]io.k8s.api.core.v1.EvictionResponder',
      hostAliases: '[]io.k8s.api.core.v1.HostAlias',
      hostIPC: 'boolean',
      hostNetwork: 'boolean',
      hostPID: 'boolean',
      hostUsers: 'boolean',
      hostname: 'string',
      hostnameOverride: 'string',
      imagePullSecrets: '[]io.k8s.api.core.v1.LocalObjectReference',
      initContainers: '[]io.k8s.api.core.v1.Container',
      nodeName: 'string',
      nodeSelector: '{}string',
      os: 'io.k8s.api.core.v1.PodOS',
      overhead: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
      preemptionPolicy: 'string',
      priority: 'int32',
      priorityClassName: 'string',
      readinessGates: '[]io.k8s.api.core.v1.PodReadinessGate',
      resourceClaims: '[]io.k8s.api.core.v1.PodResourceClaim',
      resources: 'io.k8s.api.core.v1.ResourceRequirements',
      restartPolicy: 'string',
      runtimeClassName: 'string',
      schedulerName: 'string',
      schedulingGates: '[]io.k8s.api.core.v1.PodSchedulingGate',
      schedulingGroup: 'io.k8s.api.core.v1.PodSchedulingGroup',
      securityContext: 'io.k8s.api.core.v1.PodSecurityContext',
      serviceAccount: 'string',
      serviceAccountName: 'string',
      setHostnameAsFQDN: 'boolean',
      shareProcessNamespace: 'boolean',
      subdomain: 'string',
      terminationGracePeriodSeconds: 'int64',
      tolerations: '[]io.k8s.api.core.v1.Toleration',
      topologySpreadConstraints: '[]io.k8s.api.core.v1.TopologySpreadConstraint',
      volumes: '[]io.k8s.api.core.v1.Volume',
    },
    required: ['containers'],
  },
  'io.k8s.api.core.v1.PodStatus': {
    fields: {
      allocatedResources: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
      conditions: '[]io.k8s.api.core.v1.PodCondition',
      containerStatuses: '[]io.k8s.api.core.v1.ContainerStatus',
      ephemeralContainerStatuses: '[]io.k8s.api.core.v1.ContainerStatus',
      extendedResourceClaimStatus: 'io.k8s.api.core.v1.PodExtendedResourceClaimStatus',
      hostIP: 'string',
      hostIPs: '[]io.k8s.api.core.v1.HostIP',
      initContainerStatuses: '[]io.k8s.api.core.v1.ContainerStatus',
      message: 'string',
      nodeAllocatableResourceClaimStatuses: '[]io.k8s.api.core.v1.NodeAllocatableResourceClaimStatus',
      nominatedNodeName: 'string',
      observedGeneration: 'int64',
      phase: 'string',
      podIP: 'string',
      podIPs: '[]io.k8s.api.core.v1.PodIP',
      qosClass: 'string',
      reason: 'string',
      resize: 'string',
      resourceClaimStatuses: '[]io.k8s.api.core.v1.PodResourceClaimStatus',
      resources: 'io.k8s.api.core.v1.ResourceRequirements',
      startTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      volumeHealth: '[]io.k8s.api.core.v1.PodVolumeHealth',
    },
  },
  'io.k8s.api.core.v1.PodTemplate': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      template: 'io.k8s.api.core.v1.PodTemplateSpec',
    },
  },
  'io.k8s.api.core.v1.PodTemplateSpec': {
    fields: {
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.core.v1.PodSpec',
    },
  },
  'io.k8s.api.core.v1.PodVolumeHealth': {
    fields: {
      healthConditions: '[]io.k8s.api.core.v1.VolumeHealthCondition',
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      name: 'string',
    },
    required: ['name'],
  },
  'io.k8s.api.core.v1.PortStatus': {
    fields: { error: 'string', port: 'int32', protocol: 'string' },
    required: ['port', 'protocol'],
  },
  'io.k8s.api.core.v1.PortworxVolumeSource': {
    fields: { fsType: 'string', readOnly: 'boolean', volumeID: 'string' },
    required: ['volumeID'],
  },
  'io.k8s.api.core.v1.PreferredSchedulingTerm': {
    fields: { preference: 'io.k8s.api.core.v1.NodeSelectorTerm', weight: 'int32' },
    required: ['weight', 'preference'],
  },
  'io.k8s.api.core.v1.Probe': {
    fields: {
      exec: 'io.k8s.api.core.v1.ExecAction',
      failureThreshold: 'int32',
      grpc: 'io.k8s.api.core.v1.GRPCAction',
      httpGet: 'io.k8s.api.core.v1.HTTPGetAction',
      initialDelaySeconds: 'int32',
      periodSeconds: 'int32',
      successThreshold: 'int32',
      tcpSocket: 'io.k8s.api.core.v1.TCPSocketAction',
      terminationGracePeriodSeconds: 'int64',
      timeoutSeconds: 'int32',
    },
  },
  'io.k8s.api.core.v1.ProjectedVolumeSource': {
    fields: { defaultMode: 'int32', defaultUser: 'int64', sources: '[]io.k8s.api.core.v1.VolumeProjection' },
  },
  'io.k8s.api.core.v1.QuobyteVolumeSource': {
    fields: {
      group: 'string',
      readOnly: 'boolean',
      registry: 'string',
      tenant: 'string',
      user: 'string',
      volume: 'string',
    },
    required: ['registry', 'volume'],
  },
  'io.k8s.api.core.v1.RBDPersistentVolumeSource': {
    fields: {
      fsType: 'string',
      image: 'string',
      keyring: 'string',
      monitors: '[]string',
      pool: 'string',
      readOnly: 'boolean',
      secretRef: 'io.k8s.api.core.v1.SecretReference',
      user: 'string',
    },
    required: ['monitors', 'image'],
  },
  'io.k8s.api.core.v1.RBDVolumeSource': {
    fields: {
      fsType: 'string',
      image: 'string',
      keyring: 'string',
      monitors: '[]string',
      pool: 'string',
      readOnly: 'boolean',
      secretRef: 'io.k8s.api.core.v1.LocalObjectReference',
      user: 'string',
    },
    required: ['monitors', 'image'],
  },
  'io.k8s.api.core.v1.ReplicationController': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.core.v1.ReplicationControllerSpec',
      status: 'io.k8s.api.core.v1.ReplicationControllerStatus',
    },
  },
  'io.k8s.api.core.v1.ReplicationControllerCondition': {
    fields: {
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      reason: 'string',
      status: 'string',
      type: 'string',
    },
    required: ['type', 'status'],
  },
  'io.k8s.api.core.v1.ReplicationControllerSpec': {
    fields: {
      minReadySeconds: 'int32',
      replicas: 'int32',
      selector: '{}string',
      template: 'io.k8s.api.core.v1.PodTemplateSpec',
    },
  },
  'io.k8s.api.core.v1.ReplicationControllerStatus': {
    fields: {
      availableReplicas: 'int32',
      conditions: '[]io.k8s.api.core.v1.ReplicationControllerCondition',
      fullyLabeledReplicas: 'int32',
      observedGeneration: 'int64',
      readyReplicas: 'int32',
      replicas: 'int32',
    },
    required: ['replicas'],
  },
  'io.k8s.api.core.v1.ResourceClaim': { fields: { name: 'string', request: 'string' }, required: ['name'] },
  'io.k8s.api.core.v1.ResourceFieldSelector': {
    fields: {
      containerName: 'string',
      divisor: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
      resource: 'string',
    },
    required: ['resource'],
  },
  'io.k8s.api.core.v1.ResourceHealth': {
    fields: { health: 'string', message: 'string', resourceID: 'string' },
    required: ['resourceID'],
  },
  'io.k8s.api.core.v1.ResourceQuota': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.core.v1.ResourceQuotaSpec',
      status: 'io.k8s.api.core.v1.ResourceQuotaStatus',
    },
  },
  'io.k8s.api.core.v1.ResourceQuotaSpec': {
    fields: {
      hard: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
      scopeSelector: 'io.k8s.api.core.v1.ScopeSelector',
      scopes: '[]string',
    },
  },
  'io.k8s.api.core.v1.ResourceQuotaStatus': {
    fields: {
      hard: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
      used: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
    },
  },
  'io.k8s.api.core.v1.ResourceRequirements': {
    fields: {
      claims: '[]io.k8s.api.core.v1.ResourceClaim',
      limits: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
      requests: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
    },
  },
  'io.k8s.api.core.v1.ResourceStatus': {
    fields: { name: 'string', resources: '[]io.k8s.api.core.v1.ResourceHealth' },
    required: ['name'],
  },
  'io.k8s.api.core.v1.SELinuxOptions': {
    fields: { level: 'string', role: 'string', type: 'string', user: 'string' },
  },
  'io.k8s.api.core.v1.ScaleIOPersistentVolumeSource': {
    fields: {
      fsType: 'string',
      gateway: 'string',
      protectionDomain: 'string',
      readOnly: 'boolean',
      secretRef: 'io.k8s.api.core.v1.SecretReference',
      sslEnabled: 'boolean',
      storageMode: 'string',
      storagePool: 'string',
      system: 'string',
      volumeName: 'string',
    },
    required: ['gateway', 'system', 'secretRef'],
  },
  'io.k8s.api.core.v1.ScaleIOVolumeSource': {
    fields: {
      fsType: 'string',
      gateway: 'string',
      protectionDomain: 'string',
      readOnly: 'boolean',
      secretRef: 'io.k8s.api.core.v1.LocalObjectReference',
      sslEnabled: 'boolean',
      storageMode: 'string',
      storagePool: 'string',
      system: 'string',
      volumeName: 'string',
    },
    required: ['gateway', 'system', 'secretRef'],
  },
  'io.k8s.api.core.v1.ScopeSelector': {
    fields: { matchExpressions: '[]io.k8s.api.core.v1.ScopedResourceSelectorRequirement' },
  },
  'io.k8s.api.core.v1.ScopedResourceSelectorRequirement': {
    fields: { operator: 'string', scopeName: 'string', values: '[]string' },
    required: ['scopeName', 'operator'],
  },
  'io.k8s.api.core.v1.SeccompProfile': {
    fields: { localhostProfile: 'string', type: 'string' },
    required: ['type'],
  },
  'io.k8s.api.core.v1.Secret': {
    fields: {
      apiVersion: 'string',
      data: '{}bytes',
      immutable: 'boolean',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      stringData: '{}string',
      type: 'string',
    },
  },
  'io.k8s.api.core.v1.SecretEnvSource': { fields: { name: 'string', optional: 'boolean' } },
  'io.k8s.api.core.v1.SecretKeySelector': {
    fields: { key: 'string', name: 'string', optional: 'boolean' },
    required: ['key'],
  },
  'io.k8s.api.core.v1.SecretProjection': {
    fields: { items: '[]io.k8s.api.core.v1.KeyToPath', name: 'string', optional: 'boolean' },
  },
  'io.k8s.api.core.v1.SecretReference': { fields: { name: 'string', namespace: 'string' } },
  'io.k8s.api.core.v1.SecretVolumeSource': {
    fields: {
      defaultMode: 'int32',
      defaultUser: 'int64',
      items: '[]io.k8s.api.core.v1.KeyToPath',
      optional: 'boolean',
      secretName: 'string',
    },
  },
  'io.k8s.api.core.v1.SecurityContext': {
    fields: {
      allowPrivilegeEscalation: 'boolean',
      appArmorProfile: 'io.k8s.api.core.v1.AppArmorProfile',
      capabilities: 'io.k8s.api.core.v1.Capabilities',
      privileged: 'boolean',
      procMount: 'string',
      readOnlyRootFilesystem: 'boolean',
      runAsGroup: 'int64',
      runAsNonRoot: 'boolean',
      runAsUser: 'int64',
      seLinuxOptions: 'io.k8s.api.core.v1.SELinuxOptions',
      seccompProfile: 'io.k8s.api.core.v1.SeccompProfile',
      windowsOptions: 'io.k8s.api.core.v1.WindowsSecurityContextOptions',
    },
  },
  'io.k8s.api.core.v1.Service': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.core.v1.ServiceSpec',
      status: 'io.k8s.api.core.v1.ServiceStatus',
    },
  },
  'io.k8s.api.core.v1.ServiceAccount': {
    fields: {
      apiVersion: 'string',
      automountServiceAccountToken: 'boolean',
      imagePullSecrets: '[]io.k8s.api.core.v1.LocalObjectReference',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      secrets: '[]io.k8s.api.core.v1.ObjectReference',
    },
  },
  'io.k8s.api.core.v1.ServiceAccountTokenProjection': {
    fields: { audience: 'string', expirationSeconds: 'int64', path: 'string', user: 'int64' },
    required: ['path'],
  },
  'io.k8s.api.core.v1.ServicePort': {
    fields: {
      appProtocol: 'string',
      name: 'string',
      nodePort: 'int32',
      port: 'int32',
      protocol: 'string',
      targetPort: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
    },
    required: ['port'],
  },
  'io.k8s.api.core.v1.ServiceSpec': {
    fields: {
      allocateLoadBalancerNodePorts: 'boolean',
      clusterIP: 'string',
      clusterIPs: '[]string',
      externalIPs: '[]string',
      externalName: 'string',
      externalTrafficPolicy: 'string',
      healthCheckNodePort: 'int32',
      internalTrafficPolicy: 'string',
      ipFamilies: '[]string',
      ipFamilyPolicy: 'string',
      loadBalancerClass: 'string',
      loadBalancerIP: 'string',
      loadBalancerSourceRanges: '[]string',
      ports: '[]io.k8s.api.core.v1.ServicePort',
      publishNotReadyAddresses: 'boolean',
      selector: '{}string',
      sessionAffinity: 'string',
      sessionAffinityConfig: 'io.k8s.api.core.v1.SessionAffinityConfig',
      trafficDistribution: 'string',
      type: 'string',
    },
  },
  'io.k8s.api.core.v1.ServiceStatus': {
    fields: {
      conditions: '[]io.k8s.apimachinery.pkg.apis.meta.v1.Condition',
      loadBalancer: 'io.k8s.api.core.v1.LoadBalancerStatus',
    },
  },
  'io.k8s.api.core.v1.SessionAffinityConfig': { fields: { clientIP: 'io.k8s.api.core.v1.ClientIPConfig' } },
  'io.k8s.api.core.v1.SleepAction': { fields: { seconds: 'int64' }, required: ['seconds'] },
  'io.k8s.api.core.v1.StorageOSPersistentVolumeSource': {
    fields: {
      fsType: 'string',
      readOnly: 'boolean',
      secretRef: 'io.k8s.api.core.v1.ObjectReference',
      volumeName: 'string',
      volumeNamespace: 'string',
    },
  },
  'io.k8s.api.core.v1.StorageOSVolumeSource': {
    fields: {
      fsType: 'string',
      readOnly: 'boolean',
      secretRef: 'io.k8s.api.core.v1.LocalObjectReference',
      volumeName: 'string',
      volumeNamespace: 'string',
    },
  },
  'io.k8s.api.core.v1.Sysctl': { fields: { name: 'string', value: 'string' }, required: ['name', 'value'] },
  'io.k8s.api.core.v1.TCPSocketAction': {
    fields: { host: 'string', port: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString' },
    required: ['port'],
  },
  'io.k8s.api.core.v1.Taint': {
    fields: {
      effect: 'string',
      key: 'string',
      timeAdded: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      value: 'string',
    },
    required: ['key', 'effect'],
  },
  'io.k8s.api.core.v1.Toleration': {
    fields: {
      effect: 'string',
      key: 'string',
      operator: 'string',
      tolerationSeconds: 'int64',
      value: 'string',
    },
  },
  'io.k8s.api.core.v1.TopologySelectorLabelRequirement': {
    fields: { key: 'string', values: '[]string' },
    required: ['key', 'values'],
  },
  'io.k8s.api.core.v1.TopologySelectorTerm': {
    fields: { matchLabelExpressions: '[]io.k8s.api.core.v1.TopologySelectorLabelRequirement' },
  },
  'io.k8s.api.core.v1.TopologySpreadConstraint': {
    fields: {
      labelSelector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      matchLabelKeys: '[]string',
      maxSkew: 'int32',
      minDomains: 'int32',
      nodeAffinityPolicy: 'string',
      nodeTaintsPolicy: 'string',
      topologyKey: 'string',
      whenUnsatisfiable: 'string',
    },
    required: ['maxSkew', 'topologyKey', 'whenUnsatisfiable'],
  },
  'io.k8s.api.core.v1.TypedLocalObjectReference': {
    fields: { apiGroup: 'string', kind: 'string', name: 'string' },
    required: ['kind', 'name'],
  },
  'io.k8s.api.core.v1.TypedObjectReference': {
    fields: { apiGroup: 'string', kind: 'string', name: 'string', namespace: 'string' },
    required: ['kind', 'name'],
  },
  'io.k8s.api.core.v1.Volume': {
    fields: {
      awsElasticBlockStore: 'io.k8s.api.core.v1.AWSElasticBlockStoreVolumeSource',
      azureDisk: 'io.k8s.api.core.v1.AzureDiskVolumeSource',
      azureFile: 'io.k8s.api.core.v1.AzureFileVolumeSource',
      cephfs: 'io.k8s.api.core.v1.CephFSVolumeSource',
      cinder: 'io.k8s.api.core.v1.CinderVolumeSource',
      configMap: 'io.k8s.api.core.v1.ConfigMapVolumeSource',
      csi: 'io.k8s.api.core.v1.CSIVolumeSource',
      downwardAPI: 'io.k8s.api.core.v1.DownwardAPIVolumeSource',
      emptyDir: 'io.k8s.api.core.v1.EmptyDirVolumeSource',
      ephemeral: 'io.k8s.api.core.v1.EphemeralVolumeSource',
      fc: 'io.k8s.api.core.v1.FCVolumeSource',
      flexVolume: 'io.k8s.api.core.v1.FlexVolumeSource',
      flocker: 'io.k8s.api.core.v1.FlockerVolumeSource',
      gcePersistentDisk: 'io.k8s.api.core.v1.GCEPersistentDiskVolumeSource',
      gitRepo: 'io.k8s.api.core.v1.GitRepoVolumeSource',
      glusterfs: 'io.k8s.api.core.v1.GlusterfsVolumeSource',
      hostPath: 'io.k8s.api.core.v1.HostPathVolumeSource',
      image: 'io.k8s.api.core.v1.ImageVolumeSource',
      iscsi: 'io.k8s.api.core.v1.ISCSIVolumeSource',
      name: 'string',
      nfs: 'io.k8s.api.core.v1.NFSVolumeSource',
      persistentVolumeClaim: 'io.k8s.api.core.v1.PersistentVolumeClaimVolumeSource',
      photonPersistentDisk: 'io.k8s.api.core.v1.PhotonPersistentDiskVolumeSource',
      portworxVolume: 'io.k8s.api.core.v1.PortworxVolumeSource',
      projected: 'io.k8s.api.core.v1.ProjectedVolumeSource',
      quobyte: 'io.k8s.api.core.v1.QuobyteVolumeSource',
      rbd: 'io.k8s.api.core.v1.RBDVolumeSource',
      scaleIO: 'io.k8s.api.core.v1.ScaleIOVolumeSource',
      secret: 'io.k8s.api.core.v1.SecretVolumeSource',
      storageos: 'io.k8s.api.core.v1.StorageOSVolumeSource',
      vsphereVolume: 'io.k8s.api.core.v1.VsphereVirtualDiskVolumeSource',
    },
    required: ['name'],
  },
  'io.k8s.api.core.v1.VolumeDevice': {
    fields: { devicePath: 'string', name: 'string' },
    required: ['name', 'devicePath'],
  },
  'io.k8s.api.core.v1.VolumeHealthCondition': {
    fields: { message: 'string', reason: 'string', status: 'string' },
    required: ['status', 'reason'],
  },
  'io.k8s.api.core.v1.VolumeHealthStatus': {
    fields: {
      healthConditions: '[]io.k8s.api.core.v1.VolumeHealthCondition',
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
    },
  },
  'io.k8s.api.core.v1.VolumeMount': {
    fields: {
      bindMountOptions: '[]string',
      mountPath: 'string',
      mountPropagation: 'string',
      name: 'string',
      readOnly: 'boolean',
      recursiveReadOnly: 'string',
      subPath: 'string',
      subPathExpr: 'string',
    },
    required: ['name', 'mountPath'],
  },
  'io.k8s.api.core.v1.VolumeMountStatus': {
    fields: {
      mountPath: 'string',
      name: 'string',
      readOnly: 'boolean',
      recursiveReadOnly: 'string',
      volumeStatus: 'io.k8s.api.core.v1.VolumeStatus',
    },
    required: ['name', 'mountPath'],
  },
  'io.k8s.api.core.v1.VolumeNodeAffinity': { fields: { required: 'io.k8s.api.core.v1.NodeSelector' } },
  'io.k8s.api.core.v1.VolumeProjection': {
    fields: {
      clusterTrustBundle: 'io.k8s.api.core.v1.ClusterTrustBundleProjection',
      configMap: 'io.k8s.api.core.v1.ConfigMapProjection',
      downwardAPI: 'io.k8s.api.core.v1.DownwardAPIProjection',
      podCertificate: 'io.k8s.api.core.v1.PodCertificateProjection',
      secret: 'io.k8s.api.core.v1.SecretProjection',
      serviceAccountToken: 'io.k8s.api.core.v1.ServiceAccountTokenProjection',
    },
  },
  'io.k8s.api.core.v1.VolumeResourceRequirements': {
    fields: {
      limits: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
      requests: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
    },
  },
  'io.k8s.api.core.v1.VolumeStatus': { fields: { image: 'io.k8s.api.core.v1.ImageVolumeStatus' } },
  'io.k8s.api.core.v1.VsphereVirtualDiskVolumeSource': {
    fields: {
      fsType: 'string',
      storagePolicyID: 'string',
      storagePolicyName: 'string',
      volumePath: 'string',
    },
    required: ['volumePath'],
  },
  'io.k8s.api.core.v1.WeightedPodAffinityTerm': {
    fields: { podAffinityTerm: 'io.k8s.api.core.v1.PodAffinityTerm', weight: 'int32' },
    required: ['weight', 'podAffinityTerm'],
  },
  'io.k8s.api.core.v1.WindowsSecurityContextOptions': {
    fields: {
      gmsaCredentialSpec: 'string',
      gmsaCredentialSpecName: 'string',
      hostProcess: 'boolean',
      runAsUserName: 'string',
    },
  },
  'io.k8s.api.discovery.v1.Endpoint': {
    fields: {
      addresses: '[]string',
      conditions: 'io.k8s.api.discovery.v1.EndpointConditions',
      deprecatedTopology: '{}string',
      hints: 'io.k8s.api.discovery.v1.EndpointHints',
      hostname: 'string',
      nodeName: 'string',
      targetRef: 'io.k8s.api.core.v1.ObjectReference',
      zone: 'string',
    },
    required: ['addresses'],
  },
  'io.k8s.api.discovery.v1.EndpointConditions': {
    fields: { ready: 'boolean', serving: 'boolean', terminating: 'boolean' },
  },
  'io.k8s.api.discovery.v1.EndpointHints': {
    fields: { forNodes: '[]io.k8s.api.discovery.v1.ForNode', forZones: '[]io.k8s.api.discovery.v1.ForZone' },
  },
  'io.k8s.api.discovery.v1.EndpointPort': {
    fields: { appProtocol: 'string', name: 'string', port: 'int32', protocol: 'string' },
  },
  'io.k8s.api.discovery.v1.EndpointSlice': {
    fields: {
      addressType: 'string',
      apiVersion: 'string',
      endpoints: '[]io.k8s.api.discovery.v1.Endpoint',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      ports: '[]io.k8s.api.discovery.v1.EndpointPort',
    },
    required: ['addressType'],
  },
  'io.k8s.api.discovery.v1.ForNode': { fields: { name: 'string' }, required: ['name'] },
  'io.k8s.api.discovery.v1.ForZone': { fields: { name: 'string' }, required: ['name'] },
  'io.k8s.api.events.v1.Event': {
    fields: {
      action: 'string',
      apiVersion: 'string',
      deprecatedCount: 'int32',
      deprecatedFirstTimestamp: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      deprecatedLastTimestamp: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      deprecatedSource: 'io.k8s.api.core.v1.EventSource',
      eventTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      note: 'string',
      reason: 'string',
      regarding: 'io.k8s.api.core.v1.ObjectReference',
      related: 'io.k8s.api.core.v1.ObjectReference',
      reportingController: 'string',
      reportingInstance: 'string',
      series: 'io.k8s.api.events.v1.EventSeries',
      type: 'string',
    },
    required: ['eventTime'],
  },
  'io.k8s.api.events.v1.EventSeries': {
    fields: { count: 'int32', lastObservedTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime' },
    required: ['count', 'lastObservedTime'],
  },
  'io.k8s.api.flowcontrol.v1.ExemptPriorityLevelConfiguration': {
    fields: { lendablePercent: 'int32', nominalConcurrencyShares: 'int32' },
  },
  'io.k8s.api.flowcontrol.v1.FlowDistinguisherMethod': { fields: { type: 'string' }, required: ['type'] },
  'io.k8s.api.flowcontrol.v1.FlowSchema': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.flowcontrol.v1.FlowSchemaSpec',
      status: 'io.k8s.api.flowcontrol.v1.FlowSchemaStatus',
    },
    required: ['spec'],
  },
  'io.k8s.api.flowcontrol.v1.FlowSchemaCondition': {
    fields: {
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      reason: 'string',
      status: 'string',
      type: 'string',
    },
    required: ['type'],
  },
  'io.k8s.api.flowcontrol.v1.FlowSchemaSpec': {
    fields: {
      distinguisherMethod: 'io.k8s.api.flowcontrol.v1.FlowDistinguisherMethod',
      matchingPrecedence: 'int32',
      priorityLevelConfiguration: 'io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationReference',
      rules: '[]io.k8s.api.flowcontrol.v1.PolicyRulesWithSubjects',
    },
    required: ['priorityLevelConfiguration'],
  },
  'io.k8s.api.flowcontrol.v1.FlowSchemaStatus': {
    fields: { conditions: '[]io.k8s.api.flowcontrol.v1.FlowSchemaCondition' },
  },
  'io.k8s.api.flowcontrol.v1.GroupSubject': { fields: { name: 'string' }, required: ['name'] },
  'io.k8s.api.flowcontrol.v1.LimitResponse': {
    fields: { queuing: 'io.k8s.api.flowcontrol.v1.QueuingConfiguration', type: 'string' },
    required: ['type'],
  },
  'io.k8s.api.flowcontrol.v1.LimitedPriorityLevelConfiguration': {
    fields: {
      borrowingLimitPercent: 'int32',
      lendablePercent: 'int32',
      limitResponse: 'io.k8s.api.flowcontrol.v1.LimitResponse',
      nominalConcurrencyShares: 'int32',
    },
    required: ['limitResponse'],
  },
  'io.k8s.api.flowcontrol.v1.NonResourcePolicyRule': {
    fields: { nonResourceURLs: '[]string', verbs: '[]string' },
    required: ['verbs', 'nonResourceURLs'],
  },
  'io.k8s.api.flowcontrol.v1.PolicyRulesWithSubjects': {
    fields: {
      nonResourceRules: '[]io.k8s.api.flowcontrol.v1.NonResourcePolicyRule',
      resourceRules: '[]io.k8s.api.flowcontrol.v1.ResourcePolicyRule',
      subjects: '[]io.k8s.api.flowcontrol.v1.Subject',
    },
    required: ['subjects'],
  },
  'io.k8s.api.flowcontrol.v1.PriorityLevelConfiguration': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationSpec',
      status: 'io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationStatus',
    },
    required: ['spec'],
  },
  'io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationCondition': {
    fields: {
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      reason: 'string',
      status: 'string',
      type: 'string',
    },
    required: ['type'],
  },
  'io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationReference': {
    fields: { name: 'string' },
    required: ['name'],
  },
  'io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationSpec': {
    fields: {
      exempt: 'io.k8s.api.flowcontrol.v1.ExemptPriorityLevelConfiguration',
      limited: 'io.k8s.api.flowcontrol.v1.LimitedPriorityLevelConfiguration',
      type: 'string',
    },
    required: ['type'],
  },
  'io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationStatus': {
    fields: { conditions: '[]io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationCondition' },
  },
  'io.k8s.api.flowcontrol.v1.QueuingConfiguration': {
    fields: { handSize: 'int32', queueLengthLimit: 'int32', queues: 'int32' },
  },
  'io.k8s.api.flowcontrol.v1.ResourcePolicyRule': {
    fields: {
      apiGroups: '[]string',
      clusterScope: 'boolean',
      namespaces: '[]string',
      resources: '[]string',
      verbs: '[]string',
    },
    required: ['verbs', 'apiGroups', 'resources'],
  },
  'io.k8s.api.flowcontrol.v1.ServiceAccountSubject': {
    fields: { name: 'string', namespace: 'string' },
    required: ['namespace', 'name'],
  },
  'io.k8s.api.flowcontrol.v1.Subject': {
    fields: {
      group: 'io.k8s.api.flowcontrol.v1.GroupSubject',
      kind: 'string',
      serviceAccount: 'io.k8s.api.flowcontrol.v1.ServiceAccountSubject',
      user: 'io.k8s.api.flowcontrol.v1.UserSubject',
    },
    required: ['kind'],
  },
  'io.k8s.api.flowcontrol.v1.UserSubject': { fields: { name: 'string' }, required: ['name'] },
  'io.k8s.api.networking.v1.HTTPIngressPath': {
    fields: { backend: 'io.k8s.api.networking.v1.IngressBackend', path: 'string', pathType: 'string' },
    required: ['pathType', 'backend'],
  },
  'io.k8s.api.networking.v1.HTTPIngressRuleValue': {
    fields: { paths: '[]io.k8s.api.networking.v1.HTTPIngressPath' },
    required: ['paths'],
  },
  'io.k8s.api.networking.v1.IPAddress': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.networking.v1.IPAddressSpec',
    },
    required: ['spec'],
  },
  'io.k8s.api.networking.v1.IPAddressSpec': {
    fields: { parentRef: 'io.k8s.api.networking.v1.ParentReference' },
    required: ['parentRef'],
  },
  'io.k8s.api.networking.v1.IPBlock': { fields: { cidr: 'string', except: '[]string' }, required: ['cidr'] },
  'io.k8s.api.networking.v1.Ingress': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.networking.v1.IngressSpec',
      status: 'io.k8s.api.networking.v1.IngressStatus',
    },
  },
  'io.k8s.api.networking.v1.IngressBackend': {
    fields: {
      resource: 'io.k8s.api.core.v1.TypedLocalObjectReference',
      service: 'io.k8s.api.networking.v1.IngressServiceBackend',
    },
  },
  'io.k8s.api.networking.v1.IngressClass': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.networking.v1.IngressClassSpec',
    },
  },
  'io.k8s.api.networking.v1.IngressClassParametersReference': {
    fields: { apiGroup: 'string', kind: 'string', name: 'string', namespace: 'string', scope: 'string' },
    required: ['kind', 'name'],
  },
  'io.k8s.api.networking.v1.IngressClassSpec': {
    fields: { controller: 'string', parameters: 'io.k8s.api.networking.v1.IngressClassParametersReference' },
  },
  'io.k8s.api.networking.v1.IngressLoadBalancerIngress': {
    fields: { hostname: 'string', ip: 'string', ports: '[]io.k8s.api.networking.v1.IngressPortStatus' },
  },
  'io.k8s.api.networking.v1.IngressLoadBalancerStatus': {
    fields: { ingress: '[]io.k8s.api.networking.v1.IngressLoadBalancerIngress' },
  },
  'io.k8s.api.networking.v1.IngressPortStatus': {
    fields: { error: 'string', port: 'int32', protocol: 'string' },
    required: ['port', 'protocol'],
  },
  'io.k8s.api.networking.v1.IngressRule': {
    fields: { host: 'string', http: 'io.k8s.api.networking.v1.HTTPIngressRuleValue' },
  },
  'io.k8s.api.networking.v1.IngressServiceBackend': {
    fields: { name: 'string', port: 'io.k8s.api.networking.v1.ServiceBackendPort' },
    required: ['name'],
  },
  'io.k8s.api.networking.v1.IngressSpec': {
    fields: {
      defaultBackend: 'io.k8s.api.networking.v1.IngressBackend',
      ingressClassName: 'string',
      rules: '[]io.k8s.api.networking.v1.IngressRule',
      tls: '[]io.k8s.api.networking.v1.IngressTLS',
    },
  },
  'io.k8s.api.networking.v1.IngressStatus': {
    fields: { loadBalancer: 'io.k8s.api.networking.v1.IngressLoadBalancerStatus' },
  },
  'io.k8s.api.networking.v1.IngressTLS': { fields: { hosts: '[]string', secretName: 'string' } },
  'io.k8s.api.networking.v1.NetworkPolicy': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.networking.v1.NetworkPolicySpec',
    },
  },
  'io.k8s.api.networking.v1.NetworkPolicyEgressRule': {
    fields: {
      ports: '[]io.k8s.api.networking.v1.NetworkPolicyPort',
      to: '[]io.k8s.api.networking.v1.NetworkPolicyPeer',
    },
  },
  'io.k8s.api.networking.v1.NetworkPolicyIngressRule': {
    fields: {
      from: '[]io.k8s.api.networking.v1.NetworkPolicyPeer',
      ports: '[]io.k8s.api.networking.v1.NetworkPolicyPort',
    },
  },
  'io.k8s.api.networking.v1.NetworkPolicyPeer': {
    fields: {
      ipBlock: 'io.k8s.api.networking.v1.IPBlock',
      namespaceSelector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      podSelector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
    },
  },
  'io.k8s.api.networking.v1.NetworkPolicyPort': {
    fields: { endPort: 'int32', port: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString', protocol: 'string' },
  },
  'io.k8s.api.networking.v1.NetworkPolicySpec': {
    fields: {
      egress: '[]io.k8s.api.networking.v1.NetworkPolicyEgressRule',
      ingress: '[]io.k8s.api.networking.v1.NetworkPolicyIngressRule',
      podSelector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      policyTypes: '[]string',
    },
  },
  'io.k8s.api.networking.v1.ParentReference': {
    fields: { group: 'string', name: 'string', namespace: 'string', resource: 'string' },
    required: ['resource', 'name'],
  },
  'io.k8s.api.networking.v1.ServiceBackendPort': { fields: { name: 'string', number: 'int32' } },
  'io.k8s.api.networking.v1.ServiceCIDR': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.networking.v1.ServiceCIDRSpec',
      status: 'io.k8s.api.networking.v1.ServiceCIDRStatus',
    },
  },
  'io.k8s.api.networking.v1.ServiceCIDRSpec': { fields: { cidrs: '[]string' } },
  'io.k8s.api.networking.v1.ServiceCIDRStatus': {
    fields: { conditions: '[]io.k8s.apimachinery.pkg.apis.meta.v1.Condition' },
  },
  'io.k8s.api.node.v1.Overhead': { fields: { podFixed: '{}io.k8s.apimachinery.pkg.api.resource.Quantity' } },
  'io.k8s.api.node.v1.RuntimeClass': {
    fields: {
      apiVersion: 'string',
      handler: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      overhead: 'io.k8s.api.node.v1.Overhead',
      scheduling: 'io.k8s.api.node.v1.Scheduling',
    },
    required: ['handler'],
  },
  'io.k8s.api.node.v1.Scheduling': {
    fields: { nodeSelector: '{}string', tolerations: '[]io.k8s.api.core.v1.Toleration' },
  },
  'io.k8s.api.policy.v1.Eviction': {
    fields: {
      apiVersion: 'string',
      deleteOptions: 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
    },
  },
  'io.k8s.api.policy.v1.PodDisruptionBudget': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.policy.v1.PodDisruptionBudgetSpec',
      status: 'io.k8s.api.policy.v1.PodDisruptionBudgetStatus',
    },
  },
  'io.k8s.api.policy.v1.PodDisruptionBudgetSpec': {
    fields: {
      maxUnavailable: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
      minAvailable: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
      selector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      unhealthyPodEvictionPolicy: 'string',
    },
  },
  'io.k8s.api.policy.v1.PodDisruptionBudgetStatus': {
    fields: {
      conditions: '[]io.k8s.apimachinery.pkg.apis.meta.v1.Condition',
      currentHealthy: 'int32',
      desiredHealthy: 'int32',
      disruptedPods: '{}io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      disruptionsAllowed: 'int32',
      expectedPods: 'int32',
      observedGeneration: 'int64',
    },
  },
  'io.k8s.api.rbac.v1.AggregationRule': {
    fields: { clusterRoleSelectors: '[]io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector' },
  },
  'io.k8s.api.rbac.v1.ClusterRole': {
    fields: {
      aggregationRule: 'io.k8s.api.rbac.v1.AggregationRule',
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      rules: '[]io.k8s.api.rbac.v1.PolicyRule',
    },
  },
  'io.k8s.api.rbac.v1.ClusterRoleBinding': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      roleRef: 'io.k8s.api.rbac.v1.RoleRef',
      subjects: '[]io.k8s.api.rbac.v1.Subject',
    },
    required: ['roleRef'],
  },
  'io.k8s.api.rbac.v1.PolicyRule': {
    fields: {
      apiGroups: '[]string',
      nonResourceURLs: '[]string',
      resourceNames: '[]string',
      resources: '[]string',
      verbs: '[]string',
    },
    required: ['verbs'],
  },
  'io.k8s.api.rbac.v1.Role': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      rules: '[]io.k8s.api.rbac.v1.PolicyRule',
    },
  },
  'io.k8s.api.rbac.v1.RoleBinding': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      roleRef: 'io.k8s.api.rbac.v1.RoleRef',
      subjects: '[]io.k8s.api.rbac.v1.Subject',
    },
    required: ['roleRef'],
  },
  'io.k8s.api.rbac.v1.RoleRef': {
    fields: { apiGroup: 'string', kind: 'string', name: 'string' },
    required: ['kind', 'name'],
  },
  'io.k8s.api.rbac.v1.Subject': {
    fields: { apiGroup: 'string', kind: 'string', name: 'string', namespace: 'string' },
    required: ['kind', 'name'],
  },
  'io.k8s.api.resource.v1.AllocatedDeviceStatus': {
    fields: {
      conditions: '[]io.k8s.apimachinery.pkg.apis.meta.v1.Condition',
      data: 'io.k8s.apimachinery.pkg.runtime.RawExtension',
      device: 'string',
      driver: 'string',
      networkData: 'io.k8s.api.resource.v1.NetworkDeviceData',
      pool: 'string',
      shareID: 'string',
    },
    required: ['driver', 'pool', 'device'],
  },
  'io.k8s.api.resource.v1.AllocationResult': {
    fields: {
      allocationTimestamp: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      devices: 'io.k8s.api.resource.v1.DeviceAllocationResult',
      nodeSelector: 'io.k8s.api.core.v1.NodeSelector',
    },
  },
  'io.k8s.api.resource.v1.CELDeviceSelector': { fields: { expression: 'string' }, required: ['expression'] },
  'io.k8s.api.resource.v1.CapacityRequestPolicy': {
    fields: {
      default: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
      validRange: 'io.k8s.api.resource.v1.CapacityRequestPolicyRange',
      validValues: '[]io.k8s.apimachinery.pkg.api.resource.Quantity',
    },
  },
  'io.k8s.api.resource.v1.CapacityRequestPolicyRange': {
    fields: {
      max: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
      min: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
      step: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
    },
    required: ['min'],
  },
  'io.k8s.api.resource.v1.CapacityRequirements': {
    fields: { requests: '{}io.k8s.apimachinery.pkg.api.resource.Quantity' },
  },
  'io.k8s.api.resource.v1.Counter': {
    fields: { value: 'io.k8s.apimachinery.pkg.api.resource.Quantity' },
    required: ['value'],
  },
  'io.k8s.api.resource.v1.CounterSet': {
    fields: { counters: '{}io.k8s.api.resource.v1.Counter', name: 'string' },
    required: ['name', 'counters'],
  },
  'io.k8s.api.resource.v1.Device': {
    fields: {
      allNodes: 'boolean',
      allowMultipleAllocations: 'boolean',
      attributes: '{}io.k8s.api.resource.v1.DeviceAttribute',
      bindingConditions: '[]string',
      bindingFailureConditions: '[]string',
      bindsToNode: 'boolean',
      capacity: '{}io.k8s.api.resource.v1.DeviceCapacity',
      consumesCounters: '[]io.k8s.api.resource.v1.DeviceCounterConsumption',
      name: 'string',
      nodeAllocatableResources: '{}io.k8s.api.resource.v1.NodeAllocatableResource',
      nodeName: 'string',
      nodeSelector: 'io.k8s.api.core.v1.NodeSelector',
      taints: '[]io.k8s.api.resource.v1.DeviceTaint',
    },
    required: ['name'],
  },
  'io.k8s.api.resource.v1.DeviceAllocationConfiguration': {
    fields: {
      opaque: 'io.k8s.api.resource.v1.OpaqueDeviceConfiguration',
      requests: '[]string',
      source: 'string',
    },
    required: ['source'],
  },
  'io.k8s.api.resource.v1.DeviceAllocationResult': {
    fields: {
      config: '[]io.k8s.api.resource.v1.DeviceAllocationConfiguration',
      results: '[]io.k8s.api.resource.v1.DeviceRequestAllocationResult',
    },
  },
  'io.k8s.api.resource.v1.DeviceAttribute': {
    fields: {
      bool: 'boolean',
      bools: '[]boolean',
      int: 'int64',
      ints: '[]int64',
      string: 'string',
      strings: '[]string',
      version: 'string',
      versions: '[]string',
    },
  },
  'io.k8s.api.resource.v1.DeviceCapacity': {
    fields: {
      requestPolicy: 'io.k8s.api.resource.v1.CapacityRequestPolicy',
      value: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
    },
    required: ['value'],
  },
  'io.k8s.api.resource.v1.DeviceClaim': {
    fields: {
      config: '[]io.k8s.api.resource.v1.DeviceClaimConfiguration',
      constraints: '[]io.k8s.api.resource.v1.DeviceConstraint',
      requests: '[]io.k8s.api.resource.v1.DeviceRequest',
    },
  },
  'io.k8s.api.resource.v1.DeviceClaimConfiguration': {
    fields: { opaque: 'io.k8s.api.resource.v1.OpaqueDeviceConfiguration', requests: '[]string' },
  },
  'io.k8s.api.resource.v1.DeviceClass': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.resource.v1.DeviceClassSpec',
    },
  },
  'io.k8s.api.resource.v1.DeviceClassConfiguration': {
    fields: { opaque: 'io.k8s.api.resource.v1.OpaqueDeviceConfiguration' },
  },
  'io.k8s.api.resource.v1.DeviceClassSpec': {
    fields: {
      config: '[]io.k8s.api.resource.v1.DeviceClassConfiguration',
      extendedResourceName: 'string',
      selectors: '[]io.k8s.api.resource.v1.DeviceSelector',
    },
  },
  'io.k8s.api.resource.v1.DeviceConstraint': {
    fields: { distinctAttribute: 'string', matchAttribute: 'string', requests: '[]string' },
  },
  'io.k8s.api.resource.v1.DeviceCounterConsumption': {
    fields: {
      compatibilityGroups: '[]string',
      counterSet: 'string',
      counters: '{}io.k8s.api.resource.v1.Counter',
    },
    required: ['counterSet', 'counters'],
  },
  'io.k8s.api.resource.v1.DeviceDerivedAttribute': {
    fields: { expression: 'string', name: 'string' },
    required: ['name', 'expression'],
  },
  'io.k8s.api.resource.v1.DeviceRequest': {
    fields: {
      exactly: 'io.k8s.api.resource.v1.ExactDeviceRequest',
      firstAvailable: '[]io.k8s.api.resource.v1.DeviceSubRequest',
      name: 'string',
    },
    required: ['name'],
  },
  'io.k8s.api.resource.v1.DeviceRequestAllocationResult': {
    fields: {
      adminAccess: 'boolean',
      bindingConditions: '[]string',
      bindingFailureConditions: '[]string',
      consumedCapacity: '{}io.k8s.apimachinery.pkg.api.resource.Quantity',
      device: 'string',
      driver: 'string',
      pool: 'string',
      request: 'string',
      shareID: 'string',
      skipNodeOperations: '[]string',
      tolerations: '[]io.k8s.api.resource.v1.DeviceToleration',
    },
    required: ['request', 'driver', 'pool', 'device'],
  },
  'io.k8s.api.resource.v1.DeviceSelector': { fields: { cel: 'io.k8s.api.resource.v1.CELDeviceSelector' } },
  'io.k8s.api.resource.v1.DeviceSubRequest': {
    fields: {
      allocationMode: 'string',
      capacity: 'io.k8s.api.resource.v1.CapacityRequirements',
      count: 'int64',
      derivedAttributes: '[]io.k8s.api.resource.v1.DeviceDerivedAttribute',
      deviceClassName: 'string',
      name: 'string',
      selectors: '[]io.k8s.api.resource.v1.DeviceSelector',
      tolerations: '[]io.k8s.api.resource.v1.DeviceToleration',
    },
    required: ['name', 'deviceClassName'],
  },
  'io.k8s.api.resource.v1.DeviceTaint': {
    fields: {
      effect: 'string',
      key: 'string',
      timeAdded: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      value: 'string',
    },
    required: ['key', 'effect'],
  },
  'io.k8s.api.resource.v1.DeviceTaintRule': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.resource.v1.DeviceTaintRuleSpec',
      status: 'io.k8s.api.resource.v1.DeviceTaintRuleStatus',
    },
    required: ['spec'],
  },
  'io.k8s.api.resource.v1.DeviceTaintRuleSpec': {
    fields: {
      deviceSelector: 'io.k8s.api.resource.v1.DeviceTaintSelector',
      taint: 'io.k8s.api.resource.v1.DeviceTaint',
    },
    required: ['taint'],
  },
  'io.k8s.api.resource.v1.DeviceTaintRuleStatus': {
    fields: { conditions: '[]io.k8s.apimachinery.pkg.apis.meta.v1.Condition' },
  },
  'io.k8s.api.resource.v1.DeviceTaintSelector': {
    fields: { device: 'string', driver: 'string', pool: 'string' },
  },
  'io.k8s.api.resource.v1.DeviceToleration': {
    fields: {
      effect: 'string',
      key: 'string',
      operator: 'string',
      tolerationSeconds: 'int64',
      value: 'string',
    },
  },
  'io.k8s.api.resource.v1.ExactDeviceRequest': {
    fields: {
      adminAccess: 'boolean',
      allocationMode: 'string',
      capacity: 'io.k8s.api.resource.v1.CapacityRequirements',
      count: 'int64',
      derivedAttributes: '[]io.k8s.api.resource.v1.DeviceDerivedAttribute',
      deviceClassName: 'string',
      selectors: '[]io.k8s.api.resource.v1.DeviceSelector',
      tolerations: '[]io.k8s.api.resource.v1.DeviceToleration',
    },
    required: ['deviceClassName'],
  },
  'io.k8s.api.resource.v1.NetworkDeviceData': {
    fields: { hardwareAddress: 'string', interfaceName: 'string', ips: '[]string' },
  },
  'io.k8s.api.resource.v1.NodeAllocatableMapping': {
    fields: {
      capacityKey: 'string',
      capacityMultiplier: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
      deviceMultiplier: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
    },
  },
  'io.k8s.api.resource.v1.NodeAllocatableOverhead': {
    fields: {
      perContainer: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
      perPod: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
    },
  },
  'io.k8s.api.resource.v1.NodeAllocatableResource': {
    fields: {
      mapping: 'io.k8s.api.resource.v1.NodeAllocatableMapping',
      overhead: 'io.k8s.api.resource.v1.NodeAllocatableOverhead',
    },
  },
  'io.k8s.api.resource.v1.OpaqueDeviceConfiguration': {
    fields: { driver: 'string', parameters: 'io.k8s.apimachinery.pkg.runtime.RawExtension' },
    required: ['driver', 'parameters'],
  },
  'io.k8s.api.resource.v1.ResourceClaim': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.resource.v1.ResourceClaimSpec',
      status: 'io.k8s.api.resource.v1.ResourceClaimStatus',
    },
  },
  'io.k8s.api.resource.v1.ResourceClaimConsumerReference': {
    fields: { apiGroup: 'string', name: 'string', resource: 'string', uid: 'string' },
    required: ['resource', 'name', 'uid'],
  },
  'io.k8s.api.resource.v1.ResourceClaimSpec': { fields: { devices: 'io.k8s.api.resource.v1.DeviceClaim' } },
  'io.k8s.api.resource.v1.ResourceClaimStatus': {
    fields: {
      allocation: 'io.k8s.api.resource.v1.AllocationResult',
      devices: '[]io.k8s.api.resource.v1.AllocatedDeviceStatus',
      reservedFor: '[]io.k8s.api.resource.v1.ResourceClaimConsumerReference',
    },
  },
  'io.k8s.api.resource.v1.ResourceClaimTemplate': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.resource.v1.ResourceClaimTemplateSpec',
    },
  },
  'io.k8s.api.resource.v1.ResourceClaimTemplateSpec': {
    fields: {
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.resource.v1.ResourceClaimSpec',
    },
  },
  'io.k8s.api.resource.v1.ResourcePool': {
    fields: { generation: 'int64', name: 'string', resourceSliceCount: 'int64' },
    required: ['name', 'generation', 'resourceSliceCount'],
  },
  'io.k8s.api.resource.v1.ResourceSlice': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.resource.v1.ResourceSliceSpec',
    },
    required: ['spec'],
  },
  'io.k8s.api.resource.v1.ResourceSliceSpec': {
    fields: {
      allNodes: 'boolean',
      devices: '[]io.k8s.api.resource.v1.Device',
      driver: 'string',
      nodeName: 'string',
      nodeSelector: 'io.k8s.api.core.v1.NodeSelector',
      partitionTypeAttribute: 'string',
      perDeviceNodeSelection: 'boolean',
      pool: 'io.k8s.api.resource.v1.ResourcePool',
      sharedCounters: '[]io.k8s.api.resource.v1.CounterSet',
      skipNodeOperations: '[]string',
    },
    required: ['driver', 'pool'],
  },
  'io.k8s.api.scheduling.v1.PriorityClass': {
    fields: {
      apiVersion: 'string',
      description: 'string',
      globalDefault: 'boolean',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      preemptionPolicy: 'string',
      value: 'int32',
    },
  },
  'io.k8s.api.scheduling.v1alpha3.TopologyConstraint': { fields: { key: 'string' }, required: ['key'] },
  'io.k8s.api.scheduling.v1alpha3.WorkloadPodGroupAllDisruptionMode': { fields: {} },
  'io.k8s.api.scheduling.v1alpha3.WorkloadPodGroupBasicSchedulingPolicy': { fields: {} },
  'io.k8s.api.scheduling.v1alpha3.WorkloadPodGroupDisruptionMode': {
    fields: {
      all: 'io.k8s.api.scheduling.v1alpha3.WorkloadPodGroupAllDisruptionMode',
      single: 'io.k8s.api.scheduling.v1alpha3.WorkloadPodGroupSingleDisruptionMode',
    },
  },
  'io.k8s.api.scheduling.v1alpha3.WorkloadPodGroupGangSchedulingPolicy': { fields: { minCount: 'int32' } },
  'io.k8s.api.scheduling.v1alpha3.WorkloadPodGroupResourceClaim': {
    fields: { name: 'string', resourceClaimName: 'string', resourceClaimTemplateName: 'string' },
    required: ['name'],
  },
  'io.k8s.api.scheduling.v1alpha3.WorkloadPodGroupSchedulingConstraints': {
    fields: { topology: '[]io.k8s.api.scheduling.v1alpha3.TopologyConstraint' },
  },
  'io.k8s.api.scheduling.v1alpha3.WorkloadPodGroupSchedulingPolicy': {
    fields: {
      basic: 'io.k8s.api.scheduling.v1alpha3.WorkloadPodGroupBasicSchedulingPolicy',
      gang: 'io.k8s.api.scheduling.v1alpha3.WorkloadPodGroupGangSchedulingPolicy',
    },
  },
  'io.k8s.api.scheduling.v1alpha3.WorkloadPodGroupSingleDisruptionMode': { fields: {} },
  'io.k8s.api.storage.v1.CSIDriver': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.storage.v1.CSIDriverSpec',
    },
    required: ['spec'],
  },
  'io.k8s.api.storage.v1.CSIDriverSpec': {
    fields: {
      attachRequired: 'boolean',
      fsGroupPolicy: 'string',
      nodeAllocatableUpdatePeriodSeconds: 'int64',
      podInfoOnMount: 'boolean',
      preventPodSchedulingIfMissing: 'boolean',
      requiresRepublish: 'boolean',
      seLinuxMount: 'boolean',
      serviceAccountTokenInSecrets: 'boolean',
      storageCapacity: 'boolean',
      tokenRequests: '[]io.k8s.api.storage.v1.TokenRequest',
      volumeLifecycleModes: '[]string',
    },
  },
  'io.k8s.api.storage.v1.CSINode': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.storage.v1.CSINodeSpec',
      status: 'io.k8s.api.storage.v1.CSINodeStatus',
    },
    required: ['spec'],
  },
  'io.k8s.api.storage.v1.CSINodeDriver': {
    fields: {
      allocatable: 'io.k8s.api.storage.v1.VolumeNodeResources',
      name: 'string',
      nodeID: 'string',
      topologyKeys: '[]string',
    },
    required: ['name', 'nodeID'],
  },
  'io.k8s.api.storage.v1.CSINodeSpec': {
    fields: { drivers: '[]io.k8s.api.storage.v1.CSINodeDriver' },
    required: ['drivers'],
  },
  'io.k8s.api.storage.v1.CSINodeStatus': {
    fields: { storageHealth: '[]io.k8s.api.storage.v1.StorageHealth' },
  },
  'io.k8s.api.storage.v1.CSIStorageCapacity': {
    fields: {
      apiVersion: 'string',
      capacity: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
      kind: 'string',
      maximumVolumeSize: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      nodeTopology: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      storageClassName: 'string',
    },
    required: ['storageClassName'],
  },
  'io.k8s.api.storage.v1.StorageClass': {
    fields: {
      allowVolumeExpansion: 'boolean',
      allowedTopologies: '[]io.k8s.api.core.v1.TopologySelectorTerm',
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      mountOptions: '[]string',
      parameters: '{}string',
      provisioner: 'string',
      reclaimPolicy: 'string',
      volumeBindingMode: 'string',
    },
    required: ['provisioner'],
  },
  'io.k8s.api.storage.v1.StorageHealth': {
    fields: { healthConditions: '[]io.k8s.api.storage.v1.StorageHealthCondition', name: 'string' },
    required: ['name'],
  },
  'io.k8s.api.storage.v1.StorageHealthCondition': {
    fields: {
      accessMode: 'string',
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      reason: 'string',
      status: 'string',
      volumeMode: 'string',
    },
    required: ['status', 'reason'],
  },
  'io.k8s.api.storage.v1.TokenRequest': {
    fields: { audience: 'string', expirationSeconds: 'int64' },
    required: ['audience'],
  },
  'io.k8s.api.storage.v1.VolumeAttachment': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.storage.v1.VolumeAttachmentSpec',
      status: 'io.k8s.api.storage.v1.VolumeAttachmentStatus',
    },
    required: ['spec'],
  },
  'io.k8s.api.storage.v1.VolumeAttachmentSource': {
    fields: { inlineVolumeSpec: 'io.k8s.api.core.v1.PersistentVolumeSpec', persistentVolumeName: 'string' },
  },
  'io.k8s.api.storage.v1.VolumeAttachmentSpec': {
    fields: {
      attacher: 'string',
      nodeName: 'string',
      source: 'io.k8s.api.storage.v1.VolumeAttachmentSource',
    },
    required: ['attacher', 'source', 'nodeName'],
  },
  'io.k8s.api.storage.v1.VolumeAttachmentStatus': {
    fields: {
      attachError: 'io.k8s.api.storage.v1.VolumeError',
      attached: 'boolean',
      attachmentMetadata: '{}string',
      detachError: 'io.k8s.api.storage.v1.VolumeError',
    },
    required: ['attached'],
  },
  'io.k8s.api.storage.v1.VolumeAttributesClass': {
    fields: {
      apiVersion: 'string',
      driverName: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      parameters: '{}string',
    },
    required: ['driverName'],
  },
  'io.k8s.api.storage.v1.VolumeError': {
    fields: { errorCode: 'int32', message: 'string', time: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time' },
  },
  'io.k8s.api.storage.v1.VolumeNodeResources': { fields: { count: 'int32' } },
  'io.k8s.api.storagemigration.v1.StorageVersionMigration': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.api.storagemigration.v1.StorageVersionMigrationSpec',
      status: 'io.k8s.api.storagemigration.v1.StorageVersionMigrationStatus',
    },
  },
  'io.k8s.api.storagemigration.v1.StorageVersionMigrationSpec': {
    fields: { resource: 'io.k8s.apimachinery.pkg.apis.meta.v1.GroupResource' },
    required: ['resource'],
  },
  'io.k8s.api.storagemigration.v1.StorageVersionMigrationStatus': {
    fields: { conditions: '[]io.k8s.apimachinery.pkg.apis.meta.v1.Condition', resourceVersion: 'string' },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceColumnDefinition': {
    fields: {
      description: 'string',
      format: 'string',
      jsonPath: 'string',
      name: 'string',
      priority: 'int32',
      type: 'string',
    },
    required: ['name', 'type', 'jsonPath'],
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceConversion': {
    fields: {
      strategy: 'string',
      webhook: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.WebhookConversion',
    },
    required: ['strategy'],
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec',
      status: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionStatus',
    },
    required: ['spec'],
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionCondition': {
    fields: {
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      observedGeneration: 'int64',
      reason: 'string',
      status: 'string',
      type: 'string',
    },
    required: ['type', 'status'],
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionNames': {
    fields: {
      categories: '[]string',
      kind: 'string',
      listKind: 'string',
      plural: 'string',
      shortNames: '[]string',
      singular: 'string',
    },
    required: ['plural', 'kind'],
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec': {
    fields: {
      conversion: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceConversion',
      group: 'string',
      names: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionNames',
      preserveUnknownFields: 'boolean',
      scope: 'string',
      versions: '[]io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion',
    },
    required: ['group', 'names', 'scope', 'versions'],
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionStatus': {
    fields: {
      acceptedNames: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionNames',
      conditions:
        '[]io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionCondition',
      observedGeneration: 'int64',
      storedVersions: '[]string',
    },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion': {
    fields: {
      additionalPrinterColumns:
        '[]io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceColumnDefinition',
      deprecated: 'boolean',
      deprecationWarning: 'string',
      name: 'string',
      schema: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceValidation',
      selectableFields: '[]io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.SelectableField',
      served: 'boolean',
      storage: 'boolean',
      subresources: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresources',
    },
    required: ['name', 'served', 'storage'],
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceScale': {
    fields: { labelSelectorPath: 'string', specReplicasPath: 'string', statusReplicasPath: 'string' },
    required: ['specReplicasPath', 'statusReplicasPath'],
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceStatus': { fields: {} },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresources': {
    fields: {
      scale: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceScale',
      status: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceStatus',
    },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceValidation': {
    fields: { openAPIV3Schema: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps' },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ExternalDocumentation': {
    fields: { description: 'string', url: 'string' },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON': { scalar: 'json' },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps': {
    fields: {
      $ref: 'string',
      $schema: 'string',
      additionalItems: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool',
      additionalProperties: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool',
      allOf: '[]io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps',
      anyOf: '[]io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps',
      default: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON',
      definitions: '{}io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps',
      dependencies: '{}io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray',
      description: 'string',
      enum: '[]io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON',
      example: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON',
      exclusiveMaximum: 'boolean',
      exclusiveMinimum: 'boolean',
      externalDocs: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ExternalDocumentation',
      format: 'string',
      id: 'string',
      items: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray',
      maxItems: 'int64',
      maxLength: 'int64',
      maxProperties: 'int64',
      maximum: 'number',
      minItems: 'int64',
      minLength: 'int64',
      minProperties: 'int64',
      minimum: 'number',
      multipleOf: 'number',
      not: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps',
      nullable: 'boolean',
      oneOf: '[]io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps',
      pattern: 'string',
      patternProperties: '{}io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps',
      properties: '{}io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps',
      required: '[]string',
      title: 'string',
      type: 'string',
      uniqueItems: 'boolean',
      'x-kubernetes-embedded-resource': 'boolean',
      'x-kubernetes-int-or-string': 'boolean',
      'x-kubernetes-list-map-keys': '[]string',
      'x-kubernetes-list-type': 'string',
      'x-kubernetes-map-type': 'string',
      'x-kubernetes-preserve-unknown-fields': 'boolean',
      'x-kubernetes-validations': '[]io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ValidationRule',
    },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray': {
    scalar: 'schema-or-array',
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool': {
    scalar: 'schema-or-bool',
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray': {
    scalar: 'schema-or-string-array',
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.SelectableField': {
    fields: { jsonPath: 'string' },
    required: ['jsonPath'],
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ServiceReference': {
    fields: { name: 'string', namespace: 'string', path: 'string', port: 'int32' },
    required: ['namespace', 'name'],
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ValidationRule': {
    fields: {
      fieldPath: 'string',
      message: 'string',
      messageExpression: 'string',
      optionalOldSelf: 'boolean',
      reason: 'string',
      rule: 'string',
    },
    required: ['rule'],
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.WebhookClientConfig': {
    fields: {
      caBundle: 'bytes',
      service: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ServiceReference',
      url: 'string',
    },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.WebhookConversion': {
    fields: {
      clientConfig: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.WebhookClientConfig',
      conversionReviewVersions: '[]string',
    },
    required: ['conversionReviewVersions'],
  },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { scalar: 'string' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition': {
    fields: {
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      observedGeneration: 'int64',
      reason: 'string',
      status: 'string',
      type: 'string',
    },
    required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'],
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions': {
    fields: {
      apiVersion: 'string',
      dryRun: '[]string',
      gracePeriodSeconds: 'int64',
      ignoreStoreReadErrorWithClusterBreakingPotential: 'boolean',
      kind: 'string',
      orphanDependents: 'boolean',
      preconditions: 'io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions',
      propagationPolicy: 'string',
    },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement': {
    fields: { key: 'string', operator: 'string', values: '[]string' },
    required: ['key', 'operator'],
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': { scalar: 'object' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.GroupResource': {
    fields: { group: 'string', resource: 'string' },
    required: ['group', 'resource'],
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector': {
    fields: {
      matchExpressions: '[]io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement',
      matchLabels: '{}string',
    },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement': {
    fields: { key: 'string', operator: 'string', values: '[]string' },
    required: ['key', 'operator'],
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta': {
    fields: {
      continue: 'string',
      remainingItemCount: 'int64',
      resourceVersion: 'string',
      selfLink: 'string',
      shardInfo: 'io.k8s.apimachinery.pkg.apis.meta.v1.ShardInfo',
    },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry': {
    fields: {
      apiVersion: 'string',
      fieldsType: 'string',
      fieldsV1: 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
      manager: 'string',
      operation: 'string',
      subresource: 'string',
      time: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
    },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': { scalar: 'date-time' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': {
    fields: {
      annotations: '{}string',
      creationTimestamp: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      deletionGracePeriodSeconds: 'int64',
      deletionTimestamp: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      finalizers: '[]string',
      generateName: 'string',
      generation: 'int64',
      labels: '{}string',
      managedFields: '[]io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry',
      name: 'string',
      namespace: 'string',
      ownerReferences: '[]io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference',
      resourceVersion: 'string',
      selfLink: 'string',
      uid: 'string',
    },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference': {
    fields: {
      apiVersion: 'string',
      blockOwnerDeletion: 'boolean',
      controller: 'boolean',
      kind: 'string',
      name: 'string',
      uid: 'string',
    },
    required: ['apiVersion', 'kind', 'name', 'uid'],
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions': {
    fields: { resourceVersion: 'string', uid: 'string' },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.ShardInfo': {
    fields: { selector: 'string' },
    required: ['selector'],
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': { scalar: 'date-time' },
  'io.k8s.apimachinery.pkg.runtime.RawExtension': { scalar: 'object' },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { scalar: 'int-or-string' },
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService': {
    fields: {
      apiVersion: 'string',
      kind: 'string',
      metadata: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      spec: 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceSpec',
      status: 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceStatus',
    },
  },
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceCondition': {
    fields: {
      lastTransitionTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      message: 'string',
      reason: 'string',
      status: 'string',
      type: 'string',
    },
    required: ['type', 'status'],
  },
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceSpec': {
    fields: {
      caBundle: 'bytes',
      group: 'string',
      groupPriorityMinimum: 'int32',
      insecureSkipTLSVerify: 'boolean',
      service: 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.ServiceReference',
      version: 'string',
      versionPriority: 'int32',
    },
    required: ['groupPriorityMinimum', 'versionPriority'],
  },
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceStatus': {
    fields: { conditions: '[]io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceCondition' },
  },
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.ServiceReference': {
    fields: { name: 'string', namespace: 'string', port: 'int32' },
  },
};
