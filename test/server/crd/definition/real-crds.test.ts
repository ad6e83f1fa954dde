/**
 * Real CRDs of widely used projects (support/fixtures/crds/, Apache-2.0, sources in its README) through
 * watchmark's CRD rules: each installs (`validateCustomResourceDefinition` finds nothing, as
 * kube-apiserver, where all of them install, finds nothing), each served version compiles, each
 * example object from the project's docs or samples is kept whole and valid, and broken objects
 * are refused with kube-apiserver's paths and words. The words are kube-openapi's
 * (pkg/validation/errors/schema.go, e.g. `tooShortMessage` "%s in %s should be at least %d chars
 * long"; pkg/validation/validate/schema_messages.go for oneOf/anyOf) turned into field errors by
 * apiextensions-apiserver pkg/apiserver/validation/validation.go `kubeOpenAPIResultToFieldErrors`
 * with a nil root path (pkg/registry/customresource/strategy.go calls `ValidateCustomResource(nil,
 * ...)`), and apimachinery pkg/util/validation/field/errors.go `ErrorBody`.
 *
 * kube-openapi visits an object's properties in Go map order (object_validator.go `for pName,
 * pSchema := range o.Properties`), so errors of sibling fields come in any order upstream: cases
 * with several errors compare them sorted. CEL rules (`x-kubernetes-validations`) are not run here
 * (no evaluator is passed); CEL_RULE_COUNTS records how many each CRD carries.
 */
import { describe, expect, it } from 'vitest';
import {
  validateCustomResourceDefinition,
  validateCustomResourceDefinitionUpdate,
} from '../../../../src/server/crd/definition/validation.js';
import { loadExampleObjects, REAL_CRDS } from '../../../../support/fixtures/crds/index.js';
import { REFUSALS } from '../../../../support/fixtures/crds/refusals.js';
import { CEL_RULE_COUNTS, crdOf, nodes, schemaOf, texts, versionOf } from './real-crds-fixture.js';

describe.each(REAL_CRDS)('$kind ($file)', (entry) => {
  const crd = crdOf(entry.file);
  const served = crd.spec.versions.filter((v) => v.served);

  it('installs: validateCustomResourceDefinition finds nothing to refuse', () => {
    expect(crd.metadata.name).toBe(`${entry.plural}.${entry.group}`);
    expect(crd.spec.names).toMatchObject({ kind: entry.kind, plural: entry.plural });
    expect(validateCustomResourceDefinition(crd)).toEqual([]);
    // Re-applying the same manifest (kubectl apply of an installed CRD) is an update that changes nothing.
    expect(validateCustomResourceDefinitionUpdate(structuredClone(crd), crd)).toEqual([]);
  });

  it('compiles every served version: each pattern translated, each CEL rule kept', () => {
    const counts: Record<string, number> = {};
    for (const v of served) {
      const all = [...nodes(schemaOf(entry.file, v.name).structural)];
      const untranslated = all.flatMap((n) => (n.pattern && 'error' in n.pattern ? [n.pattern] : []));
      expect(untranslated).toEqual([]);
      counts[v.name] = all.reduce((sum, n) => sum + n.celRules.length, 0);
    }
    expect(counts).toEqual(CEL_RULE_COUNTS.find((c) => c.file === entry.file)?.rules);
  });

  it('keeps every example whole and valid, before and after defaulting', () => {
    const objects = entry.examples.flatMap(loadExampleObjects);
    expect(objects.length).toBeGreaterThanOrEqual(entry.examples.length);
    for (const obj of objects) {
      expect(obj).toMatchObject({ kind: entry.kind });
      expect(String(obj.apiVersion).split('/')[0]).toBe(entry.group);
      const schema = schemaOf(entry.file, versionOf(obj));
      const copy = structuredClone(obj);
      expect(schema.prune(copy)).toEqual([]);
      expect(copy).toEqual(obj);
      expect(texts(schema, copy)).toEqual([]);
      schema.default(copy);
      expect(schema.prune(copy)).toEqual([]);
      expect(texts(schema, copy)).toEqual([]);
    }
  });
});

describe('broken objects are refused with kube-apiserver paths and messages', () => {
  it.each(REFUSALS)('$file: $name', ({ file, example, change, errors }) => {
    const obj = structuredClone(loadExampleObjects(example)[0]!);
    change(obj as Record<string, any>);
    const schema = schemaOf(file, versionOf(obj));
    expect(schema.prune(obj)).toEqual([]);
    expect(texts(schema, obj).sort()).toEqual([...errors].sort());
  });
});

describe('an example the docs get wrong', () => {
  it("cert-manager's name-constraints example: emailAddress (the field is emailAddresses) is pruned", () => {
    const obj = loadExampleObjects('certificates-example-name-constraints.yaml')[0]!;
    const schema = schemaOf('cert-manager.io_certificates.yaml', 'v1');
    expect(schema.prune(obj)).toEqual(['spec.nameConstraints.permitted.emailAddress']);
    expect(texts(schema, obj)).toEqual([]);
  });
});
