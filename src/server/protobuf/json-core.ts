/**
 * Decoded protobuf message → JSON form for the k8s.io/api core/v1 kinds kubectl creates
 * (Namespace, ConfigMap, Secret, Service) and the pod template a Deployment carries. The
 * omitempty and pointer rules are in ./json-meta.ts; each function lists its Go type's fields in
 * declaration order, so the JSON keys come out in the order kubectl 1.31 sends them.
 */
import {
  intOrString,
  type Json,
  list,
  nonEmpty,
  num,
  obj,
  objectMeta,
  type Plain,
  pick,
  quantities,
  setTime,
  str,
  typeAndStatus,
} from './json-meta.js';

/** Namespace: spec and status are structs in Go, so the JSON form always has them, even empty. */
export function namespace(m: Plain): Json {
  const status = obj(m.status);
  const statusJson = nonEmpty(status, ['phase']);
  if (Array.isArray(status.conditions)) {
    statusJson.conditions = list(status.conditions).map((c) => {
      const json = typeAndStatus(c);
      setTime(json, 'lastTransitionTime', c.lastTransitionTime);
      return Object.assign(json, nonEmpty(c, ['reason', 'message']));
    });
  }
  return { spec: pick(obj(m.spec), ['finalizers']), status: statusJson };
}

export function configMap(m: Plain): Json {
  return pick(m, ['immutable', 'data', 'binaryData']);
}

export function secret(m: Plain): Json {
  return { ...pick(m, ['immutable', 'data', 'stringData']), ...nonEmpty(m, ['type']) };
}

/** PodTemplateSpec: metadata and spec are structs, always present. */
export function podTemplateSpec(m: Plain): Json {
  return { metadata: objectMeta(obj(m.metadata)), spec: podSpec(obj(m.spec)) };
}

function podSpec(s: Plain): Json {
  const out: Json = {};
  if (Array.isArray(s.initContainers)) out.initContainers = list(s.initContainers).map(container);
  // `containers` has no omitempty: a nil list is JSON null.
  out.containers = Array.isArray(s.containers) ? list(s.containers).map(container) : null;
  Object.assign(
    out,
    nonEmpty(s, ['restartPolicy']),
    pick(s, ['terminationGracePeriodSeconds', 'activeDeadlineSeconds']),
    nonEmpty(s, ['dnsPolicy']),
    pick(s, ['nodeSelector']),
    nonEmpty(s, ['serviceAccountName', 'serviceAccount']),
    pick(s, ['automountServiceAccountToken']),
    nonEmpty(s, ['nodeName', 'hostNetwork', 'hostPID', 'hostIPC']),
    pick(s, ['shareProcessNamespace']),
  );
  if (Array.isArray(s.imagePullSecrets))
    out.imagePullSecrets = list(s.imagePullSecrets).map((r) => nonEmpty(r, ['name']));
  Object.assign(
    out,
    nonEmpty(s, ['hostname', 'subdomain', 'schedulerName', 'priorityClassName']),
    pick(s, [
      'priority',
      'runtimeClassName',
      'enableServiceLinks',
      'preemptionPolicy',
      'setHostnameAsFQDN',
      'hostUsers',
    ]),
  );
  return out;
}

function container(c: Plain): Json {
  // name has no omitempty; resources is a struct, so `resources: {}` at least.
  const out: Json = { name: str(c.name), ...nonEmpty(c, ['image']), ...pick(c, ['command', 'args']) };
  Object.assign(out, nonEmpty(c, ['workingDir']));
  if (Array.isArray(c.ports)) {
    out.ports = list(c.ports).map((p) => ({
      ...nonEmpty(p, ['name', 'hostPort']),
      containerPort: num(p.containerPort),
      ...nonEmpty(p, ['protocol', 'hostIP']),
    }));
  }
  if (Array.isArray(c.env)) {
    out.env = list(c.env).map((e) => ({ name: str(e.name), ...nonEmpty(e, ['value']) }));
  }
  const resources = obj(c.resources);
  out.resources = {};
  for (const key of ['limits', 'requests']) {
    if (resources[key] !== undefined) (out.resources as Json)[key] = quantities(resources[key]);
  }
  return Object.assign(
    out,
    nonEmpty(c, [
      'terminationMessagePath',
      'terminationMessagePolicy',
      'imagePullPolicy',
      'stdin',
      'stdinOnce',
      'tty',
    ]),
  );
}

/** Service: spec and status (and status.loadBalancer) are structs, always present. */
export function service(m: Plain): Json {
  const s = obj(m.spec);
  const spec: Json = {};
  if (Array.isArray(s.ports)) spec.ports = list(s.ports).map(servicePort);
  Object.assign(
    spec,
    pick(s, ['selector']),
    nonEmpty(s, ['clusterIP']),
    pick(s, ['clusterIPs']),
    nonEmpty(s, ['type']),
    pick(s, ['externalIPs']),
    nonEmpty(s, ['sessionAffinity', 'loadBalancerIP']),
    pick(s, ['loadBalancerSourceRanges']),
    nonEmpty(s, ['externalName', 'externalTrafficPolicy', 'healthCheckNodePort', 'publishNotReadyAddresses']),
    pick(s, [
      'ipFamilies',
      'ipFamilyPolicy',
      'allocateLoadBalancerNodePorts',
      'loadBalancerClass',
      'internalTrafficPolicy',
      'trafficDistribution',
    ]),
  );
  return { spec, status: { loadBalancer: {} } };
}

function servicePort(p: Plain): Json {
  // port has no omitempty; targetPort is a struct (IntOrString), so always present.
  return {
    ...nonEmpty(p, ['name', 'protocol']),
    ...pick(p, ['appProtocol']),
    port: num(p.port),
    targetPort: intOrString(p.targetPort),
    ...nonEmpty(p, ['nodePort']),
  };
}
