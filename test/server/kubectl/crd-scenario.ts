/**
 * What a controller author does with kubectl and a custom resource, step by step, each
 * answer checked as kube-apiserver gives it: apply a definition, wait until established,
 * apply objects, list them with the definition's columns, explain the schema, scale, patch
 * status, select on a selectable field, meet validation errors, and delete the definition.
 * Each kubectl uses a group of its own, so all of them run against one server at once.
 */
import { expect } from 'vitest';
import YAML from 'yaml';
import { widgetCrd } from '../../helpers/widget.js';
import { expectFailure, expectOk, tableRows } from './expect.js';
import type { KubectlSession } from './run.js';

/**
 * The definition of `widgets.<group>`, as YAML: the shared Widget, whose size says more here
 * (`kubectl explain` below reads it).
 */
export function widgetCrdYaml(group: string): string {
  const crd = widgetCrd({ group });
  crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size.description =
    'How big the widget is.';
  return YAML.stringify(crd);
}

/** Runs the scenario with `kubectl` in its namespace, over definitions in `group`. */
export async function runCrdScenario(
  kubectl: KubectlSession,
  group: string,
  file: (name: string, text: string) => Promise<string>,
): Promise<void> {
  const crd = `widgets.${group}`;
  expectOk(
    await kubectl.run(['apply', '-f', await file(`${group}-crd.yaml`, widgetCrdYaml(group))]),
    `customresourcedefinition.apiextensions.k8s.io/${crd} created\n`,
  );
  expectOk(
    await kubectl.run(['wait', '--for', 'condition=established', `crd/${crd}`, '--timeout=20s']),
    `customresourcedefinition.apiextensions.k8s.io/${crd} condition met\n`,
  );
  const objects = `apiVersion: ${group}/v1
kind: Widget
metadata: {name: w1}
spec: {size: 3, replicas: 1}
---
apiVersion: ${group}/v1
kind: Widget
metadata: {name: w2}
spec: {size: 5, color: blue}
`;
  expectOk(
    await kubectl.inNamespace(['apply', '-f', await file(`${group}-widgets.yaml`, objects)]),
    `widget.${group}/w1 created\nwidget.${group}/w2 created\n`,
  );
  const list = await kubectl.inNamespace(['get', crd]);
  expectOk(list, /^NAME\s+SIZE\s+AGE\n/);
  expect(tableRows(list.stdout).map((r) => r.slice(0, 2))).toEqual([
    ['NAME', 'SIZE'],
    ['w1', '3'],
    ['w2', '5'],
  ]);
  const wide = await kubectl.inNamespace(['get', crd, '-o', 'wide']);
  expect(tableRows(wide.stdout).map((r) => r.slice(0, 3))).toEqual([
    ['NAME', 'SIZE', 'COLOR'],
    ['w1', '3', 'red'],
    ['w2', '5', 'blue'],
  ]);
  // The category: `get all` lists the widgets too (with the built-ins of the namespace, if any).
  const all = await kubectl.inNamespace(['get', 'all']);
  expect(all.stdout, all.command).toContain(`widget.${group}/w1`);

  const explain = await kubectl.run(['explain', `${crd}.spec.size`]);
  expectOk(explain, /How big the widget is\./);

  expectOk(await kubectl.inNamespace(['scale', `${crd}/w1`, '--replicas=4']), `widget.${group}/w1 scaled\n`);
  expectOk(await kubectl.inNamespace(['get', `${crd}/w1`, '-o', 'jsonpath={.spec.replicas}']), '4');
  expectOk(
    await kubectl.inNamespace([
      'patch',
      `${crd}/w1`,
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"replicas":4}}',
    ]),
    `widget.${group}/w1 patched\n`,
  );
  expectOk(
    await kubectl.inNamespace([
      'get',
      `${crd}/w1`,
      '-o',
      'jsonpath={.status.replicas} {.metadata.generation}',
    ]),
    '4 2',
  );
  const blue = await kubectl.inNamespace(['get', crd, '--field-selector', 'spec.color=blue', '-o', 'name']);
  expectOk(blue, `widget.${group}/w2\n`);

  const bad = await file(
    `${group}-bad.yaml`,
    `apiVersion: ${group}/v1\nkind: Widget\nmetadata: {name: bad}\nspec: {size: 0, extra: 1}\n`,
  );
  expectFailure(
    await kubectl.inNamespace(['apply', '-f', bad]),
    `Error from server (BadRequest): error when creating "${bad}": Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.extra"\n`,
  );
  expectFailure(
    await kubectl.inNamespace(['create', '-f', bad, '--validate=false']),
    'The Widget "bad" is invalid: spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1\n',
  );

  expectOk(
    await kubectl.run(['delete', 'crd', crd]),
    `customresourcedefinition.apiextensions.k8s.io "${crd}" deleted\n`,
  );
  const gone = await kubectl.run(['get', 'crd', crd, '--ignore-not-found', '-o', 'name']);
  expectOk(gone, '');
}
