import { InvalidArgumentError } from 'commander';
import { DurationError, parseDuration } from '../protocol/duration.js';

/** A failure the CLI reports as one line and a non-zero exit, without a stack trace. */
export class CliError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/**
 * A failure as kubectl prints it: `error: ...`, except the API's own answers,
 * which kubectl prints as `Error from server (...)`. The first line says what
 * went wrong; a message of several lines (a YAML error's excerpt) keeps the rest.
 */
export function errorLine(message: string): string {
  const text = message.trim() || 'unknown error';
  return /^Error from server\b/.test(text) ? text : `error: ${text}`;
}

/** commander argument parser for Go-style durations (`500ms`, `60s`, `5m`). */
export function durationArg(value: string): number {
  try {
    return parseDuration(value);
  } catch (err) {
    if (err instanceof DurationError) throw new InvalidArgumentError(err.message);
    throw err;
  }
}

/** commander argument parser for a port number. */
export function portArg(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535)
    throw new InvalidArgumentError(`invalid port ${JSON.stringify(value)}: want 0-65535`);
  return n;
}

/** commander argument parser for a positive integer. */
export function positiveIntArg(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1)
    throw new InvalidArgumentError(`invalid number ${JSON.stringify(value)}: want a positive integer`);
  return n;
}
