/**
 * The built-in types k8s.io/api marks deprecated (its generated lifecycle.go:
 * `APILifecycleDeprecated`, `APILifecycleReplacement`), for the warning kube-apiserver's
 * installer adds to every route of their resource (apiserver pkg/endpoints/installer.go, the
 * text of pkg/endpoints/deprecation `WarningMessage`). ComponentStatus, deprecated in v1.19, is
 * answered by handlers/virtual.ts, which warns itself.
 */
import { apiVersionOf, type ResourceKind } from './types.js';

interface Lifecycle {
  /** The release the type was deprecated in. */
  deprecated: string;
  /** The group/version and kind to use instead. */
  replacement?: string;
}

/** By `<apiVersion>/<Kind>`. */
const DEPRECATED: Readonly<Record<string, Lifecycle>> = {
  'v1/Endpoints': { deprecated: '1.33', replacement: 'discovery.k8s.io/v1 EndpointSlice' },
};

/**
 * `v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice`, or undefined
 * for a built-in kind that is not deprecated (and for custom kinds, whose versions say it).
 */
export function builtinDeprecationWarning(kind: ResourceKind): string | undefined {
  if (kind.custom) return undefined;
  const apiVersion = apiVersionOf(kind);
  const lifecycle = DEPRECATED[`${apiVersion}/${kind.kind}`];
  if (!lifecycle) return undefined;
  const text = `${apiVersion} ${kind.kind} is deprecated in v${lifecycle.deprecated}+`;
  return lifecycle.replacement ? `${text}; use ${lifecycle.replacement}` : text;
}
