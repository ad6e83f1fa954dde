/** `/version`: the Kubernetes release this server claims to be. */

/** The Kubernetes version this server claims; kubectl's dispatcher picks its binary by major/minor. */
export const KUBE_GIT_VERSION = 'v1.33.1';

/** The `/version` body (`version.Info`). */
export interface VersionInfo {
  major: string;
  minor: string;
  emulationMajor?: string;
  emulationMinor?: string;
  minCompatibilityMajor?: string;
  minCompatibilityMinor?: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

/**
 * The `/version` body. kubectl's dispatcher runs `kubectl.1.<minor>` for minors 27-33 and needs
 * `major`/`minor` to choose; `kubectl version` needs `gitVersion`. We report 1.33 so that the
 * dispatcher runs the newest binary. `gitCommit`/`buildDate` are this server's own placeholders,
 * not a real Kubernetes build's; the emulation fields are what a 1.33 server adds.
 */
export function versionInfo(): VersionInfo {
  return {
    major: '1',
    minor: '33',
    emulationMajor: '1',
    emulationMinor: '33',
    minCompatibilityMajor: '1',
    minCompatibilityMinor: '32',
    gitVersion: KUBE_GIT_VERSION,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2025-05-15T00:00:00Z',
    goVersion: 'go1.24.2',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}
