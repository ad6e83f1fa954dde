/**
 * kube-apiserver's API Priority and Fairness configuration consumer, as far as it writes
 * (k8s.io/apiserver pkg/util/flowcontrol/apf_controller.go): every FlowSchema carries a
 * `Dangling` condition saying whether the PriorityLevelConfiguration it names exists
 * (`presyncFlowSchemaStatus`): False, reason `Found`, or True, reason `NotFound`, each with its
 * message. A condition already saying so is left alone; else the new one, stamped now, is applied
 * to the schema's status as `api-priority-and-fairness-config-consumer-v1` with force
 * (`apply`, `toFlowSchemaApplyConfiguration`). watchmark does no request queuing, so nothing else
 * of the consumer (the dispatching state it digests) has a visible effect.
 *
 * Upstream digests every object on each change; here a FlowSchema is queued when it changes, and
 * the schemas naming a priority level when that level comes or goes. The update throttle
 * (`shouldDelayUpdate`, for controllers fighting over a condition) is not needed with one
 * server's writes and is left out.
 */
import type { Clock } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import type { Cacher } from '../cache/cacher.js';
import { objects as entries, rec, str } from '../kinds/access.js';
import { findByKind } from '../kinds/served/registry.js';
import type { ResourceKind } from '../kinds/types.js';
import type { ObjectStorage } from '../registry/object-storage.js';
import { WorkLoop } from './work-loop.js';

/** The consumer's field manager (apf_filter.go `ConfigConsumerAsFieldManager`). */
export const APF_CONSUMER = 'api-priority-and-fairness-config-consumer-v1';

const GROUP_VERSION = 'flowcontrol.apiserver.k8s.io/v1';

/** A FlowSchema condition as stored (FlowSchemaCondition's field order). */
export interface DanglingCondition {
  type: 'Dangling';
  status: 'True' | 'False';
  lastTransitionTime?: string;
  reason: 'Found' | 'NotFound';
  message: string;
}

/** The Dangling condition a schema naming `level` should carry (`presyncFlowSchemaStatus`). */
export function danglingCondition(level: string, found: boolean): DanglingCondition {
  return found
    ? {
        type: 'Dangling',
        status: 'False',
        reason: 'Found',
        message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(level)} and it exists`,
      }
    : {
        type: 'Dangling',
        status: 'True',
        reason: 'NotFound',
        message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(level)} but there is no such object`,
      };
}

const rfc3339 = (ms: number): string =>
  new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** The level a schema names (`spec.priorityLevelConfiguration.name`). */
const levelOf = (fs: KubeObject): string => str(rec(rec(fs.spec).priorityLevelConfiguration).name);

/**
 * `fs` with `condition` applied to its status by the consumer: the Dangling entry of the
 * conditions (a list keyed by type) replaced in place or appended, the consumer's managedFields
 * entry for it recorded, sorted as the field manager sorts them (managedfields.go
 * `sortEncodedManagedFields`: operation, then time, then manager, then subresource).
 */
export function withDangling(fs: KubeObject, condition: DanglingCondition, now: number): KubeObject {
  const time = rfc3339(now);
  const stamped = { ...condition, lastTransitionTime: time };
  const ordered = {
    type: stamped.type,
    status: stamped.status,
    lastTransitionTime: stamped.lastTransitionTime,
    reason: stamped.reason,
    message: stamped.message,
  };
  const conditions = entries(rec(fs.status).conditions);
  const at = conditions.findIndex((c) => c.type === 'Dangling');
  const next = at < 0 ? [...conditions, ordered] : conditions.map((c, i) => (i === at ? ordered : c));
  const entry = {
    manager: APF_CONSUMER,
    operation: 'Apply',
    apiVersion: GROUP_VERSION,
    time,
    fieldsType: 'FieldsV1',
    fieldsV1: {
      'f:status': {
        'f:conditions': {
          'k:{"type":"Dangling"}': {
            '.': {},
            'f:lastTransitionTime': {},
            'f:message': {},
            'f:reason': {},
            'f:status': {},
            'f:type': {},
          },
        },
      },
    },
    subresource: 'status',
  };
  const others = entries(fs.metadata?.managedFields).filter(
    (e) =>
      !(str(e.manager) === APF_CONSUMER && str(e.operation) === 'Apply' && str(e.subresource) === 'status'),
  );
  const managedFields = [...others, entry].sort(byFieldManagerOrder);
  return {
    ...fs,
    metadata: { ...fs.metadata, managedFields: managedFields as never },
    status: { ...rec(fs.status), conditions: next },
  };
}

