/** What the successful writes said, to compare with the final lists. */
import { expect } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import type { RunningServer } from '../../../../src/server/index.js';
import { REGISTRY } from '../../../../src/server/kinds/served/registry.js';
import type { ResourceKind } from '../../../../src/server/kinds/types.js';
import { type FuzzAnswer, type FuzzRequest, kindPrefix, NAMESPACES } from './paths.js';
import { routed, send } from './requests.js';
/** A DELETE's Status answer (status/response.go-style details of what went). */
export interface DeletedStatus {
  status?: string;
  details?: { name?: string; group?: string; kind?: string; uid?: string };
}

/** What the successful writes said: each object's latest resourceVersion and whether it exists. */
export class ObjectModel {
  readonly objects = new Map<string, { rv: number; exists: boolean }>();
  /** Namespaces deleted (their content goes without answers) and keys no answer pins down. */
  readonly doomedNamespaces = new Set<string>();
  readonly uncertain = new Set<string>();
  writes = 0;

  static key(apiVersion: string, kind: string, namespace: string | undefined, name: string): string {
    return `${apiVersion}/${kind}/${namespace ?? ''}/${name}`;
  }

  observe(r: FuzzRequest, a: FuzzAnswer): void {
    if (a.status < 200 || a.status >= 300 || r.dryRun) return;
    if (r.method !== 'POST' && r.method !== 'PUT' && r.method !== 'PATCH' && r.method !== 'DELETE') return;
    let body: KubeObject & { items?: KubeObject[] };
    try {
      body = JSON.parse(a.text);
    } catch {
      return;
    }
    if (body.kind === 'Scale') {
      const m = body.metadata ?? {};
      const kinds = r.target?.kind ? [r.target.kind] : REGISTRY.filter((k) => k.scale);
      for (const k of kinds) {
        const key = ObjectModel.key(
          k.group ? `${k.group}/${k.version}` : k.version,
          k.kind,
          m.namespace,
          m.name!,
        );
        if (r.target?.kind) this.record(key, Number(m.resourceVersion), true);
        else this.uncertain.add(key);
      }
      return;
    }
    if (body.kind === 'Status') {
      if (r.method === 'DELETE') this.observeDeleted(r, body as DeletedStatus);
      return;
    }
    if (Array.isArray(body.items)) {
      // A deletecollection's list: built-in kinds' items carry no apiVersion/kind, as
      // kube-apiserver's lists; the list's own say what they are. Its items are as they were
      // read, before their deletion (registry/store.go DeleteCollection returns the list it read):
      // one that a finalizer (its own, or the orphan/foreground one a propagation policy adds)
      // keeps is marked at a resourceVersion no answer gives.
      const kind = typeof body.kind === 'string' ? body.kind.replace(/List$/, '') : undefined;
      const policyFinalizer = /Foreground|Orphan|orphanDependents/.test(
        `${r.path} ${r.body?.toString() ?? ''}`,
      );
      for (const item of body.items) {
        const obj = { apiVersion: body.apiVersion, kind, ...item };
        const m = obj.metadata ?? {};
        if (r.method === 'DELETE' && (policyFinalizer || (m.finalizers?.length ?? 0) > 0)) {
          this.uncertain.add(ObjectModel.key(obj.apiVersion!, obj.kind!, m.namespace, m.name!));
        } else this.recordObject(obj, r.method === 'DELETE');
      }
      return;
    }
    if (body.metadata && typeof body.kind === 'string') this.recordObject(body, r.method === 'DELETE');
  }

  /**
   * A DELETE answered with a Status (kube-apiserver's for most kinds once the object is gone;
   * pods, namespaces and services answer the object): it names the resource and the object but
   * carries no resourceVersion, so the deletion is placed at the latest one known for the key
   * (what the deleted object's own would have been).
   */
  private observeDeleted(r: FuzzRequest, status: DeletedStatus): void {
    const d = status.details;
    if (status.status !== 'Success' || !d?.name || !d.kind) return;
    const kind = REGISTRY.find((k) => k.plural === d.kind && k.group === (d.group ?? ''));
    if (!kind) return;
    const apiVersion = kind.group ? `${kind.group}/${kind.version}` : kind.version;
    let namespaces: (string | undefined)[] = [undefined];
    if (kind.namespaced) {
      const m = /\/namespaces\/([^/]+)\//.exec(routed(r.path));
      // A path too mangled to read the namespace from: any of them may have lost the object.
      namespaces = r.target?.namespace !== undefined ? [r.target.namespace] : m ? [m[1]] : NAMESPACES;
    }
    for (const namespace of namespaces) {
      const key = ObjectModel.key(apiVersion, kind.kind, namespace, d.name);
      if (namespaces.length > 1) this.uncertain.add(key);
      else this.record(key, this.objects.get(key)?.rv ?? 0, false);
    }
  }

  recordObject(obj: KubeObject, deleting: boolean): void {
    const m = obj.metadata ?? {};
    if (obj.kind === 'Namespace' && m.deletionTimestamp) this.doomedNamespaces.add(m.name!);
    // Deleted outright, or marked and then freed of its last finalizer: gone.
    const gone =
      (deleting && !m.deletionTimestamp) || (!!m.deletionTimestamp && !(m.finalizers?.length ?? 0));
    this.record(
      ObjectModel.key(obj.apiVersion!, obj.kind!, m.namespace, m.name!),
      Number(m.resourceVersion),
      !gone,
    );
  }

  private record(key: string, rv: number, exists: boolean): void {
    this.writes++;
    const known = this.objects.get(key);
    // Concurrent answers arrive in any order: the highest resourceVersion is the latest state.
    if (!known || rv >= known.rv) this.objects.set(key, { rv, exists });
  }

  excluded(key: string): boolean {
    if (this.uncertain.has(key)) return true;
    const [, , namespace, name] = key.split('/').slice(-4);
    return (
      this.doomedNamespaces.has(namespace) ||
      (key.includes('/Namespace//') && this.doomedNamespaces.has(name))
    );
  }
}

export async function listAll(server: RunningServer, kind: ResourceKind): Promise<KubeObject[]> {
  const a = await send(server, {
    method: 'GET',
    path: `${kindPrefix(kind)}/${kind.plural}`,
    headers: {},
    dryRun: false,
  });
  expect(a.status, a.text).toBe(200);
  const list = JSON.parse(a.text) as {
    kind: string;
    items: KubeObject[];
    metadata: { resourceVersion: string };
  };
  expect(list.kind).toBe(`${kind.kind}List`);
  for (const item of list.items) {
    expect(Number(item.metadata?.resourceVersion)).toBeLessThanOrEqual(Number(list.metadata.resourceVersion));
  }
  // Built-in kinds' list items carry no apiVersion/kind, as kube-apiserver's: the list says them.
  const apiVersion = kind.group ? `${kind.group}/${kind.version}` : kind.version;
  return list.items.map((item) => ({ apiVersion, kind: kind.kind, ...item }));
}
