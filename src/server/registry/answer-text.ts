/**
 * The JSON text of a write's answer, made from the bytes just stored instead of serializing the
 * answer again: the stored object and the answer differ only by the resourceVersion, which the
 * answer carries last in its metadata. For an object of a few kilobytes that is one whole
 * `JSON.stringify` less per write; the handlers send the text when there is one.
 *
 * An answer is read-only from the moment the storage returns it (the handlers only send it), so
 * its text cannot go stale.
 */
import type { KubeObject } from '../../protocol/events.js';

const texts = new WeakMap<KubeObject, string>();

/** The stored form and where its `metadata` object ends (the index of its closing brace, or -1). */
export interface Encoded {
  value: string;
  metaEnd: number;
}

/**
 * `JSON.stringify(obj)` for a plain object, built key by key so the end of `metadata` is known:
 * the same text, since JSON.stringify also writes the keys in `Object.keys` order and skips
 * values it cannot write.
 */
export function encodeObject(obj: Record<string, unknown>): Encoded {
  let value = '{';
  let metaEnd = -1;
  for (const key of Object.keys(obj)) {
    const part = JSON.stringify(obj[key]);
    if (part === undefined) continue;
    if (value.length > 1) value += ',';
    value += `${JSON.stringify(key)}:${part}`;
    if (key === 'metadata' && part.charCodeAt(0) === 0x7b) metaEnd = value.length - 1;
  }
  return { value: `${value}}`, metaEnd };
}

/** Records the text of `answer`: the stored bytes with `resourceVersion` added last to metadata. */
export function rememberAnswerText(answer: KubeObject, stored: Encoded, resourceVersion: string): void {
  const { value, metaEnd } = stored;
  if (metaEnd < 0) return;
  const sep = value.charCodeAt(metaEnd - 1) === 0x7b ? '' : ',';
  texts.set(
    answer,
    `${value.slice(0, metaEnd)}${sep}"resourceVersion":${JSON.stringify(resourceVersion)}${value.slice(metaEnd)}`,
  );
}

/** The text recorded for `answer`, if any. */
export function answerText(answer: KubeObject): string | undefined {
  return texts.get(answer);
}
