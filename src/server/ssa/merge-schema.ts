/**
 * The shape server-side apply merges by: what structured-merge-diff (sigs.k8s.io/
 * structured-merge-diff/v4 `schema` package: `Atom`, `Map`, `List`, `Scalar`, `ElementRelationship`)
 * knows about each node of an object. Two sources produce it: the built-in types (their OpenAPI
 * `x-kubernetes-list-type`, `x-kubernetes-list-map-keys` and `x-kubernetes-map-type`, as
 * kube-apiserver's OpenAPI publishes them) and a custom resource version's structural schema.
 * The field-ownership code (field sets, merge, apply, update) sees only this interface.
 */

/** smd `ElementRelationship`: how a map or list is owned and merged. */
export type ElementRelationship = 'atomic' | 'separable' | 'associative';

/** A node of the merge schema. */
export type MergeNode = ScalarNode | MapNode | ListNode | UntypedNode;

/** smd `Scalar`: a leaf, owned and replaced as a whole. */
export interface ScalarNode {
  readonly kind: 'scalar';
}

/**
 * smd `Map`: a struct (named fields, `fields`) or a map (any key, `values`), or both. Owned
 * field by field unless `relationship` is `atomic` (`x-kubernetes-map-type: atomic`), when the
 * whole map is one leaf.
 */
export interface MapNode {
  readonly kind: 'map';
  readonly relationship: 'atomic' | 'separable';
  /** The node of a named field; undefined when the struct does not name it. */
  field(name: string): MergeNode | undefined;
  /** The node of any other key (a map's values, or the `ElementType` of a struct that keeps unknown fields). */
  readonly values?: MergeNode;
}

/**
 * smd `List`: `atomic` (one leaf), `associative` with `keys` (`x-kubernetes-list-type: map`,
 * items identified by their key fields, `k:{...}`), or `associative` without keys
 * (`x-kubernetes-list-type: set`, scalar items identified by value, `v:...`).
 */
export interface ListNode {
  readonly kind: 'list';
  readonly relationship: 'atomic' | 'associative';
  /** `x-kubernetes-list-map-keys`; empty for a set or an atomic list. */
  readonly keys: readonly string[];
  /**
   * The schema default of key fields that have one (a container port's `protocol: TCP`): smd keys
   * an item that omits such a field by its default (typed/helpers.go `getAssociativeKeyDefault`),
   * so an applied port without `protocol` is the live `TCP` port. Optional; absent means none.
   */
  readonly keyDefaults?: Readonly<Record<string, unknown>>;
  readonly items: MergeNode;
}

/**
 * smd's deduced type (`schema.Deduced`, used where a schema says nothing, such as under
 * `x-kubernetes-preserve-unknown-fields`): objects are granular maps of deduced values, lists
 * and scalars are atomic.
 */
export interface UntypedNode {
  readonly kind: 'untyped';
}

/** The deduced node, shared. */
export const UNTYPED: UntypedNode = { kind: 'untyped' };
/** A scalar node, shared. */
export const SCALAR: ScalarNode = { kind: 'scalar' };
