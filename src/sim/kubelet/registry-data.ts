/**
 * The simulated registry's built-in catalogue: common public images and the
 * tags users write, so `nginx:1.27` pulls and `nginx:does-not-exist` fails as
 * on a real cluster. Version series are written as ranges and crossed with
 * the variants the images publish (`-alpine`, `-slim`...): a few tags that do
 * not exist upstream may resolve, but a typo of an image or a tag does not.
 * Extend it with `watchmark serve --simulate --sim-images FILE` (see
 * docs/rollout.md) or `SimulationOptions.registry`.
 */

/** `from`..`to` (inclusive) as strings with `prefix`: `range('1.', 25, 27)` is 1.25, 1.26, 1.27. */
function range(prefix: string, from: number, to: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${from + i}`);
}

/** Every version with every variant suffix; a `''` version stands for the variant alone (`alpine`). */
function cross(versions: readonly string[], variants: readonly string[]): string[] {
  return versions
    .flatMap((v) => variants.map((s) => (v === '' ? s.replace(/^-/, '') : `${v}${s}`)))
    .filter((tag) => tag !== '');
}

/** Minor series `major.from`..`major.to`, each with patches .0 to .`patches`. */
function minors(major: number, from: number, to: number, patches: number): string[] {
  return range(`${major}.`, from, to).flatMap((m) => [m, ...range(`${m}.`, 0, patches)]);
}

const nginxVersions = ['', '1', 'stable', 'mainline', ...minors(1, 20, 31, 6)];
const pythonVersions = ['', '3', ...minors(3, 8, 14, 12)];
const nodeVersions = [
  '',
  'lts',
  'current',
  ...range('', 16, 25),
  ...range('18.', 0, 20),
  ...range('20.', 0, 19),
];

/**
 * Repository (as users write it) -> tags. `latest` is listed where the
 * upstream repository publishes it (registry.k8s.io images do not).
 */
export const BUILT_IN_IMAGES: Readonly<Record<string, readonly string[]>> = {
  nginx: ['latest', ...cross(nginxVersions, ['', '-alpine', '-alpine-slim', '-bookworm', '-perl'])],
  'nginxinc/nginx-unprivileged': ['latest', ...cross(nginxVersions, ['', '-alpine'])],
  httpd: ['latest', ...cross(['', '2', '2.4', ...range('2.4.', 50, 66)], ['', '-alpine', '-bookworm'])],
  busybox: [
    'latest',
    ...cross(
      ['', '1', '1.34', '1.35', '1.36', '1.36.0', '1.36.1', '1.37', '1.37.0', 'stable'],
      ['', '-musl', '-glibc', '-uclibc'],
    ),
  ],
  alpine: ['latest', 'edge', '3', ...minors(3, 14, 23, 6)],
  debian: [
    'latest',
    ...cross(['', 'bullseye', 'bookworm', 'trixie', 'stable', '11', '12', '13'], ['', '-slim']),
  ],
  ubuntu: [
    'latest',
    'rolling',
    '20.04',
    '22.04',
    '24.04',
    '24.10',
    '25.04',
    '25.10',
    'focal',
    'jammy',
    'noble',
  ],
  redis: [
    'latest',
    ...cross(
      ['', '6', '6.2', '7', '7.0', '7.2', '7.4', '8', '8.0', '8.2', '8.4'],
      ['', '-alpine', '-bookworm'],
    ),
  ],
  postgres: [
    'latest',
    ...cross(
      ['', ...range('', 12, 18), ...range('16.', 0, 11), ...range('17.', 0, 7), ...range('18.', 0, 1)],
      ['', '-alpine', '-bookworm'],
    ),
  ],
  mysql: ['latest', 'lts', '5.7', '8', '8.0', '8.4', '9', '9.0', '9.1', '9.2', '9.3', '9.4', '9.5'],
  mariadb: ['latest', 'lts', '10', '10.6', '10.11', '11', '11.4', '11.8', '12'],
  mongo: ['latest', '5', '6', '7', '8', '6.0', '7.0', '8.0'],
  memcached: ['latest', ...cross(['', '1', '1.6'], ['', '-alpine'])],
  rabbitmq: [
    'latest',
    ...cross(
      ['', '3', '3.13', '4', '4.0', '4.1', '4.2'],
      ['', '-management', '-alpine', '-management-alpine'],
    ),
  ],
  python: ['latest', ...cross(pythonVersions, ['', '-slim', '-alpine', '-bookworm', '-slim-bookworm'])],
  node: ['latest', ...cross(nodeVersions, ['', '-alpine', '-slim', '-bookworm', '-bookworm-slim'])],
  golang: ['latest', ...cross(['', '1', ...minors(1, 21, 26, 10)], ['', '-alpine', '-bookworm'])],
  'eclipse-temurin': [
    'latest',
    ...cross(['', '17', '21', '25'], ['', '-jre', '-jdk', '-jre-alpine', '-jdk-alpine']),
  ],
  traefik: ['latest', 'v2', 'v2.11', 'v3', 'v3.0', 'v3.1', 'v3.2', 'v3.3', 'v3.4', 'v3.5', 'v3.6'],
  caddy: ['latest', ...cross(['', '2', '2.8', '2.9', '2.10'], ['', '-alpine'])],
  'hello-world': ['latest', 'linux'],
  'curlimages/curl': ['latest', ...range('8.', 0, 17).map((v) => `${v}.0`), '8.11.1', '8.12.1'],
  'bitnami/redis': ['latest', '7.2', '7.4', '8.0'],
  'grafana/grafana': [
    'latest',
    ...range('10.', 0, 4).map((v) => `${v}.0`),
    ...range('11.', 0, 6).map((v) => `${v}.0`),
    '12.0.0',
    '12.1.0',
    '12.2.0',
  ],
  'prom/prometheus': [
    'latest',
    ...range('v2.', 45, 55).map((v) => `${v}.0`),
    ...range('v3.', 0, 7).map((v) => `${v}.0`),
  ],
  'quay.io/prometheus/prometheus': ['latest', ...range('v3.', 0, 7).map((v) => `${v}.0`)],
  'ghcr.io/stefanprodan/podinfo': ['latest', ...range('6.', 0, 9).map((v) => `${v}.0`)],
  'registry.k8s.io/pause': ['3.6', '3.7', '3.8', '3.9', '3.10', '3.10.1'],
  'registry.k8s.io/coredns/coredns': ['v1.10.1', 'v1.11.1', 'v1.11.3', 'v1.11.4', 'v1.12.0', 'v1.12.1'],
  'registry.k8s.io/etcd': ['3.5.9-0', '3.5.12-0', '3.5.15-0', '3.5.16-0', '3.5.21-0', '3.6.4-0'],
  'registry.k8s.io/e2e-test-images/agnhost': ['2.39', '2.43', '2.45', '2.47', '2.52', '2.53'],
  ...Object.fromEntries(
    ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kube-proxy'].map((component) => [
      `registry.k8s.io/${component}`,
      range('', 27, 34).flatMap((minor) => range(`v1.${minor}.`, 0, 12)),
    ]),
  ),
};
