/**
 * How the bootstrap writers create their objects: each one that is missing (one list of keys per
 * kind and namespace finds them), as kube-apiserver's post-start hooks do, with the ownership the
 * reference recorded for it. The first write of a start goes through the field manager and
 * gives the start its time; the others take their recorded managedFields with that time.
 *
 * Writing a hundred and eighty objects through the whole write path at every start would cost
 * a test cluster more than its start (validation, defaulting and ownership of each): the objects
 * are the same at every start, so the first start in a process keeps each as it was stored,
 * and later ones store those again with a new uid and time (ObjectStorage `createAgain`).
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { objects, str } from '../kinds/access.js';
import { findByKind, kindKey } from '../kinds/served/registry.js';
import type { ResourceKind } from '../kinds/types.js';
import type { ObjectStorage } from '../registry/object-storage.js';
import { againTemplate } from '../registry/stored-again.js';

/** The stored text of each bootstrap object this process wrote (`againTemplate`), by kind, namespace and name. */
const prepared = new Map<string, string>();

/** One start's writes: the start's time, taken from its first write. */
export class BootstrapWrites {
  private time: string | undefined;

  constructor(private readonly storage: ObjectStorage) {}

  /**
   * Creates each of `wanted` (all of one kind: `kind`, or the first object's) that is missing,
   * owned by the managers their recorded managedFields name (only `manager`'s main-resource
   * entries when `onlyManager`); the first write of the start is `manager`'s (default
   * kube-apiserver). Answers what it created.
   */
  async createMissing(
    wanted: readonly KubeObject[],
    opts: { kind?: ResourceKind; manager?: string; onlyManager?: boolean } = {},
  ): Promise<KubeObject[]> {
    if (wanted.length === 0) return [];
    const kind = opts.kind ?? findByKind(wanted[0]!.apiVersion ?? '', wanted[0]!.kind ?? '');
    if (!kind) throw new Error(`bootstrap: ${wanted[0]!.apiVersion} ${wanted[0]!.kind} is not served`);
    const manager = opts.manager ?? 'kube-apiserver';
    const onlyManager = opts.onlyManager ?? false;
    const stored = new Map<string, Set<string>>();
    const created: KubeObject[] = [];
    for (const obj of wanted) {
      const namespace = obj.metadata?.namespace ?? '';
      let names = stored.get(namespace);
      if (!names) {
        names = await this.storage.storedNames(kind, namespace);
        stored.set(namespace, names);
      }
      const name = obj.metadata?.name ?? '';
      if (names.has(name)) continue;
      try {
        created.push(await this.create(kind, namespace || undefined, obj, manager, onlyManager));
      } catch (err) {
        // Another server over the same store wrote it first.
        if (!(err instanceof StatusError && err.status.reason === 'AlreadyExists')) throw err;
      }
    }
    return created;
  }

  private async create(
    kind: ResourceKind,
    namespace: string | undefined,
    obj: KubeObject,
    manager: string,
    onlyManager: boolean,
  ): Promise<KubeObject> {
    const id = `${kindKey(kind)}/${namespace ?? ''}/${obj.metadata?.name}`;
    const again = prepared.get(id);
    if (again !== undefined)
      return this.storage.createAgain(kind, namespace, obj.metadata?.name ?? '', again);
    const copy = structuredClone(obj) as KubeObject;
    const meta = copy.metadata ?? {};
    let out: KubeObject;
    if (this.time === undefined) {
      delete meta.managedFields;
      out = await this.storage.create(kind, namespace, copy, { owned: true, fieldManager: { manager } });
      this.time = str(objects(out.metadata?.managedFields)[0]?.time) || out.metadata?.creationTimestamp;
    } else {
      const own = objects(meta.managedFields).filter(
        (e) => !onlyManager || (e.manager === manager && e.subresource === undefined),
      );
      for (const entry of own) entry.time = this.time;
      meta.managedFields = own as never;
      out = await this.storage.create(kind, namespace, copy, {
        owned: true,
        fieldManager: { manager, recorded: true },
      });
    }
    prepared.set(id, againTemplate(out));
    return out;
  }
}
