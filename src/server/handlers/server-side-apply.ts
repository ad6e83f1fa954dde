import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { queryFlag } from '../http/query-flag.js';
import { parseYamlBody, yamlDuplicateKeys } from '../http/yaml-body.js';
import { conflict, notFound } from '../kinds/api-errors.js';
import { apiVersionOf } from '../kinds/types.js';
import { metaOf } from '../registry/meta.js';
import type { UpdateScope } from '../registry/object-storage.js';
import type { MergeNode } from '../ssa/merge-schema.js';
import { childNode, deepEqual, resolveNode } from '../ssa/typed-node.js';
import { emptyObjectOf, loadSsa, mergeNodeFor, resetFieldsV1 } from './field-ownership.js';
import { reply, replyObject } from './reply.js';
import type { NamedScope } from './request-scope.js';
import { SCALE_API_VERSION, SCALE_TYPE, scaleAdmission, writeScale } from './scale.js';
import { warnTo, writeAdmission } from './write-admission.js';
import { loadWriteRules, typedWrite } from './write-input.js';

/**
 * Server-side apply (patch.go `applyPatcher`, `FieldManager.Apply`): the configuration is merged
 * into the live object by the kind's merge schema, fields this manager stopped applying that no
 * one else owns are removed, and ownership is recorded in `metadata.managedFields`; a field
 * another manager owns with another value is a 409 unless `force`. The same request creates
 * (201, applied to the kind's empty object) or updates (200); an apply that changes nothing
 * writes nothing. On the main resource, `status` and `scale`.
 */
export async function serverSideApply(scope: NamedScope, raw: Buffer, isDryRun: boolean): Promise<void> {
  const { server, kind, name, subresource, query } = scope;
  // Required before this is called (patch.ts, `ValidatePatchOptions`).
  const manager = query.get('fieldManager') ?? '';
  const force = queryFlag(query.get('force')) === true;
  const applied = applyConfigurationOf(await parseYamlBody(raw));
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
  const [ssa] = await loadSsa();
  // The chain checks the configuration's type before it types its fields (versioncheck.go).
  if (subresource === 'scale') ssa.checkAppliedType(applied, SCALE_API_VERSION, 'Scale');
  else ssa.checkAppliedType(applied, apiVersionOf(kind), kind.kind);
  if (subresource === 'scale') {
    const scale = await applyScale(scope, applied, isDryRun, force);
    return reply(scope, 200, scale);
  }
  const write = typedWrite(scope, rules.decodeTargetOf(kind), 'PatchOptions');
  const node = await mergeNodeFor(kind);
  try {
    rules.typeApplyConfiguration(write, applied);
  } catch (err) {
    throw err instanceof StatusError && err.code === 500 ? keyedPaths(err, applied, node) : err;
  }
  const updateScope: UpdateScope =
    subresource === 'status' ||
    subresource === 'approval' ||
    subresource === 'ephemeralcontainers' ||
    subresource === 'resize'
      ? subresource
      : 'main';
  const reset = resetFieldsV1(kind, updateScope);
  const empty = emptyObjectOf(kind);
  // applyPatcher reads the configuration strictly only once the field manager took it (its
  // typed and conflict errors come first): a repeated key is a 400 under Strict, a warning under
  // Warn (patch.go `applyPatchToCurrentObject`, go-yaml v2's `already set in map`).
  const duplicates = write.validation === 'Ignore' ? [] : await yamlDuplicateKeys(raw);
  let strictChecked = false;
  const strictCheck = () => {
    if (strictChecked || duplicates.length === 0) return;
    strictChecked = true;
    if (write.validation === 'Strict') {
      throw StatusError.of(
        'BadRequest',
        `error strict decoding patch: error converting YAML to JSON: yaml: unmarshal errors:\n${duplicates.map((d) => `  ${d}`).join('\n')}`,
      );
    }
    for (const d of duplicates) write.warnings.add(d);
  };
  const apply = (live: KubeObject | undefined) => {
    const result = applyWith(live);
    strictCheck();
    return result;
  };
  const applyWith = (live: KubeObject | undefined) =>
    ssa.applyConfiguration({
      node,
      apiVersion: apiVersionOf(kind),
      kind: kind.kind,
      subresource: updateScope === 'main' ? undefined : updateScope,
      ignoredFields: reset === undefined ? undefined : ssa.fieldsV1ToSet(reset),
      empty,
      manager,
      now: new Date(server.clock.now()),
      live,
      config: applied,
      force,
    });
  const recorded = {
    fieldManager: { manager, recorded: true },
    dryRun: isDryRun,
    admission: writeAdmission(scope, {
      subresource: updateScope === 'main' ? undefined : updateScope,
      dryRun: isDryRun,
    }),
    warn: warnTo(scope),
  };
  try {
    const updated = await server.objects.guaranteedUpdate(
      kind,
      scope.namespace,
      name,
      updateScope,
      recorded,
      (current) => {
        const result = apply(current);
        // The configuration's resourceVersion, merged into the object, is the update's
        // precondition (registry/store.go `Update` compares it with the stored one): 409.
        const wanted = metaOf(applied).resourceVersion;
        if (typeof wanted === 'string' && wanted !== '' && wanted !== current.metadata?.resourceVersion) {
          throw conflict(kind, name);
        }
        if (result.noop) return current;
        const merged = result.object as KubeObject;
        rules.convertApplied(write, merged, applied);
        return merged;
      },
    );
    replyObject(scope, 200, updated);
  } catch (err) {
    if (!(err instanceof StatusError && err.code === 404 && err.status.details?.name === name)) throw err;
    // patch.go: an apply to a missing object creates it; a subresource has nothing to create.
    if (updateScope !== 'main') throw err;
    const created = withoutZeroLeftovers(apply(undefined).object as KubeObject, empty, applied);
    // patch.go `applyPatch` runs rest.go `checkName` on the merged object: a configuration
    // without a name leaves the new object nameless.
    if (!metaOf(created).name) {
      throw StatusError.of(
        'BadRequest',
        `the name of the object (${name} based on URL) was undeterminable: name must be provided`,
      );
    }
    rules.convertApplied(write, created, applied);
    const stored = await server.objects.create(kind, scope.namespace, created, {
      ...recorded,
      user: scope.user,
    });
    replyObject(scope, 201, stored);
  }
}

