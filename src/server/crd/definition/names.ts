/**
 * The names and establishing controllers' decisions, as pure functions:
 * which of a CRD's requested names it may have, and the `NamesAccepted` and
 * `Established` conditions that say so. Upstream:
 * k8s.io/apiextensions-apiserver pkg/controller/status/naming_controller.go
 * (`getAcceptedNamesForGroup`, `calculateNamesAndConditions`,
 * `equalToAcceptedOrFresh`) and pkg/controller/establish/establishing_controller.go
 * (`sync`). A fresh kube-apiserver runs both within milliseconds of a create,
 * so the server may apply {@link namesAndConditions} then {@link establish} at once.
 */
import { arr, rec, str } from '../../kinds/access.js';
import type { CustomResourceDefinitionCondition, CustomResourceDefinitionNames } from './types.js';

/** A CRD's names, read tolerantly (absent lists stay absent, as Go's nil slices). */
function namesOf(value: unknown): CustomResourceDefinitionNames {
  const n = rec(value);
  const out: CustomResourceDefinitionNames = { kind: str(n.kind), plural: str(n.plural) };
  if (str(n.singular) !== '') out.singular = str(n.singular);
  if (str(n.listKind) !== '') out.listKind = str(n.listKind);
  if (Array.isArray(n.shortNames)) out.shortNames = arr(n.shortNames).map(str);
  if (Array.isArray(n.categories)) out.categories = arr(n.categories).map(str);
  return out;
}

/** The resource names and kinds a group's CRDs (or built-in resources) already hold. */
export interface NamesInUse {
  /** Plurals, singulars and short names. */
  resources: Set<string>;
  /** Kinds and list kinds. */
  kinds: Set<string>;
}

/** A served resource of the same group that holds names outside any CRD (a built-in kind). */
export interface ClaimedNames {
  plural: string;
  singular?: string;
  shortNames?: string[];
  kind: string;
  listKind?: string;
}

/**
 * `getAcceptedNamesForGroup`: the accepted names (`status.acceptedNames`) of
 * every CRD of `group`, the one being decided included (its own names never
 * conflict with themselves: see {@link namesAndConditions}).
 *
 * `builtIn` is a watchmark addition: kube-apiserver's naming controller never
 * looks at built-in resources (a CRD in a built-in group is silently shadowed
 * by the built-in handler); a caller that would rather refuse the name passes
 * the group's built-in resources here.
 */
export function acceptedNamesForGroup(
  group: string,
  crds: readonly unknown[],
  builtIn: readonly ClaimedNames[] = [],
): NamesInUse {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  const add = (n: ClaimedNames | CustomResourceDefinitionNames): void => {
    resources.add(n.plural);
    resources.add(n.singular ?? '');
    for (const s of n.shortNames ?? []) resources.add(s);
    kinds.add(n.kind);
    kinds.add(n.listKind ?? '');
  };
  for (const crd of crds) {
    if (str(rec(rec(crd).spec).group) !== group) continue;
    add(namesOf(rec(rec(crd).status).acceptedNames));
  }
  for (const b of builtIn) add(b);
  return { resources, kinds };
}

/** `equalToAcceptedOrFresh`: the conflict message, or undefined when the name may be taken. */
function conflict(requested: string, accepted: string, used: Set<string>): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `${JSON.stringify(requested)} is already in use`;
}

/** What the names controller decides for one CRD. */
export interface NamesDecision {
  acceptedNames: CustomResourceDefinitionNames;
  namesAccepted: CustomResourceDefinitionCondition;
  established: CustomResourceDefinitionCondition;
}

const sameList = (a: string[] | undefined, b: string[] | undefined): boolean =>
  // reflect.DeepEqual: nil and empty differ.
  (a === undefined) === (b === undefined) && JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

/**
 * `calculateNamesAndConditions`: each requested name that differs from the
 * accepted one is taken only when no CRD of the group holds it; the last
 * conflict found names the reason (PluralConflict, SingularConflict,
 * ShortNamesConflict, KindConflict, ListKindConflict). `inUse` is
 * {@link acceptedNamesForGroup} over all CRDs. Conditions carry no
 * lastTransitionTime: `SetCRDCondition` stamps it when they are applied.
 */
