/**
 * The admission webhooks configured now: every MutatingWebhookConfiguration and
 * ValidatingWebhookConfiguration in the watch cache, read once per change (not per write), as
 * kube-apiserver's configuration managers keep them from an informer
 * (pkg/admission/configuration/{mutating,validating}_webhook_manager.go: configurations sorted
 * by name, each one's webhooks in their order, defaults already applied by the registry).
 */
import type { KubeObject } from '../../protocol/events.js';
import {
  type LabelSelector,
  type LabelSelectorObject,
  labelSelectorFromObject,
} from '../../protocol/labels.js';
import type { Cacher } from '../cache/cacher.js';
import { findByPlural } from '../kinds/served/registry.js';
import type { ResourceKind } from '../kinds/types.js';

/** One rule of a webhook (admissionregistration/v1 `RuleWithOperations`). */
export interface WebhookRule {
  operations: string[];
  apiGroups: string[];
  apiVersions: string[];
  resources: string[];
  scope: string;
}

/** Where a webhook is reached (`WebhookClientConfig`). */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port: number };
  /** The CA bundle's PEM, decoded from base64. */
  caPem?: string;
}

/** One webhook of a configuration, defaulted and with its selectors parsed. */
export interface Webhook {
  configurationName: string;
  name: string;
  clientConfig: WebhookClientConfig;
  rules: WebhookRule[];
  failurePolicy: 'Fail' | 'Ignore';
  matchPolicy: 'Equivalent' | 'Exact';
  /** undefined: the selector could not be parsed (the call then fails as upstream's parse does). */
  namespaceSelector: LabelSelector | undefined;
  objectSelector: LabelSelector | undefined;
  sideEffects: string | undefined;
  timeoutSeconds: number;
  /** A mutating webhook's `reinvocationPolicy: IfNeeded`. */
  reinvokeIfNeeded: boolean;
}

export const MUTATING_CONFIGURATIONS: ResourceKind = findByPlural(
  'admissionregistration.k8s.io',
  'v1',
  'mutatingwebhookconfigurations',
)!;
export const VALIDATING_CONFIGURATIONS: ResourceKind = findByPlural(
  'admissionregistration.k8s.io',
  'v1',
  'validatingwebhookconfigurations',
)!;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function selector(value: unknown): LabelSelector | undefined {
  try {
    return labelSelectorFromObject((value ?? {}) as LabelSelectorObject, { nilSelectsNothing: false });
  } catch {
    return undefined;
  }
}

function clientConfigOf(value: unknown): WebhookClientConfig {
  const cc = (value ?? {}) as Record<string, unknown>;
  const out: WebhookClientConfig = {};
  if (typeof cc.url === 'string') out.url = cc.url;
  const service = cc.service as Record<string, unknown> | undefined;
  if (service && typeof service === 'object') {
    out.service = {
      namespace: String(service.namespace ?? ''),
      name: String(service.name ?? ''),
      path: typeof service.path === 'string' ? service.path : undefined,
      port: typeof service.port === 'number' ? service.port : 443,
    };
  }
  if (typeof cc.caBundle === 'string' && cc.caBundle !== '')
    out.caPem = Buffer.from(cc.caBundle, 'base64').toString('utf8');
  return out;
}

/** The webhooks of one stored configuration. */
export function webhooksOf(config: KubeObject): Webhook[] {
  const configurationName = config.metadata?.name ?? '';
  const hooks = Array.isArray(config.webhooks) ? (config.webhooks as Record<string, unknown>[]) : [];
  return hooks.map((h) => ({
    configurationName,
    name: String(h.name ?? ''),
    clientConfig: clientConfigOf(h.clientConfig),
    rules: (Array.isArray(h.rules) ? (h.rules as Record<string, unknown>[]) : []).map((r) => ({
      operations: strings(r.operations),
      apiGroups: strings(r.apiGroups),
      apiVersions: strings(r.apiVersions),
      resources: strings(r.resources),
      scope: typeof r.scope === 'string' ? r.scope : '*',
    })),
    failurePolicy: h.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
    matchPolicy: h.matchPolicy === 'Exact' ? 'Exact' : 'Equivalent',
    namespaceSelector: selector(h.namespaceSelector),
    objectSelector: selector(h.objectSelector),
    sideEffects: typeof h.sideEffects === 'string' ? h.sideEffects : undefined,
    timeoutSeconds: typeof h.timeoutSeconds === 'number' ? h.timeoutSeconds : 10,
    reinvokeIfNeeded: h.reinvocationPolicy === 'IfNeeded',
  }));
}

/**
 * The configured webhooks, rebuilt from the watch cache whenever a configuration changes, so
 * that a write looks at two arrays and never lists anything.
 */
export class WebhookConfigurations {
  mutating: readonly Webhook[] = [];
  validating: readonly Webhook[] = [];
  private readonly cacher: Cacher;
  private readonly unsubscribe: Array<() => void> = [];

  constructor(cacher: Cacher) {
    this.cacher = cacher;
  }

  /** Reads the cache now (if filled) and follows its changes and fills until {@link stop}. */
  start(): void {
    this.reload();
    this.unsubscribe.push(
      this.cacher.listen((kind) => {
        if (kind.group === 'admissionregistration.k8s.io' && kind.plural.endsWith('webhookconfigurations'))
          this.reload();
      }),
      this.cacher.onFill(() => this.reload()),
    );
  }

  stop(): void {
    for (const off of this.unsubscribe.splice(0)) off();
  }

  private reload(): void {
    this.mutating = this.read(MUTATING_CONFIGURATIONS);
    this.validating = this.read(VALIDATING_CONFIGURATIONS);
  }

  private read(kind: ResourceKind): Webhook[] {
    let objects: KubeObject[];
    try {
      objects = [...this.cacher.cacheFor(kind).objects.values()].map((c) => c.object);
    } catch {
      return [];
    }
    objects.sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
    return objects.flatMap(webhooksOf);
  }
}
