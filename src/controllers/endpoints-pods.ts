/**
 * What the endpoints and EndpointSlice controllers share about Services and the pods they pick
 * (k8s.io/endpointslice util/controller_utils.go, utils.go, util/trigger_time_tracker.go): which
 * pods belong in endpoints, their address of the Service's family, the container port a Service
 * port targets, and the `endpoints.kubernetes.io/last-change-trigger-time` each write carries.
 */
import type { KubeObject } from '../protocol/events.js';

/** A Service port as the API server stores it (protocol and targetPort defaulted). */
export interface ServicePort {
  name?: string;
  protocol?: string;
  port?: number;
  targetPort?: number | string;
  appProtocol?: string;
}

/** The Service fields the controllers read. */
export interface Service extends KubeObject {
  spec?: {
    selector?: Record<string, string> | null;
    ports?: ServicePort[];
    clusterIP?: string;
    type?: string;
    ipFamilies?: string[];
    publishNotReadyAddresses?: boolean;
  };
}

interface PodCondition {
  type?: string;
  status?: string;
  lastTransitionTime?: string;
}

interface ContainerPort {
  name?: string;
  containerPort?: number;
  protocol?: string;
}

/** The Pod fields the controllers read. */
export interface Pod extends KubeObject {
  spec?: {
    nodeName?: string;
    hostname?: string;
    subdomain?: string;
    containers?: Array<{ ports?: ContainerPort[] }>;
    initContainers?: Array<{ ports?: ContainerPort[]; restartPolicy?: string }>;
  };
  status?: { phase?: string; podIP?: string; podIPs?: Array<{ ip?: string }>; conditions?: PodCondition[] };
}

/** `service.kubernetes.io/headless`, set on the endpoints of a Service without a cluster IP. */
export const HEADLESS_LABEL = 'service.kubernetes.io/headless';
/** The annotation naming when the change a write reflects happened. */
export const TRIGGER_TIME_ANNOTATION = 'endpoints.kubernetes.io/last-change-trigger-time';

function readyCondition(pod: Pod): PodCondition | undefined {
  return (pod.status?.conditions ?? []).find((c) => c.type === 'Ready');
}

/** `IsPodReady`: the Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return readyCondition(pod)?.status === 'True';
}

/** `ShouldPodBeInEndpoints`: not terminal, has an IP, and (unless terminating ones count) not being deleted. */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  if (!pod.status?.podIP && (pod.status?.podIPs ?? []).length === 0) return false;
  return includeTerminating || !pod.metadata?.deletionTimestamp;
}

/** `ShouldSetHostname`: the pod names a hostname and the Service as its subdomain. */
export function shouldSetHostname(pod: Pod, service: Service): boolean {
  return (
    !!pod.spec?.hostname &&
    pod.spec.subdomain === service.metadata?.name &&
    pod.metadata?.namespace === service.metadata?.namespace
  );
}

/** `IsServiceIPSet`: a cluster IP that is neither empty nor `None`. */
export function isServiceIPSet(service: Service): boolean {
  const ip = service.spec?.clusterIP ?? '';
  return ip !== '' && ip !== 'None';
}

/** Whether an address is IPv6 (k8s.io/utils/net `IsIPv6String`; an IPv4-mapped one is IPv4). */
export function isIPv6(ip: string): boolean {
  return ip.includes(':') && !/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip);
}

/** The Service's first IP family (`IPv4`, `IPv6`), inferred as the endpoints controller does when unset. */
export function serviceFamily(service: Service, pod?: Pod): 'IPv4' | 'IPv6' {
  const families = service.spec?.ipFamilies ?? [];
  if (families.length > 0) return families[0] === 'IPv6' ? 'IPv6' : 'IPv4';
  const clusterIP = service.spec?.clusterIP ?? '';
  if (clusterIP !== '' && clusterIP !== 'None') return isIPv6(clusterIP) ? 'IPv6' : 'IPv4';
  return pod && isIPv6(pod.status?.podIP ?? '') ? 'IPv6' : 'IPv4';
}

/** The pod's addresses of one family, in its `podIPs` order. */
export function podAddresses(pod: Pod, family: 'IPv4' | 'IPv6'): string[] {
  return (pod.status?.podIPs ?? [])
    .map((p) => p.ip ?? '')
    .filter((ip) => ip !== '' && isIPv6(ip) === (family === 'IPv6'));
}

/**
 * `FindPort`: a numeric target port as it is; a named one is the container port of that name
 * and the Service port's protocol (in a container, or a sidecar init container); else none.
 */
export function findPort(pod: Pod, port: ServicePort): number | undefined {
  const target = port.targetPort ?? port.port;
  if (typeof target === 'number') return target;
  if (typeof target !== 'string') return undefined;
  const protocol = port.protocol ?? 'TCP';
  const containers = [
    ...(pod.spec?.containers ?? []),
    ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'),
  ];
  for (const c of containers) {
    for (const p of c.ports ?? []) {
      if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
    }
  }
  return undefined;
}

/** Whether a Service's selector picks these labels (a Service without one picks none). */
export function selects(service: Service, labels: Record<string, string> | undefined): boolean {
  const selector = service.spec?.selector;
  if (!selector) return false;
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

/** The keys (`namespace/name`) of the Services of `namespace` whose selector picks any of these label sets. */
export function servicesPicking(
  services: readonly Service[],
  namespace: string | undefined,
  ...labelSets: Array<Record<string, string> | undefined>
): string[] {
  return services
    .filter((s) => s.metadata?.namespace === namespace && labelSets.some((l) => selects(s, l)))
    .map((s) => `${s.metadata?.namespace}/${s.metadata?.name}`);
}

interface ServiceState {
  serviceTime: number;
  podTimes: Map<string, number>;
}

/**
 * util/trigger_time_tracker.go `TriggerTimeTracker`: the time of the earliest change since the
 * last sync of a Service (its pods' Ready transitions, its own creation), or the Service's
 * creation time on its first sync. 0 when nothing changed: the annotation is then dropped.
 */
export class TriggerTimeTracker {
  private readonly states = new Map<string, ServiceState>();

  /** `ComputeEndpointLastChangeTriggerTime`, in ms (0: none). */
  compute(key: string, service: Service, pods: readonly Pod[]): number {
    const state = this.states.get(key);
    let min = 0;
    const earlier = (t: number) => {
      if (min === 0 || t < min) min = t;
    };
    const podTimes = new Map<string, number>();
    for (const pod of pods) {
      const t = Date.parse(readyCondition(pod)?.lastTransitionTime ?? '');
      if (!Number.isFinite(t)) continue;
      const name = pod.metadata?.name ?? '';
      podTimes.set(name, t);
      if (t > (state?.podTimes.get(name) ?? 0)) earlier(t);
    }
    const serviceTime = Date.parse(service.metadata?.creationTimestamp ?? '') || 0;
    if (serviceTime > (state?.serviceTime ?? 0)) earlier(serviceTime);
    this.states.set(key, { serviceTime, podTimes });
    return state ? min : serviceTime;
  }

  /** `DeleteService`. */
  delete(key: string): void {
    this.states.delete(key);
  }
}

/** An RFC 3339 time with nanoseconds as Go's `RFC3339Nano` writes it (trailing zeros dropped). */
export function rfc3339Nano(ms: number): string {
  return new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z');
}

/** JSON with sorted keys, a target's resourceVersion left out (`endpointSubsetsEqualIgnoreResourceVersion`). */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (key, v) => {
    if (key === 'resourceVersion') return undefined;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
    );
  });
}
