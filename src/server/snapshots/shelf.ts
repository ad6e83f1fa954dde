/**
 * The named snapshots of `/debug/watchmark/snapshots` (see {@link SnapshotShelf}), over
 * snapshots.ts's snapshot and restore.
 */
import { StatusError } from '../../protocol/status.js';
import { memoryStoreOnly, type ServerSnapshot } from './snapshots.js';

/** How many named snapshots one server holds: each is a copy of the whole state. */
export const MAX_SNAPSHOTS = 16;

/** A snapshot's name: a DNS label, as it goes into a URL path segment unescaped. */
const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** What the shelf needs of the server. */
export interface Snapshotting {
  /** The store's name: snapshots work over the memory store only. */
  storeName(): string;
  snapshot(): Promise<ServerSnapshot>;
  restore(snapshot: ServerSnapshot): Promise<void>;
}

/**
 * `snapshot()` and `restore()` over HTTP, for tests in any language, with the
 * snapshots kept in the server under names (each is the whole state; shipping
 * it to the test and back would cost a JSON round trip of every object):
 *
 * - `POST snapshots` `{"name": "clean"}`: takes one (201; 409 if the name is held);
 * - `GET snapshots`: the names held, with their revisions;
 * - `POST snapshots/<name>/restore`: puts it back, answering once the state is
 *   restored (every watch has ended, the next write gets its revision + 1);
 * - `DELETE snapshots/<name>`: forgets it.
 *
 * At most {@link MAX_SNAPSHOTS} are held. Over etcd every call is refused
 * with 400: take an etcd snapshot there.
 */
export class SnapshotShelf {
  private readonly held = new Map<string, ServerSnapshot>();

  constructor(private readonly server: Snapshotting) {}

  /**
   * Answers `method` on `snapshots<rest>` (`rest` is '' or `/<name>[/restore]`); `body` reads
   * the request's JSON object. Refusals are thrown as StatusErrors.
   */
  async serve(
    method: string,
    rest: string,
    body: () => Promise<Record<string, unknown>>,
  ): Promise<{ code: number; body: unknown }> {
    if (this.server.storeName() !== 'memory') {
      throw StatusError.of('BadRequest', memoryStoreOnly('snapshots work', this.server.storeName()));
    }
    const parts = rest.split('/').filter(Boolean);
    if (parts.length === 0) {
      if (method === 'GET') return { code: 200, body: { snapshots: this.list() } };
      if (method !== 'POST') throw StatusError.of('MethodNotAllowed', 'snapshots answers GET and POST');
      const name = (await body()).name;
      if (typeof name !== 'string' || !NAME.test(name) || name.length > 63) {
        throw StatusError.of(
          'BadRequest',
          `a snapshot needs {"name": "..."}: lower-case letters, digits and '-', at most 63, not ${JSON.stringify(name ?? null)}`,
        );
      }
      if (this.held.has(name)) {
        throw StatusError.of(
          'AlreadyExists',
          `snapshot ${JSON.stringify(name)} already exists: DELETE it first`,
          {
            name,
          },
        );
      }
      if (this.held.size >= MAX_SNAPSHOTS) {
        throw StatusError.of(
          'BadRequest',
          `at most ${MAX_SNAPSHOTS} snapshots are held (each is a copy of the whole state): DELETE one first`,
        );
      }
      const snapshot = await this.server.snapshot();
      this.held.set(name, snapshot);
      return { code: 201, body: { name, revision: snapshot.revision } };
    }
    const name = parts[0];
    const snapshot = this.held.get(name);
    if (!snapshot) {
      throw StatusError.of(
        'NotFound',
        `snapshot ${JSON.stringify(name)} not found: held are ${this.names()}`,
        {
          name,
        },
      );
    }
    if (parts.length === 1) {
      if (method !== 'DELETE') throw StatusError.of('MethodNotAllowed', `snapshots/${name} answers DELETE`);
      this.held.delete(name);
      return { code: 200, body: { name, revision: snapshot.revision } };
    }
    if (parts.length === 2 && parts[1] === 'restore') {
      if (method !== 'POST')
        throw StatusError.of('MethodNotAllowed', `snapshots/${name}/restore answers POST`);
      await this.server.restore(snapshot);
      return { code: 200, body: { name, revision: snapshot.revision } };
    }
    throw StatusError.of(
      'NotFound',
      `unknown snapshot action ${JSON.stringify(parts.slice(1).join('/'))}: use restore`,
    );
  }

  private list(): Array<{ name: string; revision: number }> {
    return [...this.held].map(([name, s]) => ({ name, revision: s.revision }));
  }

  private names(): string {
    return this.held.size === 0 ? 'none' : [...this.held.keys()].join(', ');
  }
}
