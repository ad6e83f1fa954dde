/**
 * A set of field paths, as structured-merge-diff keeps them (fieldpath/set.go `Set`): the members
 * at this level (paths that end here) and the children (sets under one element). Elements are
 * keyed by their FieldsV1 text, which is their identity (see path-element.ts), so membership is a
 * map look-up; the sorted order smd keeps is produced only where it is seen (iteration, FieldsV1).
 *
 * A set returned by an operation may share subtrees with its inputs: treat sets as immutable once
 * built (only {@link FieldSet.insert} mutates, while a set is being built).
 */
import { compareElements, type Path, type PathElement, pathToString } from './path-element.js';

/** One child of a set: the element and the set under it. */
export interface SetChild {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

function byElement(a: PathElement, b: PathElement): number {
  return compareElements(a, b);
}
function byChild(a: SetChild, b: SetChild): number {
  return compareElements(a.pe, b.pe);
}

/** smd `fieldpath.Set`. */
export class FieldSet {
  members: Map<string, PathElement> | null = null;
  children: Map<string, SetChild> | null = null;

  /** smd `NewSet`: a set of the given paths. */
  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** smd `Set.Insert`: adds one path (an empty path adds nothing). */
  insert(path: Path): void {
    const n = path.length;
    if (n === 0) return;
    let s: FieldSet = this;
    for (let i = 0; i < n - 1; i++) s = s.descend(path[i] as PathElement);
    s.insertMember(path[n - 1] as PathElement);
  }

  /** Adds a member at this level. */
  insertMember(pe: PathElement): void {
    if (this.members === null) this.members = new Map();
    if (!this.members.has(pe.text)) this.members.set(pe.text, pe);
  }

  /** smd `SetNodeMap.Descend`: the child set under `pe`, created when missing. */
  descend(pe: PathElement): FieldSet {
    if (this.children === null) this.children = new Map();
    let c = this.children.get(pe.text);
    if (c === undefined) {
      c = { pe, set: new FieldSet() };
      this.children.set(pe.text, c);
    }
    return c.set;
  }

  /** True when `pe` is a member at this level. */
  hasMember(pe: PathElement): boolean {
    return this.members?.has(pe.text) === true;
  }

  /** smd `Set.Has`: true when the path is a member (not merely a prefix). */
  has(path: Path): boolean {
    const n = path.length;
    if (n === 0) return false;
    let s: FieldSet | undefined = this;
    for (let i = 0; i < n - 1; i++) {
      s = s.children?.get((path[i] as PathElement).text)?.set;
      if (s === undefined) return false;
    }
    return s.hasMember(path[n - 1] as PathElement);
  }

  /** smd `Set.WithPrefix`: the child set under `pe`, or an empty set. */
  withPrefix(pe: PathElement): FieldSet {
    return this.children?.get(pe.text)?.set ?? EMPTY;
  }

  /** The child set under `pe`, or undefined. */
  child(pe: PathElement): FieldSet | undefined {
    return this.children?.get(pe.text)?.set;
  }

  /** smd `Set.Empty`: no member here or anywhere below. */
  empty(): boolean {
    if (this.members !== null && this.members.size > 0) return false;
    if (this.children !== null) for (const c of this.children.values()) if (!c.set.empty()) return false;
    return true;
  }

  /** smd `Set.Size`: the number of paths. */
  size(): number {
    let n = this.members?.size ?? 0;
    if (this.children !== null) for (const c of this.children.values()) n += c.set.size();
    return n;
  }

  /** True when every path of this set is in `other` (`this.difference(other).empty()`, without building it). */
  isSubsetOf(other: FieldSet): boolean {
    if (this.members !== null) {
      for (const k of this.members.keys()) if (!other.members?.has(k)) return false;
    }
    if (this.children !== null) {
      for (const [k, c] of this.children) {
        const theirs = other.children?.get(k);
        if (theirs === undefined ? !c.set.empty() : !c.set.isSubsetOf(theirs.set)) return false;
      }
    }
    return true;
  }

  /** smd `Set.Union`. */
  union(other: FieldSet): FieldSet {
    const out = new FieldSet();
    if (this.members !== null || other.members !== null) {
      out.members = new Map(this.members ?? undefined);
      if (other.members !== null)
        for (const [k, pe] of other.members) if (!out.members.has(k)) out.members.set(k, pe);
    }
    if (this.children === null || other.children === null) {
      out.children = this.children ?? other.children;
    } else {
      out.children = new Map(this.children);
      for (const [k, c] of other.children) {
        const mine = out.children.get(k);
        out.children.set(k, mine === undefined ? c : { pe: mine.pe, set: mine.set.union(c.set) });
      }
    }
    return out;
  }

