/** `--controllers` lists, read as kube-controller-manager reads its flag. */
import { describe, expect, it } from 'vitest';
import { ControllerListError, parseControllerList } from '../../src/controllers/index.js';
import { CONTROLLER_NAMES } from '../../src/controllers/names.js';

describe('parseControllerList', () => {
  it.each([
    ['namespace,gc', ['namespace', 'garbagecollector']],
    ['gc,namespace', ['namespace', 'garbagecollector']],
    ['garbage-collector-controller', ['garbagecollector']],
    ['garbagecollector', ['garbagecollector']],
    ['namespace-controller', ['namespace']],
    [
      '*',
      [
        'namespace',
        'garbagecollector',
        'serviceaccount',
        'root-ca-cert-publisher',
        'disruption',
        'endpoint',
        'endpointslice',
        'endpointslicemirroring',
        'clusterrole-aggregation',
        'ttl-after-finished',
        'job',
        'cronjob',
        'service-cidr',
      ],
    ],
    [
      '*,-gc',
      [
        'namespace',
        'serviceaccount',
        'root-ca-cert-publisher',
        'disruption',
        'endpoint',
        'endpointslice',
        'endpointslicemirroring',
        'clusterrole-aggregation',
        'ttl-after-finished',
        'job',
        'cronjob',
        'service-cidr',
      ],
    ],
    ['clusterrole-aggregation-controller', ['clusterrole-aggregation']],
    ['ttl-after-finished-controller', ['ttl-after-finished']],
    ['disruption-controller', ['disruption']],
    ['endpoints-controller,endpointslice-controller', ['endpoint', 'endpointslice']],
    ['endpointslice-mirroring-controller', ['endpointslicemirroring']],
    ['job-controller,cronjob-controller', ['job', 'cronjob']],
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
      '-namespace',
      'the namespace controller runs inside the API server and cannot be turned off: drop -namespace',
    ],
    ['', 'empty controller list: name at least one, or *'],
  ])('refuses %j', (text, message) => {
    expect(() => parseControllerList(text)).toThrow(new ControllerListError(message));
  });

  it('names every controller it knows when one is unknown', () => {
    const message = `unknown controller "foo": known are ${CONTROLLER_NAMES.map(
      (c) => `${c.name} (${['aliases' in c ? c.aliases : [], c.kcm].flat().join(', ')})`,
    ).join(', ')} and *`;
    expect(message).toContain('garbagecollector (gc, garbage-collector-controller), serviceaccount');
    expect(() => parseControllerList('gc,foo')).toThrow(new ControllerListError(message));
  });
});