function byFieldManagerOrder(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  const seconds = (e: Record<string, unknown>) => {
    const t = str(e.time);
    return t ? Math.floor(Date.parse(t) / 1000) : 0;
  };
  return (
    cmp(str(a.operation), str(b.operation)) ||
    seconds(a) - seconds(b) ||
    cmp(str(a.manager), str(b.manager)) ||
    cmp(str(a.subresource), str(b.subresource))
  );
}

/** What the consumer works with. */
export interface ApfConfigConsumerDeps {
  objects: ObjectStorage;
  cacher: Cacher;
  clock: Clock;
  log: (message: string) => void;
}

/** Keeps every FlowSchema's Dangling condition true to the priority levels stored. */
export class ApfConfigConsumer {
  private readonly schemas: ResourceKind | undefined = findByKind(GROUP_VERSION, 'FlowSchema');
  private readonly levels: ResourceKind | undefined = findByKind(GROUP_VERSION, 'PriorityLevelConfiguration');
  private readonly loop: WorkLoop;
  private readonly unsubscribe: Array<() => void> = [];

  constructor(private readonly deps: ApfConfigConsumerDeps) {
    this.loop = new WorkLoop({
      name: 'APF configuration consumer',
      clock: deps.clock,
      sync: (name) => this.sync(name),
      log: deps.log,
    });
  }

  /** Follows the schemas and levels from now on, every schema stored now queued. */
  start(): void {
    const { schemas, levels } = this;
    if (!schemas || !levels) return;
    this.unsubscribe.push(
      this.deps.cacher.listen((kind, event) => {
        if (kind === schemas) this.loop.add(str(event.object.metadata?.name));
        else if (kind === levels && event.type !== 'MODIFIED')
          this.enqueueNaming(str(event.object.metadata?.name));
      }),
      this.deps.cacher.onFill(() => this.enqueueAll()),
    );
    this.enqueueAll();
    this.loop.start();
  }

  /** Resolves when nothing is queued or under way. */
  idle(): Promise<void> {
    return this.loop.idle();
  }

  /** Stops following; a write under way finishes. */
  async stop(): Promise<void> {
    for (const u of this.unsubscribe.splice(0)) u();
    await this.loop.stop();
  }

  private cachedSchemas(): KubeObject[] {
    return this.schemas
      ? [...this.deps.cacher.cacheFor(this.schemas).objects.values()].map((c) => c.object)
      : [];
  }

  private enqueueAll(): void {
    for (const fs of this.cachedSchemas()) this.loop.add(str(fs.metadata?.name));
  }

  private enqueueNaming(level: string): void {
    for (const fs of this.cachedSchemas()) if (levelOf(fs) === level) this.loop.add(str(fs.metadata?.name));
  }

  private async sync(name: string): Promise<undefined> {
    const schemas = this.schemas!;
    const levels = this.levels!;
    const cached = this.deps.cacher.cached(schemas, undefined, name);
    if (!cached || cached.metadata?.deletionTimestamp) return undefined;
    try {
      await this.deps.objects.guaranteedUpdate(
        schemas,
        undefined,
        name,
        'status',
        { fieldManager: { manager: APF_CONSUMER, recorded: true } },
        (current) => {
          const level = levelOf(current);
          const want = danglingCondition(
            level,
            this.deps.cacher.cached(levels, undefined, level) !== undefined,
          );
          const have = entries(rec(current.status).conditions).find((c) => c.type === 'Dangling');
          if (
            have &&
            have.status === want.status &&
            have.reason === want.reason &&
            have.message === want.message
          )
            return current;
          return withDangling(current, want, this.deps.clock.now());
        },
      );
    } catch (err) {
      // Deleted meanwhile: its DELETED event needs nothing more (`digestConfigObjects`).
      if (err instanceof StatusError && err.code === 404) return undefined;
      throw err;
    }
    return undefined;
  }
}
