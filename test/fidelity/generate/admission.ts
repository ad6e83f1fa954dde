/**
 * Admission webhooks: configurations that call the corpus webhook (webhook-server.ts, whose
 * answer is chosen by the path), then the writes they see. Compared: what a write answers
 * when a webhook allows, patches, denies, warns, fails or times out under each failure policy;
 * what the AdmissionReview said (the `/echo` hooks write it into an annotation, `/echo-deny`
 * into a denial's message) for each verb, dry run, subresource and generated name; the order
 * of mutating hooks, reinvocation, and what validating hooks see after mutation.
 *
 * Each configuration matches only its case's namespace (namespaceSelector on
 * `kubernetes.io/metadata.name`), so cases beside it are not called; each waits for its own
 * webhooks to take effect with a probe (a create the webhook denies with `probe ID`).
 */

import type { FidelityCase, RequestSpec, Step } from '../types.js';
import { SAMPLES } from './samples.js';

type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | '*';

interface HookSpec {
  /** The corpus webhook's path (`/echo`), or a whole URL (an unreachable one). */
  path: string;
  rules?: Array<{ operations: Operation[]; apiGroups?: string[]; resources: string[] }>;
  failurePolicy?: 'Fail' | 'Ignore';
  sideEffects?: 'None' | 'NoneOnDryRun' | 'Unknown' | 'Some';
  timeoutSeconds?: number;
  objectSelector?: Record<string, unknown>;
  reinvocationPolicy?: 'Never' | 'IfNeeded';
  /** Labels the probe object carries besides its own (what an objectSelector asks for). */
  probeLabels?: Record<string, string>;
  /** The probe's wait: until a probe create gets this status (default 400: a denial without a code). */
  probeStatus?: number;
}

const CM = '/api/v1/namespaces/$ns/configmaps';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/$ns/deployments';
const CM_RULE: { operations: Operation[]; apiGroups?: string[]; resources: string[] } = {
  operations: ['CREATE', 'UPDATE'],
  resources: ['configmaps'],
};

const configMap = (name: string, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(labels ? { labels } : {}) },
  data: { key: 'value' },
});

/** The corpus's Deployment (samples.ts), which the subresource cases write to. */
const deployment = (name: string) => SAMPLES.find((k) => k.kind === 'Deployment')!.object(name);

function probeId(kind: 'm' | 'v', i: number): string {
  return `${kind}${i}`;
}

function webhookEntry(kind: 'm' | 'v', i: number, h: HookSpec): Record<string, unknown> {
  const url = h.path.startsWith('https://') ? h.path : `$webhookURL${h.path}/${probeId(kind, i)}`;
  const rules = (h.rules ?? [CM_RULE]).map((r) => ({
    operations: r.operations,
    apiGroups: r.apiGroups ?? [''],
    apiVersions: ['*'],
    resources: r.resources,
    scope: 'Namespaced',
  }));
  return {
    name: `${kind}${i}.fidelity.watchmark.dev`,
    clientConfig: { url, caBundle: '$webhookCA' },
    rules,
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': '$ns' } },
    ...(h.objectSelector ? { objectSelector: h.objectSelector } : {}),
    failurePolicy: h.failurePolicy ?? 'Fail',
    sideEffects: h.sideEffects ?? 'None',
    admissionReviewVersions: ['v1'],
    ...(h.timeoutSeconds ? { timeoutSeconds: h.timeoutSeconds } : {}),
    ...(kind === 'm' && h.reinvocationPolicy ? { reinvocationPolicy: h.reinvocationPolicy } : {}),
  };
}

/** The probe of webhook `id`: a ConfigMap create it denies (its rules must match ConfigMap creates). */
function probe(id: string, status: number, labels?: Record<string, string>): Step {
  const request: RequestSpec = {
    method: 'POST',
    path: CM,
    body: configMap(`probe-${id}`, { ...labels, 'fidelity-probe': id }),
  };
  return { waitFor: { request, status, timeoutMs: 30_000 } };
}

