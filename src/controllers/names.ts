/**
 * The controllers `--controllers` names, read as kube-controller-manager
 * reads its flag of that name (cmd/kube-controller-manager/app/options,
 * `GenericControllerManagerConfigurationOptions.Controllers`): a comma list
 * of names, `*` for every default one, `-name` to leave one out. Each
 * controller answers to kube-controller-manager's name
 * (`garbage-collector-controller`, `namespace-controller`, ...) and to its
 * older short name (`garbagecollector`, `namespace`, ...); `gc` is
 * watchmark's shorthand for the garbage collector.
 */

/** A controller watchmark can run, with the names the flag accepts for it. */
interface ControllerNames {
  /** The short name (kube-controller-manager's name before 1.30): `garbagecollector`. */
  readonly name: string;
  /** kube-controller-manager's name (cmd/kube-controller-manager/names): `garbage-collector-controller`. */
  readonly kcm: string;
  /** More names it answers to. */
  readonly aliases?: readonly string[];
}

/** Every controller, in the order they start (`*`: all of them, as kube-controller-manager's default set has them all). */
export const CONTROLLER_NAMES = [
  { name: 'namespace', kcm: 'namespace-controller' },
  { name: 'garbagecollector', kcm: 'garbage-collector-controller', aliases: ['gc'] },
  { name: 'serviceaccount', kcm: 'serviceaccount-controller' },
  { name: 'root-ca-cert-publisher', kcm: 'root-ca-certificate-publisher-controller' },
  { name: 'disruption', kcm: 'disruption-controller' },
  { name: 'endpoint', kcm: 'endpoints-controller' },
  { name: 'endpointslice', kcm: 'endpointslice-controller' },
  { name: 'endpointslicemirroring', kcm: 'endpointslice-mirroring-controller' },
  { name: 'clusterrole-aggregation', kcm: 'clusterrole-aggregation-controller' },
  { name: 'ttl-after-finished', kcm: 'ttl-after-finished-controller' },
  { name: 'job', kcm: 'job-controller' },
  { name: 'cronjob', kcm: 'cronjob-controller' },
  { name: 'service-cidr', kcm: 'service-cidr-controller' },
] as const satisfies readonly ControllerNames[];

/** A controller watchmark can run. */
export type ControllerName = (typeof CONTROLLER_NAMES)[number]['name'];

/** Every controller's short name, in start order. */
export const CONTROLLERS: readonly ControllerName[] = CONTROLLER_NAMES.map((c) => c.name);

/** kube-controller-manager's name of a controller (`disruption` → `disruption-controller`). */
export function kcmName(name: ControllerName): string {
  return CONTROLLER_NAMES.find((c) => c.name === name)!.kcm;
}

const ALIASES = new Map<string, ControllerName>(
  CONTROLLER_NAMES.flatMap((c: ControllerNames) =>
    [c.name, c.kcm, ...(c.aliases ?? [])].map((n) => [n, c.name]),
  ) as [string, ControllerName][],
);

/** A `--controllers` list that names something unknown, or leaves out what cannot be. */
export class ControllerListError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ControllerListError';
  }
}

function resolve(name: string): ControllerName {
  const found = ALIASES.get(name);
  if (found) return found;
  const known = CONTROLLER_NAMES.map(
    (c: ControllerNames) => `${c.name} (${[...(c.aliases ?? []), c.kcm].join(', ')})`,
  );
  throw new ControllerListError(
    `unknown controller ${JSON.stringify(name)}: known are ${known.join(', ')} and *`,
  );
}

/**
 * The controllers a list names (`namespace,gc`, `*`, `*,-gc`), in start
 * order. The namespace controller runs inside the server itself (see
 * README.md), so it is always on: leaving it out (`-namespace`) is refused
 * rather than silently ignored.
 */
export function parseControllerList(text: string): ControllerName[] {
  const on = new Set<ControllerName>();
  const off = new Set<ControllerName>();
  const items = text.split(',').map((s) => s.trim());
  if (items.every((s) => s === ''))
    throw new ControllerListError('empty controller list: name at least one, or *');
  for (const item of items) {
    if (item === '') continue;
    if (item === '*') for (const c of CONTROLLERS) on.add(c);
    else if (item.startsWith('-')) off.add(resolve(item.slice(1)));
    else on.add(resolve(item));
  }
  if (off.has('namespace')) {
    throw new ControllerListError(
      'the namespace controller runs inside the API server and cannot be turned off: drop -namespace',
    );
  }
  return CONTROLLERS.filter((c) => on.has(c) && !off.has(c));
}
