/**
 * Admission for the server: the in-process hooks of `ServerOptions.admission` and the configured
 * admission webhooks, handed to each write as a {@link WriteAdmission} that storage runs where
 * kube-apiserver's registry runs admission (mutating before the strategy's PrepareFor* and
 * validation, validating after them and just before storage: endpoints/handlers create.go,
 * update.go, patch.go, delete.go, registry/generic/registry/store.go).
 *
 * The built-in plugins that need to read other objects (ServiceAccount, service-account.ts) come
 * first, as kube-apiserver's plugin order puts them before the webhooks. A write no plugin, hook
 * or webhook concerns gets no WriteAdmission at all: the check is the kind and two array
 * lengths, and the configurations are read from the watch cache only when they change.
 */
import type { KubeObject } from '../../protocol/events.js';
import type { Cacher } from '../cache/cacher.js';
import type { KindTable } from '../kinds/served/kind-table.js';
import { findByPlural } from '../kinds/served/registry.js';
import { apiVersionOf, type ResourceKind } from '../kinds/types.js';
import type { ObjectStorage, WriteAdmission } from '../registry/object-storage.js';
import type { AdmissionAttributes, Invocation } from './attributes.js';
import { operationOptions } from './attributes.js';
import {
  type DispatchSinks,
  dispatchMutating,
  dispatchValidating,
  type Hook,
  webhookHook,
} from './dispatch.js';
import { CallingWebhookError } from './errors.js';
import {
  type EquivalentResource,
  matchRules,
  namespaceSelectorMatches,
  objectSelectorMatches,
} from './matching.js';
import { ServiceAccountAdmission } from './service-account.js';
import {
  type AdmissionAnswer,
  type AdmissionHook,
  type AdmissionHooks,
  type AdmissionOperation,
  type AdmissionUserInfo,
  type GroupVersionKind,
  IN_PROCESS_MUTATING_NAME,
  IN_PROCESS_VALIDATING_NAME,
} from './types.js';
import { callWebhook, type ResolveService } from './webhook-client.js';
import { type Webhook, WebhookConfigurations } from './webhooks.js';

/** What {@link Admission} needs from the server. */
export interface AdmissionDeps {
  hooks?: AdmissionHooks;
  cacher: Cacher;
  objects: ObjectStorage;
  kinds: KindTable;
  log?: (message: string) => void;
  /** The built-in plugins turned off (`disableAdmissionPlugins`): ServiceAccount among them, none runs. */
  disabled?: ReadonlySet<string>;
}

/** One write request, as the handlers describe it to admission. */
export interface AdmissionWrite {
  kind: ResourceKind;
  /** `status`, `scale`, `finalize`, ...; undefined for the main resource. */
  subresource?: string;
  /** The request's namespace (undefined for a cluster-scoped kind). */
  namespace?: string;
  /** The name on the URL; a create's comes from its object. */
  name?: string;
  userInfo: AdmissionUserInfo;
  dryRun: boolean;
  /** The request's options beyond dryRun (fieldManager, fieldValidation, propagationPolicy, ...). */
  options: Record<string, unknown>;
  /** Receives the hooks' warnings (the response's `Warning` headers). */
  warn(text: string): void;
  /** The kind the objects are seen as when it is not the resource's (autoscaling/v1 Scale). */
  objectKind?: GroupVersionKind;
}

const NAMESPACES: ResourceKind = findByPlural('', 'v1', 'namespaces')!;

/** The server's admission. */
export class Admission {
  private readonly deps: AdmissionDeps;
  private readonly configurations: WebhookConfigurations;
  private readonly inProcessMutating: Hook | undefined;
  private readonly inProcessValidating: Hook | undefined;
  private readonly sinks: Omit<DispatchSinks, 'warn'>;
  private readonly serviceAccount: ServiceAccountAdmission | undefined;

  constructor(deps: AdmissionDeps) {
    this.deps = deps;
    if (!deps.disabled?.has('ServiceAccount'))
      this.serviceAccount = new ServiceAccountAdmission({ cacher: deps.cacher, objects: () => deps.objects });
    this.configurations = new WebhookConfigurations(deps.cacher);
    this.sinks = { log: deps.log ?? (() => {}) };
    this.inProcessMutating = inProcessHook(IN_PROCESS_MUTATING_NAME, deps.hooks?.mutate);
    this.inProcessValidating = inProcessHook(IN_PROCESS_VALIDATING_NAME, deps.hooks?.validate);
    // From the cache's first fill on (which may come later: the cacher starts with the server).
    this.configurations.start();
  }

