/**
 * The pod-template-hash, computed the way kube's `controller.ComputeHash`
 * does: FNV-32a over the template (plus the collision count when set), the
 * 32-bit value printed in decimal, each digit mapped through
 * `rand.SafeEncodeString`'s alphabet. Kube hashes Go's spew dump of the
 * struct; we hash its canonical JSON, so values differ from a real cluster's
 * but have the same shape (8-10 characters of `[4-9bcdf]`) and stability.
 */
import { canonicalJson, type PodTemplate } from './objects.js';

/** The alphabet of `k8s.io/apimachinery/pkg/util/rand.SafeEncodeString`: no vowels, no 0/1/3. */
export const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** FNV-1a, 32 bits, over UTF-8 bytes. */
export function fnv32a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** `rand.SafeEncodeString`: every byte to `alphabet[byte % 27]`. */
export function safeEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) out += SAFE_ALPHABET[byte % SAFE_ALPHABET.length];
  return out;
}

/** The pod-template-hash of a Deployment's template (without the hash label itself). */
export function podTemplateHash(template: PodTemplate | undefined, collisionCount?: number): string {
  let text = canonicalJson(template ?? {});
  // As kube: the collision count feeds the hasher after the template, so a bump gives a new name.
  if (collisionCount !== undefined && collisionCount !== null) text += `#${collisionCount}`;
  return safeEncode(String(fnv32a(text)));
}
