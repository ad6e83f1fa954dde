/**
 * What a resource answered and never stored (ResourceKind.virtual: Bindings, ComponentStatuses,
 * the token and access reviews) is given by the server: who asks, how to authorize and
 * authenticate, the components' health. Re-exported by types.ts.
 */
import type { KubeObject } from '../../protocol/events.js';

/** Who a request or a review is about: kube-apiserver's `user.Info`. */
export interface VirtualUser {
  name: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** The attributes an access review asks about (authorizer.AttributesRecord). */
export interface AccessAttributes {
  user: VirtualUser;
  verb: string;
  /** True for a resource request, false for a non-resource path. */
  resourceRequest: boolean;
  namespace?: string;
  group?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  path?: string;
}

/** An authorizer's decision (authorizer.Decision) and its reason. */
export interface AccessDecision {
  allowed: boolean;
  denied: boolean;
  reason?: string;
}

/** What a bearer token authenticates as (authenticator.Response), or why not. */
export interface TokenAuthentication {
  user?: VirtualUser;
  /** The audiences the token is good for, when the authenticator says so. */
  audiences?: string[];
  error?: string;
}

/** One component's health, as a ComponentStatus reports it. */
export interface ComponentHealth {
  name: string;
  /** `True`, `False` or `Unknown`. */
  status: string;
  message: string;
  error: string;
}

/** What the server lends a virtual resource's answers: the parts that live beyond a kind. */
export interface VirtualServices {
  /** BindingREST: assigns the pod `binding.metadata.name` in `namespace` to its target. */
  bindPod(namespace: string, binding: KubeObject, dryRun: boolean): Promise<void>;
  /** The server's token authenticators, as TokenREST runs them on a review's token. */
  authenticateToken(token: string, audiences: string[]): Promise<TokenAuthentication>;
  /** The server's authorizer. */
  authorize(attributes: AccessAttributes): AccessDecision;
  /** Each component a ComponentStatus reports, probed now. */
  componentHealth(): Promise<ComponentHealth[]>;
  /** The API audiences (`--api-audiences`, the issuer by default). */
  apiAudiences: string[];
}

/** One request to a virtual resource. */
export interface VirtualRequest {
  /** The path's namespace (a namespaced resource's). */
  namespace: string | undefined;
  /** Who sent it; undefined on a server without authentication. */
  user: VirtualUser | undefined;
  dryRun: boolean;
  /** Server time, ms since the epoch. */
  now: number;
  services: VirtualServices;
}

/** A virtual resource's answer to a create: the code and the body (the object, or a Status). */
export interface VirtualAnswer {
  code: number;
  body: KubeObject;
}

/**
 * The verbs of a resource answered and never stored. A create gets the body as decoded (typed,
 * fieldValidation applied) and answers it; a get or list answers objects of the kind.
 */
export interface VirtualResource {
  create?(request: VirtualRequest, body: KubeObject): Promise<VirtualAnswer>;
  get?(request: VirtualRequest, name: string): Promise<KubeObject>;
  list?(request: VirtualRequest): Promise<KubeObject[]>;
  /**
   * True when the create's answer carries the fields the request set and the field manager's
   * record of them (create.go runs the field manager before the storage's Create: the access
   * reviews, the TokenRequest); false for a Status or a fresh object (SelfSubjectReview).
   */
  managedFields?: boolean;
  /** The warning every request to the resource gets (the deprecation filter's for a kind deprecated). */
  deprecationWarning?: string;
}