  /** Stops following the webhook configurations (the server's cacher stops anyway on close). */
  stop(): void {
    this.configurations.stop();
  }

  /** True when a write of `kind` meets any built-in plugin, hook or webhook: else it skips admission. */
  activeFor(kind: ResourceKind): boolean {
    return this.active || (this.serviceAccount !== undefined && kind.group === '' && kind.plural === 'pods');
  }

  /** True when any hook or webhook is configured. */
  get active(): boolean {
    const { mutating, validating } = this.configurations;
    return (
      this.inProcessMutating !== undefined ||
      this.inProcessValidating !== undefined ||
      mutating.length > 0 ||
      validating.length > 0
    );
  }

  /** The admission of one write, or undefined when nothing would be called. */
  forWrite(write: AdmissionWrite): WriteAdmission | undefined {
    const builtin = write.objectKind ? undefined : this.serviceAccount?.forWrite(write);
    const hooks = this.hooksFor(write);
    if (!builtin || !hooks) return builtin ?? hooks;
    return {
      mutate: async (obj, old) => hooks.mutate(await builtin.mutate(obj, old), old),
      validate: async (obj, old) => {
        await builtin.validate(obj, old);
        await hooks.validate(obj, old);
      },
    };
  }

  /** The in-process hooks' and the webhooks' admission of one write, or undefined. */
  private hooksFor(write: AdmissionWrite): WriteAdmission | undefined {
    if (!this.active) return undefined;
    // webhook.go `Dispatch`: writes of the admission configurations themselves are exempt
    // (rules.go `IsExemptAdmissionConfigurationResource`), so a broken webhook can be removed.
    if (write.kind.group === 'admissionregistration.k8s.io') return undefined;
    const { mutating, validating } = this.configurations;
    const mutatingHooks = [
      ...(this.inProcessMutating ? [this.inProcessMutating] : []),
      ...mutating.map((w) => this.hookOf(w, write, true)),
    ];
    const validatingHooks = [
      ...(this.inProcessValidating ? [this.inProcessValidating] : []),
      ...validating.map((w) => this.hookOf(w, write, false)),
    ];
    const sinks: DispatchSinks = { ...this.sinks, warn: (t) => write.warn(t) };
    return {
      mutate: async (obj, old) => {
        const attrs = this.attributes(write, old ? 'UPDATE' : 'CREATE', obj, old);
        const out = await dispatchMutating(mutatingHooks, attrs, sinks);
        // A custom kind's object is pruned after mutation (apiextensions-apiserver prunes what
        // admission added as it prunes a request body).
        if (out && out !== obj && !write.objectKind) write.kind.pruneUnknown?.(out);
        return out ?? obj;
      },
      validate: async (obj, old) => {
        const operation: AdmissionOperation = obj === undefined ? 'DELETE' : old ? 'UPDATE' : 'CREATE';
        const attrs = this.attributes(write, operation, obj, old);
        // rest.AdmissionToValidateObjectDeleteFunc: a delete runs mutating admission (with no
        // object to patch) and validating admission on the object deleted.
        if (operation === 'DELETE') await dispatchMutating(mutatingHooks, attrs, sinks);
        await dispatchValidating(validatingHooks, attrs, sinks);
      },
    };
  }

  private attributes(
    write: AdmissionWrite,
    operation: AdmissionOperation,
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
  ): AdmissionAttributes {
    const kind = write.kind;
    // create.go: a create's name comes from its object ("" with generateName).
    const name = write.name ?? (object ?? oldObject)?.metadata?.name ?? '';
    // RequestInfo: a Namespace's own requests carry its name as their namespace.
    const isNamespace = kind.group === '' && kind.plural === 'namespaces';
    const namespace = isNamespace ? (write.name ?? '') : (write.namespace ?? '');
    const dryRun = write.dryRun ? { dryRun: ['All'] } : {};
    return {
      kind: write.objectKind ?? { group: kind.group, version: kind.version, kind: kind.kind },
      resource: { group: kind.group, version: kind.version, resource: kind.plural },
      namespaced: kind.namespaced,
      subresource: write.subresource ?? '',
      name,
      namespace,
      operation,
      userInfo: write.userInfo,
      object,
      oldObject,
      dryRun: write.dryRun,
      options: operationOptions(operation, { ...dryRun, ...write.options }),
    };
  }