/** Steps that create the configurations and wait until each webhook takes effect. */
function configure(mutating: HookSpec[], validating: HookSpec[]): Step[] {
  const steps: Step[] = [];
  for (const [kind, hooks] of [
    ['m', mutating],
    ['v', validating],
  ] as const) {
    if (hooks.length === 0) continue;
    const resource = kind === 'm' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';
    const kindName = kind === 'm' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration';
    steps.push({
      request: {
        method: 'POST',
        path: `/apis/admissionregistration.k8s.io/v1/${resource}`,
        body: {
          apiVersion: 'admissionregistration.k8s.io/v1',
          kind: kindName,
          metadata: { name: `fc-$n-${kind}` },
          webhooks: hooks.map((h, i) => webhookEntry(kind, i, h)),
        },
      },
      compare: false,
    });
  }
  // A mutating probe is denied before validating hooks run: wait for the validating ones first
  // only when no mutating hook would answer their probe (each hook answers its own ID only).
  for (const [kind, hooks] of [
    ['m', mutating],
    ['v', validating],
  ] as const) {
    for (const [i, h] of hooks.entries())
      steps.push(probe(probeId(kind, i), h.probeStatus ?? 400, h.probeLabels));
  }
  return steps;
}

interface AdmissionCase {
  id: string;
  mutating?: HookSpec[];
  validating?: HookSpec[];
  /** Steps after the webhooks took effect. */
  steps: Step[];
}

const post = (path: string, body: unknown, query?: RequestSpec['query']): Step => ({
  request: { method: 'POST', path, body, ...(query ? { query } : {}) },
});
const quiet = (step: Step): Step => ({ ...step, compare: false });

/** A validating hook echoing what it sees of a merge patch to a Deployment's `subresource`. */
function echoSubresource(subresource: 'status' | 'scale', patch: Record<string, unknown>): AdmissionCase {
  return {
    id: `validating/echo-${subresource}`,
    validating: [
      {
        path: '/echo-deny',
        rules: [
          CM_RULE,
          { operations: ['UPDATE'], apiGroups: ['apps'], resources: [`deployments/${subresource}`] },
        ],
      },
    ],
    steps: [
      {
        request: {
          method: 'PATCH',
          path: `${DEPLOYMENTS}/d/${subresource}`,
          headers: { 'content-type': 'application/merge-patch+json' },
          body: patch,
        },
      },
    ],
  };
}

