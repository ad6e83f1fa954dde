import type { KubeObject, WatchEventType } from '../../protocol/events.js';

/** The kind of change a history event records. */
export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/**
 * Turns one object into the bytes of one watch line for one output format
 * (plain JSON, or a server-side Table). `id` names the format: lines are
 * cached per (event, type, id) so each is serialized once for all watchers.
 */
export interface EventEncoder {
  readonly id: string;
  encode(type: WatchEventType, object: KubeObject, objectJson: string): Buffer;
  /**
   * Turns a JSON line the watcher built itself (a bookmark, an ERROR) into this encoder's wire
   * form; absent, the line is sent as it is.
   */
  frame?(jsonLine: Buffer): Buffer;
}

/** The plain JSON encoding: `{"type":T,"object":{...}}\n`, reusing the object's JSON text. */
export const jsonEncoder: EventEncoder = {
  id: 'json',
  encode(type, _object, objectJson) {
    return Buffer.from(`{"type":"${type}","object":${objectJson}}\n`);
  },
};

/**
 * One change in a watch cache's history. Objects carry their resourceVersion;
 * a DELETED event's object is the last state with the deletion's revision, as
 * kube-apiserver sends it. Serialized lines are built lazily and shared.
 */
export class CacheEvent {
  readonly type: ChangeType;
  readonly revision: number;
  readonly key: string;
  /** The object after the change (for DELETED: the final state). */
  readonly object: KubeObject;
  /** The object before the change (MODIFIED and DELETED). */
  readonly prevObject: KubeObject | undefined;
  /** When the cache received the change (clock ms), for the history window. */
  readonly time: number;
  readonly objectJson: string;
  private lines: Map<string, Buffer> | undefined;
  private prevAtRevisionJson: string | undefined;

  constructor(
    type: ChangeType,
    revision: number,
    key: string,
    object: KubeObject,
    objectJson: string,
    prevObject: KubeObject | undefined,
    time: number,
  ) {
    this.type = type;
    this.revision = revision;
    this.key = key;
    this.object = object;
    this.objectJson = objectJson;
    this.prevObject = prevObject;
    this.time = time;
  }

  /** The line for sending this change as `type` (which may differ from the change, see selectors). */
  line(type: WatchEventType, encoder: EventEncoder): Buffer {
    // An object that stops matching a selector is sent as DELETED carrying its
    // previous content with this event's resourceVersion (cache_watcher.go).
    const usePrev = type === 'DELETED' && this.type === 'MODIFIED';
    const cacheKey = `${type}|${encoder.id}`;
    this.lines ??= new Map();
    let line = this.lines.get(cacheKey);
    if (!line) {
      if (usePrev) {
        const prev = this.prevAtRevision();
        line = encoder.encode(type, prev.object, prev.json);
      } else {
        line = encoder.encode(type, this.object, this.objectJson);
      }
      this.lines.set(cacheKey, line);
    }
    return line;
  }

  private prevAtRevision(): { object: KubeObject; json: string } {
    const prev = structuredClone(this.prevObject ?? this.object);
    prev.metadata = { ...prev.metadata, resourceVersion: String(this.revision) };
    this.prevAtRevisionJson ??= JSON.stringify(prev);
    return { object: prev, json: this.prevAtRevisionJson };
  }
}
