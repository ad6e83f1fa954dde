/**
 * The form a resource request's answers are written in, chosen from its Accept header before the
 * verb runs (handlers/responsewriters/writers.go `WriteObjectNegotiated` and `ErrorNegotiated`
 * negotiate every answer, errors included): JSON as built, or converted to YAML or protobuf. The
 * converters (and protobufjs) are loaded on the first request that needs them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerIn } from '../http/http-io.js';
import { type NegotiatedOutput, negotiateOutput, PROTOBUF_CONTENT_TYPE } from '../http/media-types.js';
import type { ResourceKind } from '../kinds/types.js';
import { allowsTransform } from './partial-metadata.js';

type ProtobufAnswers = typeof import('./protobuf-answer.js');

let protobufModule: Promise<ProtobufAnswers> | undefined;

const isProtobuf = (chosen: NegotiatedOutput | undefined) =>
  chosen !== undefined && `${chosen.type}/${chosen.subtype}` === PROTOBUF_CONTENT_TYPE;

/**
 * Marks `res` for protobuf when the Accept header chose `application/vnd.kubernetes.protobuf`
 * (plain, or a PartialObjectMetadata in it): every answer, errors included, goes out in protobuf.
 * Returns the module for a watch to frame its events with.
 */
export async function answerProtobufIfChosen(
  req: IncomingMessage,
  res: ServerResponse,
  kind: ResourceKind,
): Promise<ProtobufAnswers | undefined> {
  if (!req.headers.accept?.includes(PROTOBUF_CONTENT_TYPE)) return undefined;
  const chosen = negotiateOutput(req.headers.accept, allowsTransform(kind.custom !== undefined));
  if (isProtobuf(chosen)) {
    protobufModule ??= import('./protobuf-answer.js');
    const module = await protobufModule;
    await module.answerInProtobuf(res);
    return module;
  }
  // Errors are negotiated without the endpoint's restrictions (writers.go `ErrorNegotiated`,
  // `DefaultEndpointRestrictions`), and a custom resource's with the built-in codecs
  // (customresource_handler.go): its 404 or 406 is protobuf to a client that asks for plain
  // protobuf first. A built-in kind's 406 (nothing acceptable) stays JSON.
  if (
    kind.custom &&
    isProtobuf(negotiateOutput(req.headers.accept, (_type, _subtype, convert) => !convert))
  ) {
    protobufModule ??= import('./protobuf-answer.js');
    await (await protobufModule).answerInProtobuf(res, { errorsOnly: true });
  }
  return undefined;
}

let yamlModule: Promise<typeof import('./yaml-answer.js')> | undefined;

/** Marks `res` for YAML when the Accept header chose plain `application/yaml`; loads the converter once. */
export async function answerYamlIfChosen(
  req: IncomingMessage,
  res: ServerResponse,
  kind: ResourceKind,
): Promise<void> {
  if (!req.headers.accept?.includes('yaml')) return;
  const chosen = negotiateOutput(req.headers.accept, allowsTransform(kind.custom !== undefined));
  if (!chosen || chosen.convert || chosen.type !== 'application' || chosen.subtype !== 'yaml') return;
  yamlModule ??= import('./yaml-answer.js');
  const { jsonToYaml } = await yamlModule;
  answerIn(res, { convert: jsonToYaml, contentType: 'application/yaml' });
}
