/**
 * The part of cel-go's type check that the library cannot do with `self` declared `dyn`:
 * selecting a field the schema does not declare. Upstream types `self` by the schema
 * (model/schemas.go `SchemaDeclType`), so `self.replicas` on an object without that property
 * fails to compile with `undefined field 'replicas'`; so it does here. The resource root and
 * embedded resources also have `apiVersion`, `kind` and a `metadata` with only `name` and
 * `generateName` (`WithTypeAndObjectMeta`). Objects with an additionalProperties schema are maps
 * (any key selects); int-or-string and values of unknown shape are open.
 */
import { additionalSchema, type Structural } from '../schema/structural.js';
import { children, comprehension, type Node } from './ast.js';
import { escapeName } from './values.js';

/** What an expression's value is known to be. */
interface Shape {
  schema?: Structural;
  /** A resource root or embedded resource: apiVersion, kind, metadata are fields too. */
  resource: boolean;
  /** The ObjectMeta of a resource: name and generateName only. */
  meta: boolean;
}
const OPEN: Shape = { resource: false, meta: false };
const STRING: Shape = { schema: { types: ['string'] } as Structural, resource: false, meta: false };

const shapeOfSchema = (s: Structural | undefined): Shape =>
  s === undefined ? OPEN : { schema: s, resource: s.embeddedResource, meta: false };

/**
 * Whether a property is visible to rules at all (`SchemaDeclType` gives it a type): int-or-string,
 * a scalar, an object, or a list whose items are visible. A property of no type (preserved
 * unknown content) is not.
 */
function exposed(s: Structural): boolean {
  if (s.intOrString) return true;
  const type = s.types.length === 1 ? s.types[0] : undefined;
  if (type === 'array') return s.items !== undefined && exposed(s.items);
  if (type === 'object') {
    const extra = additionalSchema(s);
    return extra === undefined || exposed(extra);
  }
  return type !== undefined;
}

/**
 * The shape of field `name` of `parent`, or undefined when the schema has no such field. As
 * upstream, `x-kubernetes-preserve-unknown-fields` and `additionalProperties: true` expose
 * nothing beyond the declared properties.
 */
function field(parent: Shape, name: string): Shape | undefined {
  if (parent.meta) return name === 'name' || name === 'generateName' ? STRING : undefined;
  if (parent.resource) {
    if (name === 'apiVersion' || name === 'kind') return STRING;
    if (name === 'metadata') return { resource: false, meta: true };
  }
  const s = parent.schema;
  if (s === undefined || s.intOrString) return OPEN;
  if (!(s.types.length === 1 && s.types[0] === 'object')) return OPEN;
  const extra = additionalSchema(s);
  if (extra !== undefined) return shapeOfSchema(extra);
  for (const [k, sub] of s.properties ?? [])
    if (escapeName(k) === name && exposed(sub)) return shapeOfSchema(sub);
  return undefined;
}

/** A list's items, a map's values (index), or a comprehension variable's (a map's keys). */
function element(of: Shape, keys: boolean): Shape {
  const s = of.schema;
  if (s === undefined) return OPEN;
  if (s.types.includes('array')) return shapeOfSchema(s.items);
  if (keys) return STRING;
  return shapeOfSchema(additionalSchema(s));
}

/** One undefined field: where its `.` is, and the name. */
export interface FieldIssue {
  pos: number;
  name: string;
}

/** The undefined fields `root` selects, `self` and `oldSelf` being of schema `schema`. */
export function undefinedFields(root: Node, schema: Structural, resourceRoot: boolean): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const self: Shape = { schema, resource: resourceRoot || schema.embeddedResource, meta: false };
  const visit = (n: Node, scope: Map<string, Shape>): Shape => {
    if (n.op === 'id') return scope.get(n.args as string) ?? OPEN;
    if (n.op === '.' || n.op === '.?') {
      const [obj, name] = n.args as [Node, string];
      const parent = visit(obj, scope);
      const found = field(parent, name);
      if (found === undefined) {
        issues.push({ pos: obj.end, name });
        return OPEN;
      }
      return found;
    }
    if (n.op === '[]' || n.op === '[?]') {
      const [obj, index] = n.args as [Node, Node];
      visit(index, scope);
      return element(visit(obj, scope), false);
    }
    const c = comprehension(n);
    if (c) {
      const range = visit(c.receiver, scope);
      const inner = new Map(scope).set(c.iterVar, element(range, true));
      for (const b of c.body) visit(b, inner);
      return OPEN;
    }
    if (n.op === 'rcall' && Array.isArray(n.args) && n.args[0] === 'bind') {
      const [, , args] = n.args as [string, Node, Node[]];
      const [v, init, body] = args;
      if (v?.op === 'id' && init && body) {
        const inner = new Map(scope).set(v.args as string, visit(init, scope));
        return visit(body, inner);
      }
    }
    for (const k of children(n)) visit(k, scope);
    return OPEN;
  };
  visit(
    root,
    new Map([
      ['self', self],
      ['oldSelf', self],
    ]),
  );
  return issues;
}
