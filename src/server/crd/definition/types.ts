/**
 * The CustomResourceDefinition object (apiextensions.k8s.io/v1), as clients
 * send it: kubernetes-types' published v1 types, re-exported so the room has
 * one place to name them. Validation still reads every field tolerantly
 * (kinds/access.ts), because a request body is untrusted JSON, not these types.
 */
export type {
  CustomResourceColumnDefinition,
  CustomResourceConversion,
  CustomResourceDefinition,
  CustomResourceDefinitionCondition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionSpec,
  CustomResourceDefinitionStatus,
  CustomResourceDefinitionVersion,
  CustomResourceSubresources,
  JSONSchemaProps,
} from 'kubernetes-types/apiextensions/v1.js';

/** The condition types the CRD controllers set (apiextensions `CustomResourceDefinitionConditionType`). */
export type CrdConditionType =
  | 'Established'
  | 'NamesAccepted'
  | 'NonStructuralSchema'
  | 'Terminating'
  | 'KubernetesAPIApprovalPolicyConformant';
