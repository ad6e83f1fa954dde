import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../../protocol/events.js';
import { applyStrategicMergePatch } from '../../protocol/patch/index.js';
import { StatusError } from '../../protocol/status.js';
import { parseYamlBody } from '../http/yaml-body.js';
import type { ResourceKind } from '../kinds/types.js';
import { jsonEqual, metaOf } from '../storage/meta.js';
import { type Query, type ResourceContext, replyObject } from './resource-context.js';
import { loadWriteRules, typedWrite } from './write-input.js';

/**
 * Server-side apply, as far as kubectl's `apply --server-side` needs: the same
 * request creates (201) or updates (200). Managed fields are not tracked: the
 * applied configuration is merged onto the live object strategically.
 */
export async function serverSideApply(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  kind: ResourceKind,
  namespace: string | undefined,
  name: string,
  raw: Buffer,
  query: Query,
  isDryRun: boolean,
): Promise<void> {
  if (!query.get('fieldManager')) {
    throw StatusError.of('BadRequest', 'PATCH, fieldManager: Required value: is required for apply patch');
  }
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
  try {
    const updated = await ctx.objects.guaranteedUpdate(
      kind,
      namespace,
      name,
      'main',
      { dryRun: isDryRun },
      (current) => {
        const merged = applyStrategicMergePatch(current, applied, kind.kind) as KubeObject;
        rules.convertApplied(write, merged, applied);
        return jsonEqual(merged, current) ? current : merged;
      },
    );
    replyObject(ctx, req, res, 200, kind, updated, query);
  } catch (err) {
    if (!(err instanceof StatusError && err.code === 404 && err.status.details?.name === name)) throw err;
    meta.name = name;
    rules.convertApplied(write, applied, applied);
    const created = await ctx.objects.create(kind, namespace, applied, { dryRun: isDryRun });
    replyObject(ctx, req, res, 201, kind, created, query);
  }
}
