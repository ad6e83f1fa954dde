/**
 * The etcd key space of a store: its prefix, checked so that watchmark never
 * writes into kube-apiserver's own `/registry`, and the range end that makes
 * a prefix a range (etcd's `clientv3.GetPrefixRangeEnd`).
 */

/** `/watchmark`, `watchmark/` and `/watchmark/` all mean `/watchmark`. */
export function normalizePrefix(prefix: string): string {
  const trimmed = `/${prefix.replace(/^\/+|\/+$/g, '')}`;
  if (trimmed === '/')
    throw new Error('etcd prefix must not be empty: use a key space of its own, like /watchmark');
  if (trimmed === '/registry' || trimmed.startsWith('/registry/')) {
    throw new Error(
      `etcd prefix ${trimmed} is kube-apiserver's key space: watchmark would overwrite a real cluster`,
    );
  }
  return trimmed;
}

/** The smallest key after every key that starts with `key` (etcd's range_end for a prefix). */
export function prefixEnd(key: Buffer): Buffer {
  const end = Buffer.from(key);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] < 0xff) {
      end[i]++;
      return end.subarray(0, i + 1);
    }
  }
  // All 0xff: every key from here on.
  return Buffer.from([0]);
}
