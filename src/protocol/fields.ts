/**
 * Kubernetes field selectors (k8s.io/apimachinery/pkg/fields): `f=v`, `f==v`,
 * `f!=v`, comma = AND, with backslash escapes in values. Which fields a kind
 * supports is the server's business; this module only parses, prints and matches.
 */

import { quoteForMessage, SelectorError } from './labels.js';

/** One field requirement; `==` is read as `=`, as apimachinery does. */
export interface FieldRequirement {
  readonly field: string;
  readonly operator: '=' | '!=';
  /** The unescaped value. */
  readonly value: string;
}

/** A parsed field selector; it matches when all requirements hold. */
export interface FieldSelector {
  /** Sorted by their text form, so printing is deterministic and round-trips. */
  readonly requirements: readonly FieldRequirement[];
}

/** The field selector that matches everything (the empty text). */
export const everythingFields: FieldSelector = Object.freeze({ requirements: Object.freeze([]) });

/** True when `sel` has no requirement, so a list or watch needs no field filtering. */
export function isEverythingFields(sel: FieldSelector): boolean {
  return sel.requirements.length === 0;
}

/**
 * Splits on unescaped commas. A backslash protects the next character here and
 * stays in the term; {@link unescapeFieldValue} removes it later, as apimachinery's
 * `splitTerms` and `UnescapeValue` divide the work.
 */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (escaped) escaped = false;
    else if (c === '\\') escaped = true;
    else if (c === ',') {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

/**
 * Splits a term at its first operator. Field names have no escaping, so the first
 * `!=`, `==` or `=` wins, exactly as apimachinery's `splitTerm`.
 */
function splitTerm(term: string): { field: string; operator: '=' | '!='; raw: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    if (term[i] === '!' && term[i + 1] === '=')
      return { field: term.slice(0, i), operator: '!=', raw: term.slice(i + 2) };
    if (term[i] === '=') {
      const width = term[i + 1] === '=' ? 2 : 1;
      return { field: term.slice(0, i), operator: '=', raw: term.slice(i + width) };
    }
  }
  return undefined;
}

/**
 * Undoes {@link escapeFieldValue}: `\\`, `\,` and `\=` are the only escapes, and a
 * bare `,` or `=` in a value is an error (it would be ambiguous to print back).
 * `term`, the whole `f=v` text, only names the culprit in the error message.
 */
export function unescapeFieldValue(raw: string, term = raw): string {
  if (!/[\\,=]/.test(raw)) return raw;
  let out = '';
  let escaped = false;
  for (const c of raw) {
    if (escaped) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new SelectorError(
          `invalid field selector: invalid escape sequence ${quoteForMessage(`\\${c}`)} in ${quoteForMessage(term)}`,
        );
      }
      out += c;
      escaped = false;
    } else if (c === '\\') {
      escaped = true;
    } else if (c === ',' || c === '=') {
      throw new SelectorError(
        `invalid field selector: unescaped '${c}' in the value of ${quoteForMessage(term)} (write it as '\\${c}')`,
      );
    } else {
      out += c;
    }
  }
  if (escaped) {
    throw new SelectorError(
      `invalid field selector: value of ${quoteForMessage(term)} ends with a lone '\\'`,
    );
  }
  return out;
}

/** Escapes a value for the text form (`\` `,` `=` get a backslash), as apimachinery's `EscapeValue`. */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** One requirement's text. */
function formatRequirement(r: FieldRequirement): string {
  return `${r.field}${r.operator}${escapeFieldValue(r.value)}`;
}

/**
 * Parses the text form (`spec.nodeName=n1,status.phase!=Running`). Empty text, and
 * empty terms between commas, select everything. Whitespace is not trimmed (as in
 * apimachinery), so `a = b` names the field "a "; the server's supported-field check
 * rejects it. Throws {@link SelectorError} and nothing else; linear time.
 */
export function parseFieldSelector(text: string): FieldSelector {
  if (typeof text !== 'string')
    throw new SelectorError(`field selector must be a string, got ${typeof text}`);
  const keyed: { text: string; requirement: FieldRequirement }[] = [];
  for (const term of splitTerms(text)) {
    if (term === '') continue;
    const parts = splitTerm(term);
    if (!parts) {
      throw new SelectorError(
        `invalid field selector: ${quoteForMessage(term)} has no operator (expected f=v, f==v or f!=v)`,
        text,
      );
    }
    // apimachinery lets an empty field name through to the field lookup; we name the mistake instead.
    if (parts.field === '') {
      throw new SelectorError(`invalid field selector: empty field name in ${quoteForMessage(term)}`, text);
    }
    let value: string;
    try {
      value = unescapeFieldValue(parts.raw, term);
    } catch (err) {
      if (err instanceof SelectorError) throw new SelectorError(err.message, text);
      throw err;
    }
    const requirement: FieldRequirement = { field: parts.field, operator: parts.operator, value };
    keyed.push({ text: formatRequirement(requirement), requirement });
  }
  if (keyed.length === 0) return everythingFields;
  keyed.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  return { requirements: keyed.map((k) => k.requirement) };
}

/** The canonical text form; {@link parseFieldSelector} reads it back to an equal selector. */
export function formatFieldSelector(sel: FieldSelector): string {
  return sel.requirements.map(formatRequirement).join(',');
}

/**
 * Whether an object is selected. `get` reads a field of the object; a field it
 * returns undefined for compares as "", as kube's field sets hold "" for unset fields.
 */
export function matchesFields(sel: FieldSelector, get: (field: string) => string | undefined): boolean {
  return sel.requirements.every((r) => {
    const have = get(r.field) ?? '';
    return r.operator === '=' ? have === r.value : have !== r.value;
  });
}

/**
 * The value a `field=value` (or `==`) requirement demands, if there is one. The
 * server uses it to index watchers by `spec.nodeName`, `metadata.name` or
 * `metadata.namespace` instead of testing every watcher on every event.
 */
export function exactValue(sel: FieldSelector, field: string): string | undefined {
  return sel.requirements.find((r) => r.field === field && r.operator === '=')?.value;
}

/** The distinct fields the selector uses, in order; the server rejects unsupported ones with 400. */
export function fieldsOf(sel: FieldSelector): string[] {
  return [...new Set(sel.requirements.map((r) => r.field))];
}