export function namesAndConditions(crdIn: unknown, inUse: NamesInUse): NamesDecision {
  const crd = rec(crdIn);
  const requested = namesOf(rec(crd.spec).names);
  const accepted = namesOf(rec(crd.status).acceptedNames);
  const next: CustomResourceDefinitionNames = { ...accepted };
  const namesAccepted: CustomResourceDefinitionCondition = { type: 'NamesAccepted', status: 'Unknown' };
  const refuse = (reason: string, message: string): void => {
    namesAccepted.status = 'False';
    namesAccepted.reason = reason;
    namesAccepted.message = message;
  };
  const single = (field: 'plural' | 'singular', reason: string): void => {
    const err = conflict(requested[field] ?? '', accepted[field] ?? '', inUse.resources);
    if (err) refuse(reason, err);
    else next[field] = requested[field] as string;
  };
  single('plural', 'PluralConflict');
  single('singular', 'SingularConflict');
  if (!sameList(requested.shortNames, accepted.shortNames)) {
    const existing = new Set(accepted.shortNames ?? []);
    const errs = (requested.shortNames ?? [])
      .filter((s) => !existing.has(s))
      .map((s) => conflict(s, '', inUse.resources))
      .filter((e): e is string => e !== undefined);
    // utilerrors.NewAggregate: one message alone, several as "[a, b]".
    if (errs.length > 0) refuse('ShortNamesConflict', errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
    else next.shortNames = requested.shortNames;
  }
  const kindErr = conflict(requested.kind, accepted.kind, inUse.kinds);
  if (kindErr) refuse('KindConflict', kindErr);
  else next.kind = requested.kind;
  const listKindErr = conflict(requested.listKind ?? '', accepted.listKind ?? '', inUse.kinds);
  if (listKindErr) refuse('ListKindConflict', listKindErr);
  else next.listKind = requested.listKind;
  next.categories = requested.categories;
  for (const k of Object.keys(next) as Array<keyof CustomResourceDefinitionNames>) {
    if (next[k] === undefined) delete next[k];
  }
  if (namesAccepted.status === 'Unknown') {
    namesAccepted.status = 'True';
    namesAccepted.reason = 'NoConflicts';
    namesAccepted.message = 'no conflicts found';
  }
  // Established starts False and only the establishing controller makes it True.
  const old = arr(rec(crd.status).conditions).find((c) => rec(c).type === 'Established') as
    | CustomResourceDefinitionCondition
    | undefined;
  let established: CustomResourceDefinitionCondition = old
    ? { ...old }
    : { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
  if (established.status !== 'True' && namesAccepted.status === 'True') {
    established = {
      type: 'Established',
      status: 'False',
      reason: 'Installing',
      message: 'the initial names have been accepted',
    };
  }
  return { acceptedNames: next, namesAccepted, established };
}

/**
 * The establishing controller's `sync`: once names are accepted, Established
 * turns True (`InitialNamesAccepted`); undefined when there is nothing to do.
 * The conversion webhook's CA bundle is not checked (`InvalidCABundle`).
 */
export function establish(
  conditions: readonly CustomResourceDefinitionCondition[],
): CustomResourceDefinitionCondition | undefined {
  const isTrue = (type: string): boolean => conditions.some((c) => c.type === type && c.status === 'True');
  if (!isTrue('NamesAccepted') || isTrue('Established')) return undefined;
  return {
    type: 'Established',
    status: 'True',
    reason: 'InitialNamesAccepted',
    message: 'the initial names have been accepted',
  };
}

/**
 * apihelpers `SetCRDCondition`: replaces the condition of the same type,
 * stamping `lastTransitionTime` (`now`, RFC 3339 seconds) only when the status
 * changes or none was set; appends a new one.
 */
export function setCondition(
  conditions: readonly CustomResourceDefinitionCondition[],
  condition: CustomResourceDefinitionCondition,
  now: string,
): CustomResourceDefinitionCondition[] {
  const out = conditions.map((c) => ({ ...c }));
  const existing = out.find((c) => c.type === condition.type);
  if (existing === undefined) return [...out, { ...condition, lastTransitionTime: now }];
  if (existing.status !== condition.status || !existing.lastTransitionTime) existing.lastTransitionTime = now;
  existing.status = condition.status;
  existing.reason = condition.reason;
  existing.message = condition.message;
  return out;
}
