/**
 * The controllers `--controllers` names, read as kube-controller-manager
 * reads its flag of that name (cmd/kube-controller-manager/app/options,
 * `GenericControllerManagerConfigurationOptions.Controllers`): a comma list
 * of names, `*` for every default one, `-name` to leave one out. Each
 * controller answers to kube-controller-manager's name
 * (`garbage-collector-controller`, `namespace-controller`,
 * `serviceaccount-controller`, `root-ca-certificate-publisher-controller`) and to its
 * older short name (`garbagecollector`, `namespace`, `serviceaccount`,
 * `root-ca-cert-publisher`); `gc` is watchmark's shorthand.
 */

/** A controller watchmark can run. */
export type ControllerName =
  | 'namespace'
  | 'garbagecollector'
  | 'serviceaccount'
  | 'root-ca-cert-publisher'
  | 'disruption';

/** Every controller, in the order they start (`*`: all of them, as kube-controller-manager's default set has them all). */
export const CONTROLLERS: readonly ControllerName[] = [
  'namespace',
  'garbagecollector',
  'serviceaccount',
  'root-ca-cert-publisher',
  'disruption',
];

const ALIASES: Record<string, ControllerName> = {
  namespace: 'namespace',
  'namespace-controller': 'namespace',
  garbagecollector: 'garbagecollector',
  'garbage-collector-controller': 'garbagecollector',
  gc: 'garbagecollector',
  serviceaccount: 'serviceaccount',
  'serviceaccount-controller': 'serviceaccount',
  'root-ca-cert-publisher': 'root-ca-cert-publisher',
  'root-ca-certificate-publisher-controller': 'root-ca-cert-publisher',
  disruption: 'disruption',
  'disruption-controller': 'disruption',
};

/** A `--controllers` list that names something unknown, or leaves out what cannot be. */
export class ControllerListError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ControllerListError';
  }
}

function resolve(name: string): ControllerName {
  const found = ALIASES[name];
  if (found) return found;
  throw new ControllerListError(
    `unknown controller ${JSON.stringify(name)}: known are namespace (namespace-controller), garbagecollector (gc, garbage-collector-controller), serviceaccount (serviceaccount-controller), root-ca-cert-publisher (root-ca-certificate-publisher-controller), disruption (disruption-controller) and *`,
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