const CASES: AdmissionCase[] = [
  // --- mutating: what a write answers ---
  { id: 'mutating/allow', mutating: [{ path: '/allow' }], steps: [post(CM, configMap('a'))] },
  {
    id: 'mutating/label',
    mutating: [{ path: '/label' }],
    steps: [post(CM, configMap('a', { mine: 'yes' })), { request: { path: `${CM}/a` } }],
  },
  { id: 'mutating/deny', mutating: [{ path: '/deny' }], steps: [post(CM, configMap('a'))] },
  { id: 'mutating/deny-422', mutating: [{ path: '/deny-422' }], steps: [post(CM, configMap('a'))] },
  { id: 'mutating/warn', mutating: [{ path: '/warn' }], steps: [post(CM, configMap('a'))] },
  { id: 'mutating/bad-patch', mutating: [{ path: '/bad-patch' }], steps: [post(CM, configMap('a'))] },
  {
    id: 'mutating/unappliable-patch',
    mutating: [{ path: '/unappliable-patch' }],
    steps: [post(CM, configMap('a'))],
  },
  ...(['Fail', 'Ignore'] as const).flatMap((failurePolicy) => [
    {
      id: `mutating/malformed-${failurePolicy.toLowerCase()}`,
      mutating: [{ path: '/malformed', failurePolicy }],
      steps: [post(CM, configMap('a'))],
    },
    {
      id: `mutating/status-500-${failurePolicy.toLowerCase()}`,
      mutating: [{ path: '/status-500', failurePolicy }],
      steps: [post(CM, configMap('a'))],
    },
    {
      id: `mutating/timeout-${failurePolicy.toLowerCase()}`,
      mutating: [{ path: '/slow', failurePolicy, timeoutSeconds: 1 }],
      steps: [post(CM, configMap('a'))],
    },
    {
      id: `mutating/wrong-uid-${failurePolicy.toLowerCase()}`,
      mutating: [{ path: '/wrong-uid', failurePolicy }],
      steps: [post(CM, configMap('a'))],
    },
    {
      id: `mutating/no-response-${failurePolicy.toLowerCase()}`,
      mutating: [{ path: '/no-response', failurePolicy }],
      steps: [post(CM, configMap('a'))],
    },
  ]),
  {
    id: 'mutating/unreachable-fail',
    mutating: [{ path: 'https://127.0.0.1:1/unreachable', probeStatus: 500 }],
    steps: [post(CM, configMap('a'))],
  },
  {
    id: 'mutating/side-effects-none-on-dry-run',
    mutating: [{ path: '/echo', sideEffects: 'NoneOnDryRun' }],
    steps: [post(CM, configMap('a'), { dryRun: 'All' })],
  },
  {
    id: 'mutating/object-selector',
    mutating: [
      { path: '/label', objectSelector: { matchLabels: { hooked: 'yes' } }, probeLabels: { hooked: 'yes' } },
    ],
    steps: [post(CM, configMap('a')), post(CM, configMap('b', { hooked: 'yes' }))],
  },
  // --- mutating: what the review says ---
  { id: 'review/create', mutating: [{ path: '/echo' }], steps: [post(CM, configMap('a'))] },
  {
    id: 'review/create-dry-run',
    mutating: [{ path: '/echo' }],
    steps: [post(CM, configMap('a'), { dryRun: 'All', fieldManager: 'tester' })],
  },
  {
    id: 'review/create-generate-name',
    mutating: [{ path: '/echo' }],
    steps: [post(CM, { ...configMap(''), metadata: { generateName: 'gen-' } })],
  },
  {
    id: 'review/update',
    mutating: [{ path: '/echo' }],
    steps: [
      quiet(post(CM, configMap('a'))),
      { request: { method: 'PUT', path: `${CM}/a`, body: { ...configMap('a'), data: { key: 'changed' } } } },
    ],
  },
  {
    id: 'review/merge-patch',
    mutating: [{ path: '/echo' }],
    steps: [
      quiet(post(CM, configMap('a'))),
      {
        request: {
          method: 'PATCH',
          path: `${CM}/a`,
          headers: { 'content-type': 'application/merge-patch+json' },
          body: { data: { key: 'patched' } },
        },
      },
    ],
  },
  {
    id: 'review/apply-create',
    mutating: [{ path: '/echo' }],
    steps: [
      {
        request: {
          method: 'PATCH',
          path: `${CM}/a`,
          query: { fieldManager: 'applier' },
          headers: { 'content-type': 'application/apply-patch+yaml' },
          body: configMap('a'),
        },
      },
    ],
  },
  {
    id: 'review/pod-create',
    mutating: [{ path: '/echo', rules: [CM_RULE, { operations: ['CREATE'], resources: ['pods'] }] }],
    steps: [
      post('/api/v1/namespaces/$ns/pods', {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p' },
        spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
      }),
    ],
  },
  {
    id: 'review/order-of-hooks',
    mutating: [{ path: '/label' }, { path: '/echo' }],
    steps: [post(CM, configMap('a'))],
  },
  {
    id: 'review/reinvocation-if-needed',
    mutating: [{ path: '/echo', reinvocationPolicy: 'IfNeeded' }, { path: '/label' }],
    steps: [post(CM, configMap('a'))],
  },
  {
    id: 'review/no-reinvocation',
    mutating: [{ path: '/echo' }, { path: '/label' }],
    steps: [post(CM, configMap('a'))],
  },
  // --- validating ---
  { id: 'validating/deny', validating: [{ path: '/deny' }], steps: [post(CM, configMap('a'))] },
  { id: 'validating/deny-422', validating: [{ path: '/deny-422' }], steps: [post(CM, configMap('a'))] },
  {
    id: 'validating/deny-dry-run',
    validating: [{ path: '/deny' }],
    steps: [post(CM, configMap('a'), { dryRun: 'All' })],
  },
  { id: 'validating/warn', validating: [{ path: '/warn' }], steps: [post(CM, configMap('a'))] },
  {
    id: 'validating/status-500-ignore',
    validating: [{ path: '/status-500', failurePolicy: 'Ignore' }],
    steps: [post(CM, configMap('a'))],
  },
  {
    id: 'validating/status-500-fail',
    validating: [{ path: '/status-500' }],
    steps: [post(CM, configMap('a'))],
  },
  { id: 'validating/echo-create', validating: [{ path: '/echo-deny' }], steps: [post(CM, configMap('a'))] },
  {
    id: 'validating/sees-mutation',
    mutating: [{ path: '/label' }],
    validating: [{ path: '/echo-deny' }],
    steps: [post(CM, configMap('a'))],
  },
  {
    id: 'validating/echo-delete',
    validating: [
      { path: '/echo-deny', rules: [{ operations: ['CREATE', 'DELETE'], resources: ['configmaps'] }] },
    ],
    steps: [
      // Created before the hook: a create after it would be denied by the same hook.
      { request: { method: 'DELETE', path: `${CM}/a`, query: { dryRun: 'All' } } },
    ],
  },
  echoSubresource('status', { status: { observedGeneration: 1 } }),
  echoSubresource('scale', { spec: { replicas: 3 } }),
];

