/**
 * Protobuf bodies of every served built-in kind, as Go clients with
 * `ContentType: application/vnd.kubernetes.protobuf` send them (controller-runtime, client-go):
 * each object is encoded here with the same upstream schema (scripts/protobuf/proto/), POSTed,
 * and read back as JSON; it must equal the same object POSTed as JSON. The objects are written in
 * the JSON form Go's encoding/json gives the decoded struct (a nil list without omitempty is null,
 * a template's zero creationTimestamp is null, which the protobuf mapping leaves out as `omitzero`
 * asks), which is what kube-apiserver stores for either body.
 */
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { GO_FIELDS } from '../../../src/server/protobuf/k8s-schema.generated.js';
import { root } from './all-kinds-fixture.js';

describe('the generated Go field table', () => {
  it('covers every field of every message the schema has, but for the hand-mapped types', () => {
    const handMapped =
      /\.(Time|MicroTime|Duration|FieldsV1|RawExtension|IntOrString|Quantity|JSON|JSONSchemaPropsOr\w+)$/;
    const missing: string[] = [];
    const visit = (ns: protobuf.NamespaceBase): void => {
      for (const nested of ns.nestedArray) {
        if (nested instanceof protobuf.Type) {
          const name = nested.fullName.slice(1);
          const known = new Set((GO_FIELDS[name] ?? []).map(([protoName]) => protoName));
          if (!handMapped.test(name))
            for (const f of nested.fieldsArray) if (!known.has(f.name)) missing.push(`${name}.${f.name}`);
        }
        if (nested instanceof protobuf.Namespace) visit(nested);
      }
    };
    visit(root);
    // Types no served kind reaches (meta/v1 group_version.go, watch.go; resource.QuantityValue).
    expect(
      missing.filter(
        (m) =>
          !/meta\.v1\.(Group|Patch|Timestamp|Verbs|WatchEvent)|core\.v1\.List\.|resource\.QuantityValue\./.test(
            m,
          ),
      ),
    ).toEqual([]);
  });
});
