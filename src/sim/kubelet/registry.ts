/**
 * The simulated container registry: which image references a kubelet's pull
 * resolves, and what containerd answers for those that do not. References
 * are parsed by the grammar the kubelet applies (distribution's reference
 * package): `nginx` is `docker.io/library/nginx:latest`, a repository name
 * must be lowercase, a tag is at most 128 of `[A-Za-z0-9_.-]`, a digest is
 * `sha256:` and 64 hex digits.
 */
import { BUILT_IN_IMAGES } from './registry-data.js';

/** A parsed image reference, normalized as containerd reports it. */
export interface ImageReference {
  /** `docker.io/library/nginx`. */
  repository: string;
  tag?: string;
  digest?: string;
  /** `docker.io/library/nginx:1.27` (`...@sha256:...` with a digest). */
  normalized: string;
}

/** What a pull of an image reference gives. */
export type PullResult =
  | { ok: true }
  /** The reference is valid but the registry has no such image: `Failed`/ErrImagePull, then back-off. */
  | { ok: false; reason: 'ErrImagePull'; error: string }
  /** The reference does not parse: `InspectFailed`/InvalidImageName, no pull is tried. */
  | { ok: false; reason: 'InvalidImageName'; error: string };

const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const DOMAIN =
  /^(?:localhost|[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*)(?::\d+)?$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;

/**
 * Parses `image` as the kubelet does before pulling, or says why it is not a
 * reference (the text of distribution's `invalid reference format` errors).
 */
export function parseImageReference(image: string): ImageReference | { error: string } {
  const invalid = { error: 'invalid reference format' };
  let rest = image;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) return invalid;
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) return invalid;
  }
  if (rest === '') return invalid;
  const slash = rest.indexOf('/');
  const first = slash < 0 ? '' : rest.slice(0, slash);
  // A first component is a registry host when it looks like one: a dot, a port, or localhost.
  const hasDomain = slash >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost');
  let domain = hasDomain ? first : 'docker.io';
  let path = hasDomain ? rest.slice(slash + 1) : rest;
  if (hasDomain && !DOMAIN.test(domain)) return invalid;
  if (domain === 'index.docker.io') domain = 'docker.io';
  if (domain === 'docker.io' && !path.includes('/')) path = `library/${path}`;
  if (path !== path.toLowerCase()) {
    return { error: `invalid reference format: repository name (${path}) must be lowercase` };
  }
  if (!path.split('/').every((c) => COMPONENT.test(c))) return invalid;
  if (tag === undefined && digest === undefined) tag = 'latest';
  const repository = `${domain}/${path}`;
  const normalized = `${repository}${tag === undefined ? '' : `:${tag}`}${digest === undefined ? '' : `@${digest}`}`;
  return { repository, tag, digest, normalized };
}

/**
 * A registry of image repositories and their tags. A reference resolves when
 * its repository is known and so is its tag (any tag for a repository added
 * as `REPO:*`). A digest of a known repository always resolves: the registry
 * knows names, not content, and a digest copied from a real registry should pull.
 */
export class ImageRegistry {
  private readonly repositories = new Map<string, Set<string> | 'any'>();

  /** The built-in catalogue of common public images ({@link BUILT_IN_IMAGES}). */
  static builtIn(): ImageRegistry {
    const registry = new ImageRegistry();
    for (const [repository, tags] of Object.entries(BUILT_IN_IMAGES)) {
      for (const tag of tags) registry.add(`${repository}:${tag}`);
    }
    return registry;
  }

  /**
   * Adds `REPO:TAG`, `REPO` (its `latest`) or `REPO:*` (every tag). Throws
   * when the text is not an image reference.
   */
  add(entry: string): void {
    const anyTag = entry.endsWith(':*');
    const ref = parseImageReference(anyTag ? `${entry.slice(0, -2)}:any` : entry);
    if ('error' in ref) throw new Error(`${JSON.stringify(entry)}: ${ref.error}`);
    if (ref.digest !== undefined && !anyTag && ref.tag === undefined) {
      // A digest names content, not a tag: knowing the repository is enough.
      if (!this.repositories.has(ref.repository)) this.repositories.set(ref.repository, new Set());
      return;
    }
    const tags = this.repositories.get(ref.repository);
    if (anyTag) this.repositories.set(ref.repository, 'any');
    else if (tags === undefined) this.repositories.set(ref.repository, new Set([ref.tag ?? 'latest']));
    else if (tags !== 'any') tags.add(ref.tag ?? 'latest');
  }

  /** How many repositories the registry knows. */
  get size(): number {
    return this.repositories.size;
  }

  /** Whether a pull of `image` succeeds, and containerd's error when it does not. */
  resolve(image: string): PullResult {
    const ref = parseImageReference(image);
    if ('error' in ref) {
      return {
        ok: false,
        reason: 'InvalidImageName',
        error: `Failed to apply default image tag "${image}": couldn't parse image name "${image}": ${ref.error}`,
      };
    }
    const tags = this.repositories.get(ref.repository);
    const n = ref.normalized;
    const prefix = `failed to pull and unpack image "${n}": failed to resolve reference "${n}"`;
    if (tags === undefined && ref.repository.startsWith('docker.io/')) {
      // Docker Hub answers an unknown repository with 401, never 404: it cannot tell "absent" from "private".
      return {
        ok: false,
        reason: 'ErrImagePull',
        error: `rpc error: code = Unknown desc = ${prefix}: pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed`,
      };
    }
    const found =
      tags !== undefined && (ref.digest !== undefined || tags === 'any' || tags.has(ref.tag ?? 'latest'));
    if (found) return { ok: true };
    return {
      ok: false,
      reason: 'ErrImagePull',
      error: `rpc error: code = NotFound desc = ${prefix}: ${n}: not found`,
    };
  }
}

/**
 * Reads an images file (`--sim-images`): YAML or JSON, a list of references
 * (`REPO:TAG`, `REPO`, `REPO:*`) or an object with such a list under `images`.
 * Throws naming the file and the entry that is wrong.
 */
export async function parseImagesFile(
  text: string,
  source: string,
  registry: ImageRegistry,
): Promise<number> {
  const YAML = await import('yaml');
  let value: unknown;
  try {
    value = YAML.parse(text);
  } catch (err) {
    throw new Error(`${source}: ${(err as Error).message.split('\n')[0]}`);
  }
  const list = Array.isArray(value) ? value : (value as { images?: unknown } | null)?.images;
  if (!Array.isArray(list)) {
    throw new Error(`${source}: expected a list of image references (or "images:" with one)`);
  }
  list.forEach((entry, i) => {
    if (typeof entry !== 'string')
      throw new Error(`${source}: entry ${i + 1}: expected a string like "nginx:1.27"`);
    try {
      registry.add(entry);
    } catch (err) {
      throw new Error(`${source}: entry ${i + 1}: ${(err as Error).message}`);
    }
  });
  return list.length;
}
