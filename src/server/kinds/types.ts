import type { KubeObject } from '../../protocol/events.js';
import type { VirtualResource } from './virtual-types.js';

/**
 * A field of a Kubernetes type, by the type's OpenAPI name and the field's JSON name:
 * `{ type: 'io.k8s.api.core.v1.PodStatus', field: 'podIP' }`.
 */
export interface TypeField {
  readonly type: string;
  readonly field: string;
}

/** A column of the server-side Table printed by `kubectl get`. */
export interface TableColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format?: string;
  /** The column's description where printers.go writes its own text. */
  description?: string;
  /**
   * The field whose doc describes the column where printers.go writes
   * `T{}.SwaggerDoc()["field"]`: the served release's text, which the Table builder looks up
   * (handlers/table.ts, from openapi/column-docs.generated.ts). Takes the place of `description`.
   */
  fieldDoc?: TypeField;
  /** 0 = default output, 1 = only with `-o wide`. */
  priority: number;
  /**
   * Computes the cell for one object; `now` is the server clock, for ages. Null only in a
   * custom resource's columns, where kube-apiserver sends `null` for a missing value.
   */
  cell(obj: KubeObject, now: number): string | number | boolean | null;
}

/**
 * One served resource. A kind is a table entry, not a code path: adding a
 * built-in resource means defining one of these in its group's folder
 * (kinds/<group>/) and listing it in the group's index.ts.
 */
