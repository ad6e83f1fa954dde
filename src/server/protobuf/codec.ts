/**
 * The protobuf codec, loaded once on first use: protobufjs, the parsed upstream schema, and the
 * mappings both ways (request bodies: to-json.ts and strict.ts; answers: from-json.ts). Nothing
 * heavy is imported statically, so importing this module costs nothing at server start-up.
 */

export { PROTOBUF_GROUP_VERSIONS } from './group-versions.js';

/** The loaded codec. */
export type ProtobufCodec = Awaited<ReturnType<typeof load>>;

let codec: Promise<ProtobufCodec> | undefined;

async function load() {
  const [{ default: protobuf }, { PROTO_FILES }, strict, toJson, answer] = await Promise.all([
    import('protobufjs'),
    import('./k8s-schema.generated.js'),
    import('./strict.js'),
    import('./to-json.js'),
    import('./answer.js'),
  ]);
  const root = new protobuf.Root();
  for (const file of PROTO_FILES) protobuf.parse(file, root, { keepCase: true });
  // No resolveAll(): each type resolves its fields on first use (Type#setup, Field#resolve), which
  // saves a third of the one-time cost.
  return {
    protobuf,
    root,
    unknown: root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown'),
    ...strict,
    ...toJson,
    ...answer,
  };
}

/** Parses the schema once, on first use; a failed load is retried on the next call. */
export function loadProtobufCodec(): Promise<ProtobufCodec> {
  codec ??= load().catch((err: unknown) => {
    codec = undefined;
    throw err;
  });
  return codec;
}
