/**
 * The stored text of an object written again at every start (bootstrap/): marks where this
 * start's uid and times go, for ObjectStorage `createAgain`.
 */
import type { KubeObject } from '../../protocol/events.js';
import { encodeObject } from './answer-text.js';
import { metaOf } from './meta.js';

const AGAIN_UID = '\u0000uid\u0000';
const AGAIN_TIME = '\u0000time\u0000';

/**
 * The stored text of `stored` (as ObjectStorage `create` answered it) with its uid, creation
 * time and ownership times left as marks.
 */
export function againTemplate(stored: KubeObject): string {
  const obj = structuredClone(stored);
  const meta = metaOf(obj);
  meta.uid = AGAIN_UID;
  meta.creationTimestamp = AGAIN_TIME;
  delete meta.resourceVersion;
  for (const entry of (meta.managedFields ?? []) as Array<{ time?: string }>) entry.time = AGAIN_TIME;
  // JSON escapes the marks' NUL: the text holds them as \u0000.
  const escaped = (mark: string) => JSON.stringify(mark).slice(1, -1);
  return encodeObject(obj)
    .value.replaceAll(escaped(AGAIN_UID), AGAIN_UID)
    .replaceAll(escaped(AGAIN_TIME), AGAIN_TIME);
}

/** `template` with this start's uid and time. */
export function fillAgain(template: string, uid: string, time: string): string {
  return template.replace(AGAIN_UID, uid).replaceAll(AGAIN_TIME, time);
}
