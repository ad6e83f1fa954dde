/**
 * Checks one object against a built-in type: the compiled checker of each type, made on the
 * first write that needs it and kept for the life of the process, and a run of it that returns
 * what it found. The object is repaired in place as kube's typed decoding would leave it
 * (unknown fields and null fields removed); what the findings mean for the answer is the
 * handlers' rule (write-rules.ts).
 */
import { BuiltinSchemas } from './builtin-schemas.js';
import { type Check, SchemaCompiler } from './compile.js';
import { type Issue, Walk } from './walk.js';

const schemas = new BuiltinSchemas();
const compiler = new SchemaCompiler(schemas);
const checkers = new Map<string, Check | null>();
// Checks run synchronously, one at a time: one walk serves them all, so a well-typed write
// allocates nothing.
const walk = new Walk();

/** The checker of the built-in type `schemaName` (an OpenAPI name), or undefined when the table has none. */
export function checkerOf(schemaName: string): Check | undefined {
  let check = checkers.get(schemaName);
  if (check === undefined) {
    check = schemas.has(schemaName) ? compiler.compile({ $ref: schemaName }) : null;
    checkers.set(schemaName, check);
  }
  return check ?? undefined;
}

/** Checks and repairs `obj` with `check`; the findings in document order, none when well-typed. */
export function runCheck(check: Check, obj: unknown): readonly Issue[] {
  walk.reset();
  check(obj, walk, undefined, '');
  const issues = walk.issues ?? NONE;
  walk.issues = undefined;
  return issues;
}

const NONE: readonly Issue[] = [];
