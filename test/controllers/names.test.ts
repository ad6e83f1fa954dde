/** `--controllers` lists, read as kube-controller-manager reads its flag. */
import { describe, expect, it } from 'vitest';
import { ControllerListError, parseControllerList } from '../../src/controllers/index.js';

describe('parseControllerList', () => {
  it.each([
    ['namespace,gc', ['namespace', 'garbagecollector']],
    ['gc,namespace', ['namespace', 'garbagecollector']],
    ['garbage-collector-controller', ['garbagecollector']],
    ['garbagecollector', ['garbagecollector']],
    ['namespace-controller', ['namespace']],
    ['*', ['namespace', 'garbagecollector', 'serviceaccount', 'root-ca-cert-publisher', 'disruption']],
    ['*,-gc', ['namespace', 'serviceaccount', 'root-ca-cert-publisher', 'disruption']],
    ['disruption-controller', ['disruption']],
    [
      'serviceaccount-controller,root-ca-certificate-publisher-controller',
      ['serviceaccount', 'root-ca-cert-publisher'],
    ],
    [' namespace , gc ', ['namespace', 'garbagecollector']],
  ])('%s', (text, expected) => {
    expect(parseControllerList(text)).toEqual(expected);
  });

  it.each([
    [
      'gc,foo',
      'unknown controller "foo": known are namespace (namespace-controller), garbagecollector (gc, garbage-collector-controller), serviceaccount (serviceaccount-controller), root-ca-cert-publisher (root-ca-certificate-publisher-controller), disruption (disruption-controller) and *',
    ],
    [
      '-namespace',
      'the namespace controller runs inside the API server and cannot be turned off: drop -namespace',
    ],
    ['', 'empty controller list: name at least one, or *'],
  ])('refuses %j', (text, message) => {
    expect(() => parseControllerList(text)).toThrow(new ControllerListError(message));
  });
});
