/**
 * Images as a node's container runtime (containerd) sees them: normalized
 * references (`nginx:1.27` is `docker.io/library/nginx:1.27`), digests and
 * sizes (made up, but stable per image), the pull errors containerd reports
 * for an image that does not exist, and each node's local image store.
 */
import { createHash } from 'node:crypto';

/**
 * The default `failImages`: an image whose last path segment is `fail` or
 * `doesnotexist` (optionally with a `-suffix`, tag or digest), or whose tag
 * is `:fail`, never pulls. `fail`, `registry.example/team/doesnotexist:1.0`,
 * `nginx:fail` fail; `nginx:1.27`, `failover:2` pull.
 */
export const DEFAULT_FAIL_IMAGES = /(^|\/)(fail|doesnotexist)([-:@][^/]*)?$|:fail$/;

/** The fully qualified reference containerd reports (`docker.io/library/nginx:1.27`). */
export function normalizeImage(image: string): string {
  let ref = image;
  const lastSegment = ref.slice(ref.lastIndexOf('/') + 1);
  if (!lastSegment.includes(':') && !lastSegment.includes('@')) ref += ':latest';
  const first = ref.split('/')[0];
  const hasRegistry =
    ref.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (hasRegistry) return ref;
  return ref.includes('/') ? `docker.io/${ref}` : `docker.io/library/${ref}`;
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

/** What containerd answers when the image does not exist. */
export function pullError(image: string): string {
  const n = normalizeImage(image);
  return (
    `rpc error: code = NotFound desc = failed to pull and unpack image "${n}": ` +
    `failed to resolve reference "${n}": ${n}: not found`
  );
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
  private readonly pulling = new Map<string, Promise<boolean>>();

  /** Whether the image is on the node. */
  has(image: string): boolean {
    return this.present.has(normalizeImage(image));
  }

  /** The pull in flight for `image`, if any. */
  inFlight(image: string): Promise<boolean> | undefined {
    return this.pulling.get(normalizeImage(image));
  }

  /** Runs `pull` as the one pull of `image`; a success makes it present. */
  pull(image: string, pull: () => Promise<boolean>): Promise<boolean> {
    const key = normalizeImage(image);
    const running = pull().then(
      (ok) => {
        if (ok) this.present.add(key);
        return ok;
      },
      () => false,
    );
    this.pulling.set(key, running);
    void running.finally(() => this.pulling.delete(key));
    return running;
  }
}
