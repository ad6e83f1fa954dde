/**
 * What `watchmark serve` starts beside the server before it says ready:
 * the `--crds` and `--objects` seeding, the `--controllers`, and the
 * `--kubeconfig-out` file written whole once all of that is ready.
 */
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { KubeClient } from '../client/client.js';
import { ManifestError } from '../client/kubectl/manifest.js';
import {
  createObjects,
  installCustomResourceDefinitions,
  readManifestSources,
  SeedObjectError,
} from '../client/kubectl/sources.js';
import { type ControllerName, type RunningControllers, startControllers } from '../controllers/index.js';
import type { KubeObject } from '../protocol/events.js';
import { writeKubeconfig } from '../server/index.js';
import { CliError } from './errors.js';

/** The manifests of `--crds` or `--objects`, read before the server starts. */
export async function readSources(flag: string, paths: string[]): Promise<KubeObject[]> {
  try {
    return await readManifestSources(paths);
  } catch (err) {
    if (err instanceof ManifestError) throw new CliError(`${flag} ${err.message}`);
    throw err;
  }
}

/**
 * Installs the definitions (waiting until each is Established and served), then
 * creates the objects; returns the lines that say so.
 */
export async function seed(kubeconfig: string, crds: KubeObject[], objects: KubeObject[]): Promise<string[]> {
  const kube = await KubeClient.load({ kubeconfig, qps: 0 });
  const lines: string[] = [];
  try {
    if (crds.length > 0) {
      try {
        await installCustomResourceDefinitions(kube, crds);
      } catch (err) {
        throw seedError('--crds', err);
      }
      const names = crds.map((c) => c.metadata?.name).join(', ');
      lines.push(`custom resource definitions established: ${names}`);
    }
    if (objects.length > 0) {
      try {
        await createObjects(kube, objects);
      } catch (err) {
        throw seedError('--objects', err);
      }
      lines.push(`objects created: ${objects.length}`);
    }
  } finally {
    await kube.close();
  }
  return lines;
}

/** `--crds FILE: ...` when the error names the file (as a read error does), else `--crds: ...`. */
function seedError(flag: string, err: unknown): CliError {
  const message = (err as Error).message;
  return new CliError(
    err instanceof SeedObjectError && err.source ? `${flag} ${message}` : `${flag}: ${message}`,
  );
}

/** The controllers of `--controllers`, a client like any other (as kube-controller-manager is), synced. */
export async function runControllers(
  kubeconfig: string,
  names: ControllerName[],
  cleanup: Array<() => Promise<unknown>>,
): Promise<RunningControllers> {
  let controllers: RunningControllers | undefined;
  try {
    controllers = await startControllers({
      kubeconfig,
      controllers: names,
      log: (line) => process.stderr.write(`watchmark serve: controllers: ${line}\n`),
    });
    const running = controllers;
    cleanup.push(() => running.close());
    await controllers.synced();
    return controllers;
  } catch (err) {
    throw new CliError(`--controllers: ${(err as Error).message}`);
  }
}

/**
 * Writes `--kubeconfig-out` whole or not at all (a sibling file renamed over it), so a
 * script polling for the file never reads half of it.
 */
export async function publishKubeconfig(path: string, text: string): Promise<void> {
  const partial = join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
  try {
    await writeKubeconfig(partial, text);
    await rename(partial, path);
  } catch (err) {
    await rm(partial, { force: true });
    throw new CliError(`--kubeconfig-out ${path}: ${(err as Error).message}`);
  }
}
