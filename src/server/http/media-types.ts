/**
 * Content negotiation: the Accept header read into media ranges in the client's order of
 * preference, the choice between aggregated and legacy discovery made from them, and a resource
 * read's output (plain, or transformed `as=Table` / `as=PartialObjectMetadata[List]`) negotiated
 * as kube-apiserver's handlers negotiate it (see {@link negotiateOutput}).
 */
import type { AggregatedDiscoveryVersion } from '../openapi/aggregated-discovery.js';

/** The media type of Kubernetes protobuf bodies and answers (kubectl 1.32+ sends `create` in it). */
export const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';

/** One media range of an Accept header, with its parameters. */
export interface MediaRange {
  /** Lower-cased, e.g. `application` or `*`. */
  type: string;
  /** Lower-cased, e.g. `json` or `*`. */
  subtype: string;
  /** Parameters other than `q`; names lower-cased, values as sent (quotes removed). */
  params: Record<string, string>;
  q: number;
}

/**
 * Parses an Accept header into media ranges, most preferred first: by `q`, then by position (the
 * order kubectl writes is its preference). Ranges with `q=0` are dropped: they mean "not this".
 */
export function parseAccept(accept: string | undefined): MediaRange[] {
  if (!accept) return [];
  const ranges: Array<MediaRange & { index: number }> = [];
  accept.split(',').forEach((part, index) => {
    const [mediaType = '', ...paramParts] = part.split(';');
    const [type, subtype] = mediaType.trim().toLowerCase().split('/');
    if (!type || !subtype) return;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of paramParts) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const name = p.slice(0, eq).trim().toLowerCase();
      const value = p
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
      if (name === 'q') {
        const parsed = Number(value);
        q = Number.isFinite(parsed) ? parsed : 0;
      } else {
        params[name] = value;
      }
    }
    if (q > 0) ranges.push({ type, subtype, params, q, index });
  });
  ranges.sort((a, b) => b.q - a.q || a.index - b.index);
  return ranges.map(({ index: _index, ...range }) => range);
}

/** True for `application/json`, `application/*` and `*\/*`: ranges a JSON body satisfies. */
export function acceptsJson(range: MediaRange): boolean {
  if (range.type === '*') return true;
  return range.type === 'application' && (range.subtype === 'json' || range.subtype === '*');
}

/**
 * Chooses between aggregated and legacy discovery for `/api` and `/apis`.
 *
 * kubectl recognises an aggregated answer only by the response Content-Type
 * (`application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`), so the returned
 * `contentType` must be sent verbatim. 1.27-1.29 ask for v2beta1 (no longer served) then plain JSON, 1.30+ for v2 then v2beta1;
 * the first acceptable range wins. A plain JSON range reached first means legacy, as does an
 * Accept with nothing we can serve (kubectl always ends its list with plain `application/json`).
 */
export function negotiateDiscovery(
  accept: string | undefined,
): { contentType: string; version: AggregatedDiscoveryVersion; protobuf: boolean } | 'legacy' {
  for (const range of parseAccept(accept)) {
    const { as, g, v } = range.params;
    if (as === undefined) {
      if (acceptsJson(range)) return 'legacy';
      continue;
    }
    // In JSON or in protobuf (the apidiscovery/v2 messages), as kube-apiserver serves it.
    const isJson = range.type === 'application' && range.subtype === 'json';
    const isProtobuf = `${range.type}/${range.subtype}` === PROTOBUF_CONTENT_TYPE;
    if (
      as === 'APIGroupDiscoveryList' &&
      (isJson || isProtobuf) &&
      g === 'apidiscovery.k8s.io' &&
      // v2beta1 is no longer served (removed in 1.33, KEP-3352): such a range is skipped, and a
      // client that offers nothing else gets the legacy document's 406.
      v === 'v2'
    ) {
      return { contentType: aggregatedContentType(v, isProtobuf), version: v, protobuf: isProtobuf };
    }
  }
  return 'legacy';
}

/** The exact Content-Type kubectl looks for to treat a body as aggregated discovery. */
export function aggregatedContentType(version: AggregatedDiscoveryVersion, protobuf = false): string {
  const type = protobuf ? PROTOBUF_CONTENT_TYPE : 'application/json';
  return `${type};g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;
}

/** A transformation asked for with `as`, `g` and `v` media type parameters. */
export interface MediaConvert {
  group: string;
  version: string;
  kind: string;
}

/** The outcome of {@link negotiateOutput}: the range chosen and the transformation it asks for. */
export interface NegotiatedOutput {
  type: string;
  subtype: string;
  convert?: MediaConvert;
}

/**
 * The media types a resource endpoint serves, in kube-apiserver's order (the codec factory's
 * `SupportedMediaTypes`; CBOR is behind a feature gate that is off by default). Answers are built
 * as JSON and converted for a YAML or protobuf range (handlers/yaml-answer.ts, protobuf-answer.ts).
 */
export const RESOURCE_MEDIA_TYPES = ['application/json', 'application/yaml', PROTOBUF_CONTENT_TYPE] as const;

/**
 * Which (media type, transformation) pairs an endpoint allows: handlers/rest.go
 * `RequestScope.AllowsMediaTypeTransform`. `convert` undefined is a plain answer.
 */
export type AllowsTransform = (type: string, subtype: string, convert: MediaConvert | undefined) => boolean;

/**
 * negotiation/negotiate.go `NegotiateMediaTypeOptions`: the Accept ranges in goautoneg's order
 * (by `q`, then a concrete type before `*`, then a concrete subtype before `*`), each tried
 * against every served media type it matches; the first pair the endpoint allows wins. An empty
 * Accept is the first served type, plain. Undefined means nothing was acceptable: the caller
 * answers 406 ({@link notAcceptableMessage}). `as`, `g` and `v` make a transformation even when only
 * one of them is given (`acceptMediaTypeOptions`), which no endpoint allows.
 */
export function negotiateOutput(
  accept: string | undefined,
  allows: AllowsTransform,
  served: readonly string[] = RESOURCE_MEDIA_TYPES,
): NegotiatedOutput | undefined {
  const first = served[0]?.split('/');
  if (!accept?.trim()) return first ? { type: first[0], subtype: first[1] } : undefined;
  const ranges = parseAccept(accept);
  // Stable, so ranges of equal q and specificity keep the order they were written in.
  const rank = (r: MediaRange) => (r.type === '*' ? 2 : r.subtype === '*' ? 1 : 0);
  ranges.sort((a, b) => b.q - a.q || rank(a) - rank(b));
  for (const range of ranges) {
    for (const mediaType of served) {
      const [type, subtype] = mediaType.split('/');
      const matches =
        (range.type === type && (range.subtype === subtype || range.subtype === '*')) ||
        (range.type === '*' && range.subtype === '*');
      if (!matches) continue;
      const { as, g, v } = range.params;
      const convert =
        as === undefined && g === undefined && v === undefined
          ? undefined
          : { group: g ?? '', version: v ?? '', kind: as ?? '' };
      if (allows(type, subtype, convert)) return convert ? { type, subtype, convert } : { type, subtype };
    }
  }
  return undefined;
}

/** negotiation/errors.go `NewNotAcceptableError`: the 406 naming the media types served. */
export function notAcceptableMessage(served: readonly string[] = RESOURCE_MEDIA_TYPES): string {
  return `only the following media types are accepted: ${served.join(', ')}`;
}