/**
 * structured-merge-diff names an item of an associative list by its keys, not its index
 * (fieldpath `PathElement.String`: `[name="app"]`, `[port=80,protocol="TCP"]`): the typed
 * error's paths, written with indexes, are rewritten along the configuration and its merge schema.
 */
function keyedPaths(err: StatusError, config: unknown, root: MergeNode): StatusError {
  const message = err.status.message ?? '';
  const rewritten = message.replace(
    /(^|: |\n {2})((?:\.[^.[:\s]+|\[\d+\])+): /g,
    (_m, lead: string, path: string) => {
      let node: MergeNode | undefined = root;
      let value: unknown = config;
      let out = '';
      for (const seg of path.match(/\.[^.[]+|\[\d+\]/g) ?? []) {
        const resolved: ReturnType<typeof resolveNode> | undefined =
          node === undefined ? undefined : resolveNode(node, value);
        if (seg.startsWith('[')) {
          const i = Number(seg.slice(1, -1));
          const item = Array.isArray(value) ? value[i] : undefined;
          if (resolved?.kind === 'list' && resolved.keys.length > 0 && item && typeof item === 'object') {
            const fields = resolved.keys.map((k: string) => {
              const v = (item as Record<string, unknown>)[k] ?? resolved.keyDefaults?.[k];
              return `${k}=${JSON.stringify(v)}`;
            });
            out += `[${fields.join(',')}]`;
          } else out += seg;
          node = resolved?.kind === 'list' ? resolved.items : undefined;
          value = item;
        } else {
          const key = seg.slice(1);
          out += seg;
          node = resolved?.kind === 'map' ? childNode(resolved, key) : undefined;
          value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
        }
      }
      return `${lead}${out}: `;
    },
  );
  if (rewritten === message) return err;
  return new StatusError({ ...err.status, message: rewritten });
}

/**
 * The configuration as patch.go's applyPatcher unmarshals it into a map: an empty body or `null`
 * is an empty configuration (refused next for its missing kind); a list or a scalar cannot
 * unmarshal into a map (encoding/json's words, through sigs.k8s.io/yaml).
 */
function applyConfigurationOf(value: unknown): KubeObject {
  if (value === null || value === undefined) return {} as KubeObject;
  if (typeof value === 'object' && !Array.isArray(value)) return value as KubeObject;
  const what = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
  throw StatusError.of(
    'BadRequest',
    `error decoding patch: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${what} into Go value of type map[string]interface {}`,
  );
}

/**
 * An apply to the Scale view (patch.go `applyPatcher` on ScaleREST): the configuration is an
 * autoscaling/v1 Scale, merged into the live Scale by the Scale's field manager, with conflicts
 * against the managers that own the object's replicas (scale-ownership.ts); only the replicas
 * reach the object. The object must exist: a subresource has nothing to create (404).
 */
async function applyScale(
  scope: NamedScope,
  applied: KubeObject,
  isDryRun: boolean,
  force: boolean,
): Promise<KubeObject> {
  const { kind, name } = scope;
  if (!kind.scale) throw notFound(kind, name);
  const rules = await loadWriteRules();
  const write = typedWrite(scope, rules.SCALE_TARGET, 'PatchOptions');
  rules.typeApplyConfiguration(write, applied);
  const [ssa, builtin] = await loadSsa();
  const node = builtin.builtinMergeNode(SCALE_TYPE);
  const manager = scope.query.get('fieldManager') ?? '';
  const admission = scaleAdmission(scope, isDryRun);
  return writeScale(scope, { dryRun: isDryRun, manager, admission }, (live) => {
    const scaleEntries = live.metadata?.managedFields;
    if (kind.custom && !(Array.isArray(scaleEntries) && scaleEntries.length > 0)) {
      // skipnonapplied.go `Apply` first records the live Scale for `before-first-apply` through
      // the field manager's Update, which converts an empty object of the Scale's kind, made by
      // the custom resource's creater (unstructured), with the custom resource's converter
      // (customresource_handler.go `scopeWithFieldManager` gives the scale scope the CR's
      // Convertor): it refuses autoscaling/v1, and kube-apiserver 1.37 answers this 500.
      ssa.checkAppliedType(applied, SCALE_API_VERSION, 'Scale');
      throw crScaleConversionError(
        'failed to create manager for existing fields: failed to convert live object (/; autoscaling/v1, Kind=Scale) to proper version',
      );
    }
    const result = ssa.applyConfiguration({
      node,
      apiVersion: SCALE_API_VERSION,
      kind: 'Scale',
      subresource: 'scale',
      manager,
      now: new Date(scope.server.clock.now()),
      live,
      config: applied,
      force,
    });
    const merged = (result.noop ? live : result.object) as KubeObject;
    if (kind.custom && !sameScaleValue(merged, live)) {
      // structuredmerge.go `Apply`: a merge that changed the Scale is converted back with the
      // same custom resource converter, which refuses autoscaling/v1 (an unchanged one is not
      // converted: smd returns no new object). Named by the configuration's namespace/name.
      const m = applied.metadata ?? {};
      throw crScaleConversionError(
        `failed to convert new object (${m.namespace ?? ''}/${m.name ?? ''}; autoscaling/v1, Kind=Scale) to proper version`,
      );
    }
    rules.convertApplied(write, merged, applied);
    return merged;
  });
}

/**
 * The plain (reasonless) 500 of a Scale that the custom resource converter (apiextensions-apiserver
 * pkg/apiserver/conversion/converter.go `crConverter.ConvertToVersion`) was asked to convert.
 */
function crScaleConversionError(context: string): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${context}: request to convert CR to an invalid group/version: autoscaling/v1`,
    code: 500,
  });
}

/** Whether two Scales hold the same value, their managedFields aside. */
function sameScaleValue(a: KubeObject, b: KubeObject): boolean {
  const bare = (o: KubeObject) => {
    const { managedFields: _, ...metadata } = o.metadata ?? {};
    return { ...o, metadata };
  };
  return deepEqual(bare(a), bare(b));
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
