/**
 * The group versions whose kinds have a protobuf form here (their upstream generated.proto is in
 * scripts/protobuf/proto/, its text in k8s-schema.generated.ts), and their protobuf packages.
 */

export const PROTOBUF_GROUP_VERSIONS: Readonly<Record<string, string>> = {
  v1: 'k8s.io.api.core.v1',
  'apps/v1': 'k8s.io.api.apps.v1',
  // The Scale of the /scale subresources.
  'autoscaling/v1': 'k8s.io.api.autoscaling.v1',
  'coordination.k8s.io/v1': 'k8s.io.api.coordination.v1',
  'admissionregistration.k8s.io/v1': 'k8s.io.api.admissionregistration.v1',
  'apiextensions.k8s.io/v1': 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1',
};
