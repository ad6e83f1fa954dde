/**
 * The protobuf schema of the kinds kubectl's `create` generators send: the subset of
 * k8s.io/apimachinery (`runtime`, `meta/v1`, `util/intstr`, `api/resource`) and k8s.io/api
 * (`core/v1`, `apps/v1`) they use. Field numbers are those of the upstream `generated.proto` files
 * (proto2); message and field names follow upstream so that errors read like the API reference.
 *
 * A field not listed here is rejected with 415 by the strict check (./strict.ts), never skipped.
 * So every field a generator may send must be listed, including the zero-valued non-pointer
 * scalars gogo-protobuf always emits (empty strings, false, 0). Fields left out on purpose are
 * noted: a create from kubectl never carries them and they would need more JSON mapping.
 */
export const SCHEMA = `
syntax = "proto2";
package watchmark.k8s;

// k8s.io/apimachinery/pkg/runtime
message TypeMeta {
  optional string apiVersion = 1;
  optional string kind = 2;
}
message Unknown {
  optional TypeMeta typeMeta = 1;
  optional bytes raw = 2;
  optional string contentEncoding = 3;
  optional string contentType = 4;
}

// k8s.io/apimachinery/pkg/util/intstr (type: 0 = Int, 1 = String)
message IntOrString {
  optional int64 type = 1;
  optional int32 intVal = 2;
  optional string strVal = 3;
}

// k8s.io/apimachinery/pkg/api/resource
message Quantity {
  optional string string = 1;
}

// k8s.io/apimachinery/pkg/apis/meta/v1
message Time {
  optional int64 seconds = 1;
  optional int32 nanos = 2;
}
message FieldsV1 {
  optional bytes Raw = 1;
}
message ManagedFieldsEntry {
  optional string manager = 1;
  optional string operation = 2;
  optional string apiVersion = 3;
  optional Time time = 4;
  optional string fieldsType = 6;
  optional FieldsV1 fieldsV1 = 7;
  optional string subresource = 8;
}
message OwnerReference {
  optional string kind = 1;
  optional string name = 3;
  optional string uid = 4;
  optional string apiVersion = 5;
  optional bool controller = 6;
  optional bool blockOwnerDeletion = 7;
}
message ObjectMeta {
  optional string name = 1;
  optional string generateName = 2;
  optional string namespace = 3;
  optional string selfLink = 4;
  optional string uid = 5;
  optional string resourceVersion = 6;
  optional int64 generation = 7;
  optional Time creationTimestamp = 8;
  optional Time deletionTimestamp = 9;
  optional int64 deletionGracePeriodSeconds = 10;
  map<string, string> labels = 11;
  map<string, string> annotations = 12;
  repeated OwnerReference ownerReferences = 13;
  repeated string finalizers = 14;
  repeated ManagedFieldsEntry managedFields = 17;
}
message LabelSelectorRequirement {
  optional string key = 1;
  optional string operator = 2;
  repeated string values = 3;
}
message LabelSelector {
  map<string, string> matchLabels = 1;
  repeated LabelSelectorRequirement matchExpressions = 2;
}

// k8s.io/api/core/v1: Namespace, ConfigMap, Secret
message NamespaceCondition {
  optional string type = 1;
  optional string status = 2;
  optional Time lastTransitionTime = 4;
  optional string reason = 5;
  optional string message = 6;
}
message NamespaceSpec {
  repeated string finalizers = 1;
}
message NamespaceStatus {
  optional string phase = 1;
  repeated NamespaceCondition conditions = 2;
}
message Namespace {
  optional ObjectMeta metadata = 1;
  optional NamespaceSpec spec = 2;
  optional NamespaceStatus status = 3;
}
message ConfigMap {
  optional ObjectMeta metadata = 1;
  map<string, string> data = 2;
  map<string, bytes> binaryData = 3;
  optional bool immutable = 4;
}
message Secret {
  optional ObjectMeta metadata = 1;
  map<string, bytes> data = 2;
  optional string type = 3;
  map<string, string> stringData = 4;
  optional bool immutable = 5;
}

// k8s.io/api/core/v1: the pod template of a Deployment. Left out: volumes, probes, lifecycle,
// security contexts, affinity, tolerations and the other nested policies; EnvVar.valueFrom,
// ResourceRequirements.claims.
message ContainerPort {
  optional string name = 1;
  optional int32 hostPort = 2;
  optional int32 containerPort = 3;
  optional string protocol = 4;
  optional string hostIP = 5;
}
message EnvVar {
  optional string name = 1;
  optional string value = 2;
}
message ResourceRequirements {
  map<string, Quantity> limits = 1;
  map<string, Quantity> requests = 2;
}
message Container {
  optional string name = 1;
  optional string image = 2;
  repeated string command = 3;
  repeated string args = 4;
  optional string workingDir = 5;
  repeated ContainerPort ports = 6;
  repeated EnvVar env = 7;
  optional ResourceRequirements resources = 8;
  optional string terminationMessagePath = 13;
  optional string imagePullPolicy = 14;
  optional bool stdin = 16;
  optional bool stdinOnce = 17;
  optional bool tty = 18;
  optional string terminationMessagePolicy = 20;
}
message LocalObjectReference {
  optional string name = 1;
}
message PodSpec {
  repeated Container containers = 2;
  optional string restartPolicy = 3;
  optional int64 terminationGracePeriodSeconds = 4;
  optional int64 activeDeadlineSeconds = 5;
  optional string dnsPolicy = 6;
  map<string, string> nodeSelector = 7;
  optional string serviceAccountName = 8;
  optional string serviceAccount = 9;
  optional string nodeName = 10;
  optional bool hostNetwork = 11;
  optional bool hostPID = 12;
  optional bool hostIPC = 13;
  repeated LocalObjectReference imagePullSecrets = 15;
  optional string hostname = 16;
  optional string subdomain = 17;
  optional string schedulerName = 19;
  repeated Container initContainers = 20;
  optional bool automountServiceAccountToken = 21;
  optional string priorityClassName = 24;
  optional int32 priority = 25;
  optional bool shareProcessNamespace = 27;
  optional string runtimeClassName = 29;
  optional bool enableServiceLinks = 30;
  optional string preemptionPolicy = 31;
  optional bool setHostnameAsFQDN = 35;
  optional bool hostUsers = 37;
}
message PodTemplateSpec {
  optional ObjectMeta metadata = 1;
  optional PodSpec spec = 2;
}

// k8s.io/api/core/v1: Service. Left out: sessionAffinityConfig, LoadBalancerStatus.ingress,
// ServiceStatus.conditions.
message ServicePort {
  optional string name = 1;
  optional string protocol = 2;
  optional int32 port = 3;
  optional IntOrString targetPort = 4;
  optional int32 nodePort = 5;
  optional string appProtocol = 6;
}
message ServiceSpec {
  repeated ServicePort ports = 1;
  map<string, string> selector = 2;
  optional string clusterIP = 3;
  optional string type = 4;
  repeated string externalIPs = 5;
  optional string sessionAffinity = 7;
  optional string loadBalancerIP = 8;
  repeated string loadBalancerSourceRanges = 9;
  optional string externalName = 10;
  optional string externalTrafficPolicy = 11;
  optional int32 healthCheckNodePort = 12;
  optional bool publishNotReadyAddresses = 13;
  optional string ipFamilyPolicy = 17;
  repeated string clusterIPs = 18;
  repeated string ipFamilies = 19;
  optional bool allocateLoadBalancerNodePorts = 20;
  optional string loadBalancerClass = 21;
  optional string internalTrafficPolicy = 22;
  optional string trafficDistribution = 23;
}
message LoadBalancerStatus {
}
message ServiceStatus {
  optional LoadBalancerStatus loadBalancer = 1;
}
message Service {
  optional ObjectMeta metadata = 1;
  optional ServiceSpec spec = 2;
  optional ServiceStatus status = 3;
}

// k8s.io/api/apps/v1: Deployment. Left out: DeploymentStatus.conditions, spec.podReplacementPolicy.
message RollingUpdateDeployment {
  optional IntOrString maxUnavailable = 1;
  optional IntOrString maxSurge = 2;
}
message DeploymentStrategy {
  optional string type = 1;
  optional RollingUpdateDeployment rollingUpdate = 2;
}
message DeploymentSpec {
  optional int32 replicas = 1;
  optional LabelSelector selector = 2;
  optional PodTemplateSpec template = 3;
  optional DeploymentStrategy strategy = 4;
  optional int32 minReadySeconds = 5;
  optional int32 revisionHistoryLimit = 6;
  optional bool paused = 7;
  optional int32 progressDeadlineSeconds = 9;
}
message DeploymentStatus {
  optional int64 observedGeneration = 1;
  optional int32 replicas = 2;
  optional int32 updatedReplicas = 3;
  optional int32 availableReplicas = 4;
  optional int32 unavailableReplicas = 5;
  optional int32 readyReplicas = 7;
  optional int32 collisionCount = 8;
  optional int32 terminatingReplicas = 9;
}
message Deployment {
  optional ObjectMeta metadata = 1;
  optional DeploymentSpec spec = 2;
  optional DeploymentStatus status = 3;
}
`;
