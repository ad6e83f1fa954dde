/**
 * The upstream field descriptions `kubectl explain` shows, loaded when first needed.
 *
 * They are kube-apiserver's published `description` texts, taken from the OpenAPI v3 documents of
 * the Kubernetes release (openapi-descriptions.generated.ts, by scripts/openapi-types.ts). What
 * they cost, measured by `npm run bench:openapi` (bench/results/openapi-descriptions.json; 2 shared cores, load ~8, medians of 7 fresh node
 * processes on dist/): the generated module is 217 KB in the package (57 KB gzipped; the npm
 * tarball grows by about that). The server does not import it at start-up, so starting is
 * unchanged (an eager import would add ~9 ms to the server's ~226 ms import, 1.04x); the first
 * `/openapi/v3` request loads it and builds the documents in ~35 ms instead of ~24 ms, and the
 * documents grow from 316 KB to 685 KB in all (apps/v1: 135 KB to 304 KB), as upstream's carry
 * the same texts. kubectl caches them by `?hash=`. (Since the CustomResourceDefinition type
 * joined the table the module is 251 KB; since the table follows Kubernetes 1.37.2's OpenAPI
 * rather than kubernetes-types 1.30, its source is 305 KB, 39 KB more than before; the timings
 * above were measured at 217 KB and not re-run.) The reference's schema extras
 * (openapi-extras.generated.ts: enums, defaults, list and map extensions; 159 KB of source) load
 * with them, on the same first request.
 */
import type { ApiDescriptionTable } from './openapi-model.js';

let loading: Promise<ApiDescriptionTable> | undefined;

/**
 * The description table with the reference's schema extras (openapi-extras.generated.ts, the
 * enums, defaults and list extensions), imported on the first call and shared after.
 */
export function loadApiDescriptions(): Promise<ApiDescriptionTable> {
  loading ??= Promise.all([
    import('./openapi-descriptions.generated.js'),
    import('./openapi-extras.generated.js'),
  ]).then(([d, e]) => ({ ...d.API_DESCRIPTIONS, extras: e.OPENAPI_EXTRAS }));
  return loading;
}