  /** smd `Set.Intersection`. */
  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    if (this.members !== null && other.members !== null) {
      for (const [k, pe] of this.members) {
        if (other.members.has(k)) {
          if (out.members === null) out.members = new Map();
          out.members.set(k, pe);
        }
      }
    }
    if (this.children !== null && other.children !== null) {
      for (const [k, c] of this.children) {
        const theirs = other.children.get(k);
        if (theirs === undefined) continue;
        const res = c.set.intersection(theirs.set);
        if (res.empty()) continue;
        if (out.children === null) out.children = new Map();
        out.children.set(k, { pe: c.pe, set: res });
      }
    }
    return out;
  }

  /** smd `Set.Difference`: members removed level by level (a member does not remove its children). */
  difference(other: FieldSet): FieldSet {
    return this.diff(other, false);
  }

  /** smd `Set.RecursiveDifference`: as difference, and a member of `other` removes the whole subtree. */
  recursiveDifference(other: FieldSet): FieldSet {
    return this.diff(other, true);
  }

  private diff(other: FieldSet, recursive: boolean): FieldSet {
    const out = new FieldSet();
    if (this.members !== null) {
      if (other.members === null) out.members = this.members;
      else {
        for (const [k, pe] of this.members) {
          if (other.members.has(k)) continue;
          if (out.members === null) out.members = new Map();
          out.members.set(k, pe);
        }
      }
    }
    if (this.children !== null) {
      if (other.children === null && (!recursive || other.members === null)) out.children = this.children;
      else {
        for (const [k, c] of this.children) {
          if (recursive && other.members?.has(k)) continue;
          const theirs = other.children?.get(k);
          let set = c.set;
          if (theirs !== undefined) {
            set = recursive ? set.recursiveDifference(theirs.set) : set.difference(theirs.set);
            if (set.empty()) continue;
          }
          if (out.children === null) out.children = new Map();
          out.children.set(k, theirs === undefined ? c : { pe: c.pe, set });
        }
      }
    }
    return out;
  }

  /** smd `Set.Leaves`: the members that have no children. */
  leaves(): FieldSet {
    const out = new FieldSet();
    if (this.members !== null) {
      for (const [k, pe] of this.members) {
        if (this.children?.has(k)) continue;
        if (out.members === null) out.members = new Map();
        out.members.set(k, pe);
      }
    }
    if (this.children !== null) {
      out.children = new Map();
      for (const [k, c] of this.children) out.children.set(k, { pe: c.pe, set: c.set.leaves() });
    }
    return out;
  }

  /** smd `Set.Equals`. */
  equals(other: FieldSet): boolean {
    const ma = this.members?.size ?? 0;
    const mb = other.members?.size ?? 0;
    if (ma !== mb) return false;
    if (ma > 0)
      for (const k of (this.members as Map<string, PathElement>).keys())
        if (!other.members?.has(k)) return false;
    const ca = this.children?.size ?? 0;
    const cb = other.children?.size ?? 0;
    if (ca !== cb) return false;
    if (ca > 0) {
      for (const [k, c] of this.children as Map<string, SetChild>) {
        const theirs = other.children?.get(k);
        if (theirs === undefined || !c.set.equals(theirs.set)) return false;
      }
    }
    return true;
  }

  /** The members here, in smd's order. */
  sortedMembers(): PathElement[] {
    return this.members === null ? [] : [...this.members.values()].sort(byElement);
  }

  /** The children here, in smd's order. */
  sortedChildren(): SetChild[] {
    return this.children === null ? [] : [...this.children.values()].sort(byChild);
  }

  /** smd `Set.Iterate`: every path, the members of a level (sorted) before its children (sorted). */
  paths(): Path[] {
    const out: Path[] = [];
    this.collect([], out);
    return out;
  }

  private collect(prefix: PathElement[], out: Path[]): void {
    for (const pe of this.sortedMembers()) out.push([...prefix, pe]);
    for (const c of this.sortedChildren()) {
      prefix.push(c.pe);
      c.set.collect(prefix, out);
      prefix.pop();
    }
  }

  /** smd `Set.String`: one path a line. */
  toString(): string {
    return this.paths().map(pathToString).join('\n');
  }
}

const EMPTY = new FieldSet();

/** A shared empty set (never insert into it). */
export function emptySet(): FieldSet {
  return EMPTY;
}