/** What each case needs before its configurations: the objects its hooks would refuse to create. */
const BEFORE: Record<string, Step[]> = {
  'validating/echo-delete': [quiet(post(CM, configMap('a')))],
  'validating/echo-status': [quiet(post(DEPLOYMENTS, deployment('d')))],
  'validating/echo-scale': [quiet(post(DEPLOYMENTS, deployment('d')))],
};

/** Configurations admissionregistration/v1 refuses: compared as they are answered. */
const REFUSED: Array<{ id: string; hook: HookSpec & Record<string, unknown> }> = [
  { id: 'side-effects-unknown', hook: { path: '/allow', sideEffects: 'Unknown' } },
  { id: 'side-effects-some', hook: { path: '/allow', sideEffects: 'Some' } },
  { id: 'url-with-query', hook: { path: 'https://127.0.0.1:1/x?probe=1' } },
  { id: 'no-review-versions', hook: { path: '/allow', admissionReviewVersions: [] } },
];

function refusedCases(): FidelityCase[] {
  return REFUSED.flatMap(({ id, hook }) =>
    (['m', 'v'] as const).map((kind) => {
      const { path: _path, sideEffects: _sideEffects, ...overrides } = hook;
      const entry = { ...webhookEntry(kind, 0, hook), ...overrides };
      const resource = kind === 'm' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';
      return {
        id: `admission/refused/${kind === 'm' ? 'mutating' : 'validating'}-${id}`,
        area: 'admission',
        steps: [
          {
            request: {
              method: 'POST',
              path: `/apis/admissionregistration.k8s.io/v1/${resource}`,
              body: { metadata: { name: `fc-$n-${kind}` }, webhooks: [entry] },
            },
          },
        ],
      };
    }),
  );
}

export function admissionCases(): FidelityCase[] {
  return [
    ...CASES.map((c) => ({
      id: `admission/${c.id}`,
      area: 'admission',
      steps: [...(BEFORE[c.id] ?? []), ...configure(c.mutating ?? [], c.validating ?? []), ...c.steps],
    })),
    ...refusedCases(),
  ];
}
