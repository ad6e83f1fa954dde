/**
 * Images as a node's container runtime (containerd) sees them: normalized
 * references (`nginx:1.27` is `docker.io/library/nginx:1.27`), digests and
 * sizes (made up, but stable per image), and each node's local image store.
 * Which images exist is the simulated registry's business (registry.ts).
 */
import { createHash } from 'node:crypto';
import { type PullResult, parseImageReference } from './registry.js';

/** The fully qualified reference containerd reports (`docker.io/library/nginx:1.27`); unparseable text as it is. */
export function normalizeImage(image: string): string {
  const ref = parseImageReference(image);
  return 'error' in ref ? image : ref.normalized;
}

/** The repository part of a normalized reference (without tag or digest). */
function repository(normalized: string): string {
  const at = normalized.indexOf('@');
  if (at >= 0) return normalized.slice(0, at);
  const colon = normalized.lastIndexOf(':');
  return colon > normalized.lastIndexOf('/') ? normalized.slice(0, colon) : normalized;
}

const digests = new Map<string, string>();

/** sha256 hex, memoized: a node builds the same image IDs for thousands of pod statuses. */
function sha256(text: string): string {
  let d = digests.get(text);
  if (d === undefined) {
    d = createHash('sha256').update(text).digest('hex');
    if (digests.size > 10_000) digests.clear();
    digests.set(text, d);
  }
  return d;
}

/** `docker.io/library/nginx@sha256:...`: a status' imageID. */
export function imageID(image: string): string {
  const normalized = normalizeImage(image);
  return `${repository(normalized)}@sha256:${sha256(normalized)}`;
}

/** A container ID as containerd reports it. */
export function containerID(podUid: string, container: string): string {
  return `containerd://${sha256(`${podUid}/${container}`)}`;
}

/** A stable made-up image size, 20-120 MB. */
export function imageSize(image: string): number {
  return 20_000_000 + (Number.parseInt(sha256(image).slice(0, 8), 16) % 100_000_000);
}

/** `IfNotPresent` unless the tag is `latest` (or absent), as the API server defaults it. */
export function pullPolicy(image: string, explicit: string | undefined): string {
  if (explicit) return explicit;
  const tag = normalizeImage(image);
  return tag.endsWith(':latest') && !image.includes('@') ? 'Always' : 'IfNotPresent';
}

/**
 * A node's image store: which images are present, and the pull in flight
 * for an image (a second pod wanting the same image waits for it, as the
 * kubelet's serialized puller makes it do).
 */
export class ImageStore {
  private readonly present = new Set<string>();
  private readonly pulling = new Map<string, Promise<PullResult | undefined>>();

  /** Whether the image is on the node. */
  has(image: string): boolean {
    return this.present.has(normalizeImage(image));
  }

  /** The pull in flight for `image`, if any. */
  inFlight(image: string): Promise<PullResult | undefined> | undefined {
    return this.pulling.get(normalizeImage(image));
  }

  /**
   * Runs `pull` as the one pull of `image`; a success makes it present.
   * Resolves undefined when the pull was abandoned (its pod went away).
   */
  pull(image: string, pull: () => Promise<PullResult | undefined>): Promise<PullResult | undefined> {
    const key = normalizeImage(image);
    const running = pull().then(
      (result) => {
        if (result?.ok) this.present.add(key);
        return result;
      },
      () => undefined,
    );
    this.pulling.set(key, running);
    void running.finally(() => this.pulling.delete(key));
    return running;
  }
}
