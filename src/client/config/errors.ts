/**
 * The one error type of credential loading. Its message is a single line that
 * names what to fix (a file, a context, a plugin) and never carries a secret:
 * tokens, passwords, keys and plugin output stay out of it by construction.
 */

/** A kubeconfig, in-cluster or exec-plugin problem, described in one line that is safe to log. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * `ENOENT`-style code of a Node filesystem error, or undefined. Used to tell
 * "file is absent" (often an allowed case) from real failures.
 */
export function errnoCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err) {
    const code = (err as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/** Builds the ConfigError for a file that could not be read; the path and errno code only, no contents. */
export function unreadable(what: string, path: string, err: unknown): ConfigError {
  const code = errnoCode(err) ?? (err instanceof Error ? err.message : String(err));
  return new ConfigError(`cannot read ${what} ${path}: ${code}`, { cause: err });
}
