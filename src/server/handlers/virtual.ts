/**
 * The resources kube-apiserver answers and never stores (a `rest.Storage` of their own rather
 * than the generic registry: BindingREST, componentstatus `REST`, the token and access reviews'
 * `REST`): the kind's {@link VirtualResource} answers, and this handler gives it what
 * k8s.io/apiserver's handlers give any storage. A create goes as handlers/create.go
 * `createHandler` takes it: the options checked, the body decoded into the kind's type
 * (fieldValidation's unknown fields), the field manager run on it, then the storage's `Create`;
 * its answer is 201 unless it is a Status of another code. A get and a list answer as
 * handlers/get.go does, in the negotiated form (JSON, YAML, protobuf, a Table).
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { WarningRecorder } from '../http/warnings.js';
import {
  apiVersionOf,
  listKindOf,
  type ResourceKind,
  type VirtualAnswer,
  type VirtualRequest,
  type VirtualServices,
} from '../kinds/types.js';
import { emptyObjectOf, loadSsa, mergeNodeFor } from './field-ownership.js';
import { filterFromQuery } from './filter.js';
import { partialListAnswer, partialObjectAnswer, type ReadOutput } from './partial-metadata.js';
import { reply, replyObject } from './reply.js';
import type { RequestScope } from './request-scope.js';
import { toTable } from './table.js';
import { tableRequest } from './table-response.js';
import { dryRun, goKindOf, loadWriteRules, readObject, typedWrite, writeManager } from './write-input.js';

/** The services a virtual resource's answers use: the server hands them in. */
export type VirtualServicesOf = (scope: RequestScope) => VirtualServices;

/** The request as a virtual resource sees it. */
export function virtualRequest(
  scope: RequestScope,
  services: VirtualServices,
  isDryRun = false,
): VirtualRequest {
  return {
    namespace: scope.namespace,
    user: scope.user,
    dryRun: isDryRun,
    now: scope.server.clock.now(),
    services,
  };
}

/** Serves a create, get or list of a virtual resource (the verb was checked against the reference's). */
export async function serveVirtual(
  scope: RequestScope,
  output: ReadOutput,
  services: VirtualServices,
): Promise<void> {
  const virtual = scope.kind.virtual!;
  if (virtual.deprecationWarning) new WarningRecorder(scope.res).add(virtual.deprecationWarning);
  if (scope.method === 'POST' && virtual.create) {
    // A storage with no Table convertor answers only its own type (create.go negotiates it first).
    if (scope.kind.columns.length === 0 && tableRequest(scope.req, scope.query)) {
      throw StatusError.of(
        'NotAcceptable',
        'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      );
    }
    const body = await decodeCreate(scope, scope.kind);
    const request = virtualRequest(scope, services, dryRun(scope.query));
    if (virtual.managedFields) await recordCreator(scope, scope.kind, body);
    return replyAnswer(scope, await virtual.create(request, body));
  }
  if (scope.method === 'GET' && scope.name !== undefined && virtual.get) {
    const object = await virtual.get(virtualRequest(scope, services), scope.name);
    if (output && output.as !== 'Table')
      return reply(scope, 200, partialObjectAnswer(scope.kind, object, output));
    return replyObject(scope, 200, object);
  }
  if (scope.method === 'GET' && scope.name === undefined && virtual.list) {
    const items = (await virtual.list(virtualRequest(scope, services))).filter(matches(scope));
    return replyList(scope, output, items);
  }
  throw StatusError.of(
    'MethodNotAllowed',
    'the server does not allow this method on the requested resource',
    {},
  );
}

/**
 * createHandler's reading of the body: the options validated before it is looked at, then
 * decoded into `target`'s type (`Pod in version "v1" cannot be handled as a ...`, strict errors
 * under fieldValidation=Strict, warnings under Warn). A namespaced body naming another namespace
 * is refused as rest.go `FillObjectMetaSystemFields`' caller refuses it.
 */
export async function decodeCreate(scope: RequestScope, target: ResourceKind): Promise<KubeObject> {
  const body = await readObject(scope.req, 'merge', goKindOf(target));
  const rules = await loadWriteRules();
  rules.decodeBody(typedWrite(scope, rules.decodeTargetOf(target), 'CreateOptions'), body);
  const meta = body.metadata;
  if (scope.kind.namespaced && meta?.namespace && scope.namespace && meta.namespace !== scope.namespace) {
    throw StatusError.of(
      'BadRequest',
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  }
  body.apiVersion = apiVersionOf(target);
  body.kind = target.kind;
  return body;
}

/**
 * fieldmanager.go `UpdateNoErrors` as create.go runs it on the decoded object before the
 * storage's Create: the request's fields are the manager's (`subresource` names a subresource's
 * entry: `token`; `emptySpec` the spec's zero value). The review's answer is that object, so
 * the record is in it.
 */
export async function recordCreator(
  scope: RequestScope,
  target: ResourceKind,
  body: KubeObject,
  subresource?: string,
  emptySpec: Record<string, unknown> = {},
): Promise<void> {
  const [ssa] = await loadSsa();
  const result = ssa.recordUpdate({
    node: await mergeNodeFor(target),
    apiVersion: apiVersionOf(target),
    kind: target.kind,
    subresource,
    // The Go type's zero value as JSON: the fields without omitempty are there, null.
    empty: { ...emptyObjectOf(target), spec: emptySpec },
    manager: writeManager(scope).manager,
    now: new Date(scope.server.clock.now()),
    live: undefined,
    next: body,
  });
  const meta = { ...(body.metadata ?? {}) };
  if (result.managedFields === undefined) delete meta.managedFields;
  else
    meta.managedFields = result.managedFields as unknown as NonNullable<
      KubeObject['metadata']
    >['managedFields'];
  body.metadata = meta;
}

/** A create's answer: the object with its code, a Status as it is. */
function replyAnswer(scope: RequestScope, answer: VirtualAnswer): void {
  if (answer.body.kind === 'Status') reply(scope, answer.code, answer.body);
  else replyObject(scope, answer.code, answer.body);
}

/** The list predicate of componentstatus `REST.List`: labels and the metadata's fields. */
function matches(scope: RequestScope): (obj: KubeObject) => boolean {
  const filter = filterFromQuery(scope.kind, scope.namespace, scope.query);
  return (obj) => filter.matches(obj);
}

/** A list answered whole: no resourceVersion, no continue (nothing is stored). */
function replyList(scope: RequestScope, output: ReadOutput, items: KubeObject[]): void {
  const { kind } = scope;
  const table = tableRequest(scope.req, scope.query);
  let body: unknown;
  if (table) {
    const now = scope.server.clock.now();
    body = toTable(kind, items, { now, version: table.version, includeObject: table.include, listMeta: {} });
  } else if (output) {
    body = partialListAnswer(kind, { items, resourceVersion: '' } as never, output);
  } else {
    body = { kind: listKindOf(kind), apiVersion: apiVersionOf(kind), metadata: {}, items };
  }
  reply(scope, 200, body);
}
