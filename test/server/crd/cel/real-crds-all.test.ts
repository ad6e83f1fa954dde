/**
 * Real CRDs whose CEL rules kube-apiserver accepts are accepted here too
 * (validation.go `ValidateCustomResourceDefinitionOpenAPISchema`, its CEL cost and compile
 * checks): the ones this server once refused (support/fixtures/crds/cel/, sources in its README).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { compileCrdSchemaWithCel } from '../../../../src/server/crd/cel/index.js';
import { validateCustomResourceDefinition } from '../../../../src/server/crd/definition/validation.js';

const dir = fileURLToPath(new URL('../../../../support/fixtures/crds/cel/', import.meta.url));
const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));

interface Crd {
  spec: { versions: Array<{ name: string; storage?: boolean }> };
}

describe('real CRDs with CEL rules are accepted when written', () => {
  it('has the 16 CRDs', () => expect(files).toHaveLength(16));
  it.each(files)('%s', (file) => {
    const crd = parse(readFileSync(`${dir}${file}`, 'utf8')) as Crd;
    const stored = crd.spec.versions.filter((v) => v.storage).map((v) => v.name);
    const errs = validateCustomResourceDefinition({ ...crd, status: { storedVersions: stored } });
    expect(errs.map((e) => `${e.field}: ${e.message}`)).toEqual([]);
  });
});

describe('the rules those CRDs use behave as upstream', () => {
  const check = (rule: string, value: string): string[] =>
    compileCrdSchemaWithCel({
      type: 'object',
      properties: { a: { type: 'string', 'x-kubernetes-validations': [{ rule }] } },
    } as never)
      .validate({ a: value })
      .map((e) => e.message);

  it('isIP takes what netip.ParseAddr takes, less zones and IPv4-mapped addresses', () => {
    expect(check('self.split(",").all(h, isIP(h))', '1.2.3.4,2001:db8::1')).toEqual([]);
    for (const bad of ['01.2.3.4', '::ffff:1.2.3.4', 'fe80::1%eth0', 'example.com'])
      expect(check('isIP(self)', bad)).toEqual([`Invalid value: "${bad}": failed rule: isIP(self)`]);
  });

  it('ip and cidr values', () => {
    expect(check("ip(self).family() == 6 && string(ip(self)) == '2001:db8::1'", '2001:db8:0:0::1')).toEqual(
      [],
    );
    expect(check('ip.isCanonical(self)', '2001:DB8::1')).toEqual([
      'Invalid value: "2001:DB8::1": failed rule: ip.isCanonical(self)',
    ]);
    expect(check('ip(self).isLoopback() && !ip(self).isGlobalUnicast()', '127.0.0.2')).toEqual([]);
    expect(
      check(
        "cidr(self).containsIP('10.1.2.3') && cidr(self).prefixLength() == 8 && cidr(self).masked() == cidr('10.0.0.0/8')",
        '10.1.0.0/8',
      ),
    ).toEqual([]);
    expect(check('isCIDR(self)', '10.0.0.0/33')).toEqual([
      'Invalid value: "10.0.0.0/33": failed rule: isCIDR(self)',
    ]);
  });

  it('an optional compared with null type-checks and is never equal (cel-go types.Equal)', () => {
    expect(check('format.dns1123Label().validate(self) != null', 'abc')).toEqual([]);
    expect(check('format.dns1123Label().validate(self) == null', 'abc')).toEqual([
      'Invalid value: "abc": failed rule: format.dns1123Label().validate(self) == null',
    ]);
  });
});
