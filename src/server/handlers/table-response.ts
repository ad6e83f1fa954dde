/**
 * Tables as answers: whether a request wants one (Accept and `includeObject`),
 * and the one-row Tables a Table watch streams. The Table itself is built in
 * table.ts.
 */
import type { IncomingMessage } from 'node:http';
import type { Clock } from '../../protocol/clock.js';
import type { KubeObject, WatchEventType } from '../../protocol/events.js';
import type { EventEncoder } from '../cache/event.js';
import type { ResourceKind } from '../kinds/types.js';
import { type IncludeObject, parseIncludeObject, type TableVersion, toTable, wantsTable } from './table.js';

/** The Table a request asks for (version and `includeObject`), or undefined for plain JSON. */
export function tableRequest(
  req: IncomingMessage,
  query: URLSearchParams,
): { version: TableVersion; include: IncludeObject } | undefined {
  const version = wantsTable(req.headers.accept);
  if (!version) return undefined;
  return { version, include: parseIncludeObject(query.get('includeObject')) };
}

/** A watch line encoder producing one-row Tables, shared by every Table watcher of the same shape. */
export function tableEncoder(
  clock: Clock,
  kind: ResourceKind,
  version: TableVersion,
  include: IncludeObject,
): EventEncoder {
  return {
    id: `table-${version}-${include}`,
    encode(type: WatchEventType, object: KubeObject): Buffer {
      // Watch Tables carry no column definitions: kubectl reuses the list's header.
      const table = toTable(kind, [object], {
        now: clock.now(),
        version,
        includeObject: include,
        includeColumnDefinitions: false,
      });
      return Buffer.from(`{"type":"${type}","object":${JSON.stringify(table)}}\n`);
    },
  };
}