  private hookOf(webhook: Webhook, write: AdmissionWrite, mutating: boolean): Hook {
    const equivalents = () => (write.objectKind ? [] : this.equivalentsOf(write.kind));
    const matches = async (attrs: AdmissionAttributes): Promise<Invocation | undefined> => {
      const invocation = matchRules(webhook, attrs, equivalents);
      if (!invocation) return undefined;
      if (!webhook.namespaceSelector || !webhook.objectSelector)
        throw new CallingWebhookError(webhook.name, 'invalid label selector');
      if (!objectSelectorMatches(webhook.objectSelector, attrs)) return undefined;
      if (!(await namespaceSelectorMatches(webhook.namespaceSelector, attrs, (n) => this.namespaceLabels(n))))
        return undefined;
      return invocation;
    };
    return webhookHook(webhook, matches, async (w, request) => {
      const result = await callWebhook(w, request, mutating, this.resolveService);
      return {
        allowed: result.allowed,
        status: result.status,
        patch: result.patch,
        warnings: result.warnings,
      };
    });
  }

  /** predicates/namespace/matcher.go `GetNamespaceLabels`: a namespace that is not there is an internal error. */
  private async namespaceLabels(name: string): Promise<Record<string, string> | undefined> {
    const ns = await this.deps.objects.get(NAMESPACES, undefined, name);
    return ns.metadata?.labels as Record<string, string> | undefined;
  }

  /**
   * A Service reference, resolved as kube-apiserver's ClusterIPServiceResolver would
   * (k8s.io/kube-aggregator/pkg/apiserver/resolvers.go, `ResolveCluster`): a missing Service is
   * the lister's NotFound. A Service that exists has no network behind it here (watchmark runs
   * no kube-proxy), so its cluster IP is never reachable.
   */
  private readonly resolveService: ResolveService = async (service) => {
    const services = findByPlural('', 'v1', 'services')!;
    let svc: KubeObject;
    try {
      svc = await this.deps.objects.get(services, service.namespace, service.name);
    } catch {
      throw new Error(`services "${service.name}" not found`);
    }
    const ip = (svc.spec as { clusterIP?: string } | undefined)?.clusterIP ?? '';
    throw new Error(
      `dial tcp ${ip}:${service.port}: connect: no route to host (watchmark has no cluster network)`,
    );
  };

  /** The other served versions of a kind's group and resource (a custom kind's versions). */
  private equivalentsOf(kind: ResourceKind): EquivalentResource[] {
    const out: EquivalentResource[] = [];
    for (const k of this.deps.kinds.all()) {
      if (k.group !== kind.group || k.plural !== kind.plural || k.version === kind.version) continue;
      if (k.custom?.conversionError) continue;
      const resource = { group: k.group, version: k.version, resource: k.plural };
      out.push({
        resource,
        invocation: {
          kind: { group: k.group, version: k.version, kind: k.kind },
          resource,
          // Conversion strategy None: only the apiVersion differs between versions.
          toVersion: (o) => ({ ...o, apiVersion: apiVersionOf(k) }),
          fromVersion: (o) => ({ ...o, apiVersion: apiVersionOf(kind) }),
        },
      });
    }
    return out;
  }
}

/** An in-process hook as a webhook that matches every request and never has side effects. */
function inProcessHook(name: string, hook: AdmissionHook | undefined): Hook | undefined {
  if (!hook) return undefined;
  return {
    name,
    failurePolicy: 'Fail',
    sideEffects: 'None',
    matches: async (attrs) => ({ kind: attrs.kind, resource: attrs.resource }),
    call: async (request) => {
      let answer: AdmissionAnswer;
      try {
        // The hook gets its own copy: nothing it does to the request reaches the write.
        answer = await hook(structuredClone(request));
      } catch (err) {
        throw new CallingWebhookError(name, err instanceof Error ? err.message : String(err));
      }
      if (typeof answer !== 'object' || answer === null || typeof answer.allowed !== 'boolean')
        throw new CallingWebhookError(name, 'the hook answered no { allowed: boolean }');
      return answer;
    },
  };
}
