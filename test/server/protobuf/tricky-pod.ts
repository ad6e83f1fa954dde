/**
 * The Pod of test/server/protobuf/all-kinds.test.ts with every type that needs care in protobuf:
 * quantities, IntOrString probe ports, volumes, maps, pointers (tolerationSeconds, priority 0).
 */

/** The namespace the fixtures are created in. */
export const POD_NAMESPACE = 'pb';
const NS = POD_NAMESPACE;

const labels: Record<string, string> = { app: 'web', tier: 'frontend' };
const selector = {
  matchLabels: labels,
  matchExpressions: [{ key: 'tier', operator: 'In', values: ['frontend'] }],
};

/** A web container with ports, env (one valueFrom) and quantities. */
export function container(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    image: 'nginx:1.27',
    ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
    env: [
      { name: 'MODE', value: 'prod' },
      { name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } },
    ],
    resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '250m', memory: '64Mi' } },
    ...extra,
  };
}

/** A pod template: what a workload runs. */
export function template() {
  return {
    metadata: { creationTimestamp: null, labels, annotations: { note: 'template' } },
    spec: { containers: [container('web')], terminationGracePeriodSeconds: 30 },
  };
}

/** A Pod with quantities, IntOrString probes, times, volumes, maps and a tolerationSeconds pointer. */
export function trickyPod(name: string): any {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: {
      name,
      namespace: NS,
      labels,
      annotations: { 'example.com/owner': 'team-a' },
      finalizers: ['example.com/keep'],
    },
    spec: {
      volumes: [
        { name: 'data', emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } },
        {
          name: 'config',
          configMap: {
            name: 'settings',
            items: [{ key: 'a', path: 'a.conf', mode: 0o644 }],
            defaultMode: 0o420,
          },
        },
        {
          name: 'token',
          projected: {
            sources: [{ serviceAccountToken: { audience: 'api', expirationSeconds: 3600, path: 'token' } }],
          },
        },
      ],
      initContainers: [{ name: 'init', image: 'busybox:1.36', command: ['sh', '-c', 'true'], resources: {} }],
      containers: [
        container('web', {
          args: ['--port', '8080'],
          volumeMounts: [{ name: 'data', mountPath: '/data', readOnly: true }],
          livenessProbe: {
            httpGet: {
              path: '/healthz',
              port: 'http',
              scheme: 'HTTP',
              httpHeaders: [{ name: 'X-Probe', value: '1' }],
            },
            initialDelaySeconds: 5,
            periodSeconds: 10,
            failureThreshold: 3,
          },
          readinessProbe: { tcpSocket: { port: 8080 }, timeoutSeconds: 2 },
          lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } },
          securityContext: {
            runAsNonRoot: true,
            runAsUser: 1000,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
          },
          imagePullPolicy: 'IfNotPresent',
        }),
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 45,
      activeDeadlineSeconds: 3600,
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      serviceAccountName: 'default',
      automountServiceAccountToken: false,
      securityContext: { fsGroup: 2000, sysctls: [{ name: 'net.core.somaxconn', value: '1024' }] },
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }],
          },
        },
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 50,
              podAffinityTerm: {
                labelSelector: { matchLabels: labels },
                topologyKey: 'kubernetes.io/hostname',
              },
            },
          ],
        },
      },
      tolerations: [
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
        { key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' },
      ],
      hostAliases: [{ ip: '10.0.0.1', hostnames: ['db.local'] }],
      priority: 0,
      dnsConfig: { nameservers: ['1.1.1.1'], options: [{ name: 'ndots', value: '2' }] },
      enableServiceLinks: false,
      overhead: { cpu: '10m' },
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'zone',
          whenUnsatisfiable: 'ScheduleAnyway',
          labelSelector: { matchLabels: labels },
        },
      ],
    },
    status: {},
  };
}

/** The labels and selector the workloads share. */
export const POD_PARTS = { labels, selector };