export interface ResourceKind {
  /** API group; "" for the core group. */
  group: string;
  version: string;
  kind: string;
  /** Lower-case plural used in URLs, e.g. `deployments`. */
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  /** Field selectors beyond metadata.name / metadata.namespace, with how to read each. */
  fields: Record<string, (obj: KubeObject) => string | undefined>;
  /**
   * Subresources served beside the main resource: the generic `status` and `scale`, and the
   * special ones a handler of handlers/subresources.ts serves (a pod's `binding`, a Namespace's
   * `finalize`). Their verbs and kinds in discovery are the reference's.
   */
  subresources: string[];
  /** The spec/other fields whose change bumps metadata.generation; empty = never bumped. */
  generationFields: string[];
  /** Fills in kube-apiserver's defaults in place (on create and update). */
  defaults?(obj: KubeObject): void;
  /**
   * Returns field errors (empty when valid). On an update `old` is the stored object: custom
   * kinds ratchet (errors in values left unchanged are dropped) and run CEL transition rules.
   */
  validate?(obj: KubeObject, old?: KubeObject): FieldError[];
  /**
   * Extra checks of an update against the stored object (kube's
   * `ValidateXUpdate`: immutable selectors, immutable ConfigMaps/Secrets, ...),
   * run after {@link ResourceKind.validate} on updates only.
   */
  validateUpdate?(obj: KubeObject, old: KubeObject): FieldError[];
  /** The strategy's WarningsOnCreate (`old` undefined) and WarningsOnUpdate of a valid write. */
  warnings?(obj: KubeObject, old?: KubeObject): string[];
  /**
   * Create-only additions (the strategy's `PrepareForCreate`) that must not be
   * re-applied on updates, e.g. a Namespace's `spec.finalizers: [kubernetes]`,
   * which the namespace lifecycle later removes. Runs after `defaults`, before `validate`.
   * `user` is who sent the create, when the request was authenticated (the request context's
   * user, which a CertificateSigningRequest records).
   */
  prepareForCreate?(obj: KubeObject, user?: RequestUser): void;
  /**
   * Update-only changes of the strategy's `PrepareForUpdate` beyond the generic ones (the
   * CustomResourceDefinition's new storage version recorded in status.storedVersions), run on
   * a main update after the status was restored from `old`.
   */
  prepareForUpdate?(obj: KubeObject, old: KubeObject): void;
  /**
   * The status strategy's own part of PrepareForUpdate on a `/status` write, run on the object
   * the write stores (the old one with the new status): a Pod's observed generations.
   * `subresource` names the endpoint: `status`, or another status-like one whose strategy
   * changes its own part of the status (a CertificateSigningRequest's `approval`).
   */
  prepareForStatusUpdate?(obj: KubeObject, old: KubeObject, subresource: string): void;
  /**
   * The status strategy's `ValidateUpdate` where it is not the main one's: run on a write
   * through `subresource` (`status`, `approval`) instead of {@link ResourceKind.validate} and
   * {@link ResourceKind.validateUpdate}. Absent: those run on every update.
   */
  validateStatusUpdate?(obj: KubeObject, old: KubeObject, subresource: string): FieldError[];
  /**
   * The spec a write through a subresource that changes part of the spec stores, from the spec
   * sent and the old one (a Pod's `resize`: pkg/registry/core/pod/strategy.go
   * `dropNonResizeUpdates`); the rest of the object is the old one's.
   */
  subresourceSpec?(
    sent: Record<string, unknown>,
    old: Record<string, unknown>,
    subresource: string,
  ): Record<string, unknown>;
  /**
   * The part of the strategy's PrepareForUpdate whose change the field manager must not see:
   * kube-apiserver records ownership on the object as sent and runs PrepareForUpdate after it
   * (update.go, patch.go), so what this sets belongs to no writer. Run on every update scope,
   * after ownership is recorded (a DaemonSet's template generation, a CertificateSigningRequest's
   * condition timestamps); `now` is the server clock's time (ms).
   */
  afterFieldManager?(obj: KubeObject, old: KubeObject, scope: string, now: number): void;
  /**
   * The built-in mutating admission plugins' change of a new object of this kind (a Node's
   * not-ready taint, plugin/pkg/admission/nodetaint), run where kube-apiserver runs them: after
   * the field manager (so nobody owns what they add) and before the admission webhooks.
   */
  admitCreate?(obj: KubeObject): void;
  /**
   * What turning off built-in admission plugins (`--disable-admission-plugins`, `disabled` as
   * kube-apiserver names them) changes in this kind's entry: a Pod's defaults without the
   * ServiceAccount, Priority and DefaultTolerationSeconds additions, a Node without its
   * create-time taint. Undefined, or an undefined answer: no plugin in `disabled` touches it.
   */
  withAdmissionPluginsOff?(disabled: ReadonlySet<string>): Partial<ResourceKind> | undefined;
  /**
   * Drops the fields the kind's schema does not know and returns their paths
   * (`spec.foo`): a custom kind's pruning, which `fieldValidation` reports as a built-in
   * kind's typed decoding reports unknown fields.
   */
  pruneUnknown?(obj: KubeObject): string[];
  /**
   * Turns an object read from storage into this kind's form, in place: a custom kind's version
   * conversion (the stored apiVersion rewritten, strategy `None`) and its schema defaults,
   * which apply to every object read, as apiextensions-apiserver's storage codec applies them.
   * `written` says the stored bytes are ones this kind's own write pipeline produced (pruned
   * and defaulted by this very schema), so pruning and defaulting them again would change
   * nothing and only the version is rewritten.
   */
  fromStorage?(obj: KubeObject, written?: boolean): void;
  /** Turns an object of this kind into the stored form, in place (a custom kind's storage version). */
  toStorage?(obj: KubeObject): void;
  /**
   * Set on kinds whose first DELETE only marks the object (deletionTimestamp) and changes it
   * as this says, whatever finalizers it has: a CustomResourceDefinition gets its cleanup
   * finalizer and Terminating condition (apiextensions-apiserver
   * pkg/registry/customresourcedefinition/etcd.go `REST.Delete`). `now` is RFC 3339.
   */
  markDeleted?(obj: KubeObject, now: string): void;
  /**
   * Set on kinds whose strategy deletes gracefully (`CheckGracefulDelete`: Pods): a DELETE
   * that removes the object first writes it marked as this says (deletionTimestamp, grace
   * period), and answers that version. `now` is RFC 3339.
   */
  deleteGracefully?(obj: KubeObject, now: string): void;
  /**
   * The object the printers see, when not the one served: kube-apiserver prints the internal
   * object, which for an autoscaling/v1 HorizontalPodAutoscaler is the stored v2 one (its metrics in
   * their order, no round-trip annotations). The Table's cells and row metadata come from it.
   */
  printed?(obj: KubeObject): KubeObject;
  /** Table columns (after Name, which is always first). */
  columns: TableColumn[];
  /**
   * Cells a printer appends after its columns without defining a column for them (printers.go
   * `printIPAddress` adds the age to its two columns): in each row, not in the definitions.
   */
  trailingCells?(obj: KubeObject, now: number): Array<string | number>;
  /**
   * True when `columns` already holds the Name column where kube puts it:
   * Events print it last and only with `-o wide`. The table builder then adds none.
   */
  columnsIncludeName?: boolean;
  /**
   * For the scale subresource: where replicas and the selector live, as dotted paths. A
   * built-in's selector is a LabelSelector object; a custom kind's (`labelSelectorPath`) is the
   * selector's string form, and may be absent ('').
   */
  scale?: {
    specReplicas: string;
    statusReplicas: string;
    labelSelector: string;
    /**
     * The replicas path at every group/version the kind has had (scalehandler.go
     * `ResourcePathMappings`; null for a version without /scale): field ownership recorded at a
     * version missing here is dropped by a write through /scale, as upstream drops it. Absent:
     * the kind's own version only.
     */
    replicasPathByVersion?: Readonly<Record<string, string | null>>;
  };
  /**
   * The strategy's `AllowCreateOnUpdate` (pkg/registry/<group>/<kind>/strategy.go): a PUT of a
   * missing object creates it and answers 201 (registry/store.go `Update`). Absent: false, a 404.
   */
  allowCreateOnUpdate?: boolean;
  /**
   * The strategy's `AllowUnconditionalUpdate`: false refuses a PUT without
   * `metadata.resourceVersion` with a 422 (store.go `Update`). Absent: true, the update applies
   * to whatever is stored.
   */
  allowUnconditionalUpdate?: boolean;
  /**
   * The resource whose stored objects this kind serves in its own version, when it is not its
   * own: events.k8s.io/v1 `events` are core/v1 `events` (one etcd prefix, `/registry/events`),
   * autoscaling/v1 `horizontalpodautoscalers` are autoscaling/v2's. A write through either is seen
   * through both, watches included; `fromStorage`/`toStorage` convert. Absent: its own.
   */
  storage?: { group: string; plural: string };
  /**
   * Set on the built-in resources answered and never stored (a rest.Storage of their own:
   * Bindings, ComponentStatuses, the token and access reviews): their create, get and list are
   * this code's (handlers/virtual.ts dispatches them); the verbs served stay the reference's.
   */
  virtual?: VirtualResource;
  /** Set on kinds a CustomResourceDefinition defines; undefined on the built-ins. */
  custom?: CustomKindInfo;
}

