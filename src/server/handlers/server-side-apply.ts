import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { queryFlag } from '../http/query-flag.js';
import { parseYamlBody } from '../http/yaml-body.js';
import { apiVersionOf, type ResourceKind } from '../kinds/types.js';
import { metaOf } from '../storage/meta.js';
import type { UpdateScope } from '../storage/object-storage.js';
import { emptyObjectOf, loadSsa, mergeNodeFor, resetFieldsV1 } from './field-ownership.js';
import { type Query, type ResourceContext, replyObject } from './resource-context.js';
import { loadWriteRules, typedWrite } from './write-input.js';

/**
 * Server-side apply (patch.go `applyPatcher`, `FieldManager.Apply`): the configuration is merged
 * into the live object by the kind's merge schema, fields this manager stopped applying that no
 * one else owns are removed, and ownership is recorded in `metadata.managedFields`; a field
 * another manager owns with another value is a 409 unless `force`. The same request creates
 * (201, applied to the kind's empty object) or updates (200); an apply that changes nothing
 * writes nothing. On the main resource and `status`.
 */
export async function serverSideApply(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  kind: ResourceKind,
  namespace: string | undefined,
  name: string,
  subresource: string | undefined,
  raw: Buffer,
  query: Query,
  isDryRun: boolean,
): Promise<void> {
  // Required before this is called (resource-handler.ts, `ValidatePatchOptions`).
  const manager = query.get('fieldManager') ?? '';
  const force = queryFlag(query.get('force')) === true;
  const applied = (await parseYamlBody(raw)) as KubeObject;
  if (typeof applied !== 'object' || applied === null || Array.isArray(applied)) {
    throw StatusError.of('BadRequest', 'the apply configuration must be an object');
  }
  const meta = metaOf(applied);
  if (meta.name !== undefined && meta.name !== name) {
    throw StatusError.of(
      'BadRequest',
      `the name of the object (${meta.name}) does not match the name on the URL (${name})`,
    );
  }
  // Typed before the merge, as structured-merge-diff types the configuration (write-rules.ts);
  // the merged object is then converted back to the Go type.
  const rules = await loadWriteRules();
  const write = typedWrite(ctx, res, rules.decodeTargetOf(kind), query, 'PatchOptions');
  rules.typeApplyConfiguration(write, applied);
  const scope: UpdateScope = subresource === 'status' ? 'status' : 'main';
  const [ssa] = await loadSsa();
  const reset = resetFieldsV1(kind, scope);
  const empty = emptyObjectOf(kind);
  const apply = (live: KubeObject | undefined) =>
    ssa.applyConfiguration({
      node,
      apiVersion: apiVersionOf(kind),
      kind: kind.kind,
      subresource: scope === 'main' ? undefined : scope,
      ignoredFields: reset === undefined ? undefined : ssa.fieldsV1ToSet(reset),
      empty,
      manager,
      now: new Date(ctx.clock.now()),
      live,
      config: applied,
      force,
    });
  const node = await mergeNodeFor(kind);
  const recorded = { fieldManager: { manager, recorded: true }, dryRun: isDryRun };
  try {
    const updated = await ctx.objects.guaranteedUpdate(kind, namespace, name, scope, recorded, (current) => {
      const result = apply(current);
      if (result.noop) return current;
      const merged = result.object as KubeObject;
      rules.convertApplied(write, merged, applied);
      return merged;
    });
    replyObject(ctx, req, res, 200, kind, updated, query);
  } catch (err) {
    if (!(err instanceof StatusError && err.code === 404 && err.status.details?.name === name)) throw err;
    // patch.go: an apply to a missing object creates it; a subresource has nothing to create.
    if (scope !== 'main') throw err;
    const created = withoutZeroLeftovers(apply(undefined).object as KubeObject, empty, applied);
    metaOf(created).name = name;
    rules.convertApplied(write, created, applied);
    const stored = await ctx.objects.create(kind, namespace, created, recorded);
    replyObject(ctx, req, res, 201, kind, stored, query);
  }
}

/**
 * A create by apply merges the configuration into the kind's empty object (the Go zero values
 * kube-apiserver starts from); the zero values the configuration did not set are no part of the
 * object kube-apiserver stores once its typed object is defaulted, so they go before storage.
 */
function withoutZeroLeftovers(obj: KubeObject, empty: Record<string, unknown>, config: unknown): KubeObject {
  strip(obj, empty, config);
  return obj;
}

function strip(obj: Record<string, unknown>, empty: Record<string, unknown>, config: unknown): void {
  const conf = config !== null && typeof config === 'object' ? (config as Record<string, unknown>) : {};
  for (const [key, zero] of Object.entries(empty)) {
    if (!(key in obj)) continue;
    const value = obj[key];
    if (zero !== null && typeof zero === 'object' && value !== null && typeof value === 'object') {
      strip(value as Record<string, unknown>, zero as Record<string, unknown>, conf[key]);
      if (!(key in conf) && Object.keys(value).length === 0) delete obj[key];
    } else if (!(key in conf) && value === zero) delete obj[key];
  }
}