export type {
  AccessAttributes,
  AccessDecision,
  ComponentHealth,
  TokenAuthentication,
  VirtualAnswer,
  VirtualRequest,
  VirtualResource,
  VirtualServices,
  VirtualUser,
} from './virtual-types.js';

/** The live state of a served definition. */
export interface CustomDefinitionState {
  /**
   * True once the definition is being deleted (its Terminating condition): its objects can
   * still be read, changed and deleted, but no new one created.
   */
  terminating: boolean;
}

/** What a kind defined by a CustomResourceDefinition carries beyond a built-in's entry. */
export interface CustomKindInfo {
  /** The definition's name, `widgets.example.com`. */
  crdName: string;
  /** The definition's uid: discovery and OpenAPI caches are keyed by it. */
  crdUid: string;
  /** The accepted list kind (`status.acceptedNames.listKind`, `<Kind>List` by default). */
  listKind: string;
  /** The version objects are stored in (`spec.versions[].storage`). */
  storageVersion: string;
  /** Every served version, in the definition's order. */
  servedVersions: string[];
  /** This version's `schema.openAPIV3Schema`, as the definition holds it (undefined: none). */
  openAPIV3Schema?: Readonly<Record<string, unknown>>;
  /** What the definition's controller changes in place, shared by every version's kind. */
  readonly state: CustomDefinitionState;
  /**
   * Set when objects cannot be converted to this version (a `Webhook` conversion strategy
   * and a version other than the storage one): every request for it fails with this message.
   */
  conversionError?: string;
  /** This version's `deprecated` and `deprecationWarning`. */
  deprecated?: boolean;
  deprecationWarning?: string;
}

/** Who sent a request, as a strategy sees it (k8s.io/apiserver user.Info). */
export interface RequestUser {
  name: string;
  uid?: string;
  groups: readonly string[];
  extra?: Readonly<Record<string, readonly string[]>>;
}

/** A validation failure of one field, reported in a 422 Status's causes. */
export interface FieldError {
  /** `FieldValueRequired`, `FieldValueInvalid`, `FieldValueNotSupported`, ... */
  type: string;
  field: string;
  message: string;
}

/** The kind of a list of `k`: `PodList`, or a custom kind's accepted list kind. */
export function listKindOf(k: Pick<ResourceKind, 'kind' | 'custom'>): string {
  return k.custom?.listKind || `${k.kind}List`;
}

/** `apps/v1` or `v1`. */
export function apiVersionOf(k: Pick<ResourceKind, 'group' | 'version'>): string {
  return k.group ? `${k.group}/${k.version}` : k.version;
}

/** A Table column as the reference's printers define it (meta/v1 TableColumnDefinition). */
export interface GeneratedColumn {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** One resource of the reference's aggregated discovery. */
export interface BuiltinResource {
  /** "" for the core group. */
  group: string;
  version: string;
  plural: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames: string[];
  categories: string[];
  /** Each subresource with its verbs, and its kind when it is not the parent's (Scale, Eviction). */
  subresources: Array<{
    name: string;
    verbs: string[];
    kind?: { group: string; version: string; kind: string };
  }>;
  /** The Table columns of a listable resource, Name included, in the printers' order. */
  columns?: GeneratedColumn[];
}

/** A group of the reference's discovery with its versions, preferred first. */
export interface BuiltinGroup {
  group: string;
  versions: string[];
}
