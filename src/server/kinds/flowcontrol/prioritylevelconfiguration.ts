/**
 * The PriorityLevelConfiguration (flowcontrol.apiserver.k8s.io/v1): defaults
 * (pkg/apis/flowcontrol/v1/defaults.go), validation (pkg/apis/flowcontrol/validation
 * `ValidatePriorityLevelConfiguration`), strategy
 * (pkg/registry/flowcontrol/prioritylevelconfiguration/strategy.go, as the FlowSchema's) and
 * Table cells (printers.go `printPriorityLevelConfiguration`).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject, objects, rec, str } from '../access.js';
import { translateTimestampSince } from '../age.js';
import { builtinKind } from '../builtin.js';
import type { FieldError } from '../types.js';
import { duplicate, forbidden, invalid, notSupported, required, validateObjectMeta } from '../validation.js';
import { keepMetadataOnStatus } from './flowschema.js';

const ENABLEMENTS = ['Exempt', 'Limited'];
const LIMIT_RESPONSES = ['Queue', 'Reject'];
/** `priorityLevelConfigurationQueuingMaxQueues`. */
const MAX_QUEUES = 10_000_000;
/** apiserver pkg/util/shufflesharding `MaxHashBits`. */
const MAX_HASH_BITS = 60;
/** flowcontrol/v1beta3 `PriorityLevelPreserveZeroConcurrencySharesKey`. */
const PRESERVE_ZERO_SHARES = 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares';

const int = (v: unknown) => (typeof v === 'number' ? v : 0);

/**
 * `SetObjectDefaults_PriorityLevelConfiguration`: a limited level's shares (30) and lendable
 * percent (0), its queuing (64 queues, hand size 8, 50 a queue), an exempt level's shares and
 * percent (0); the non-pointer fields always written, as Go encodes them.
 */
function defaultPriorityLevel(obj: KubeObject): void {
  if (!isObject(obj.spec)) obj.spec = {};
  const spec = obj.spec as Record<string, unknown>;
  spec.type ??= '';
  if (isObject(spec.limited)) {
    const limited = spec.limited;
    limited.nominalConcurrencyShares ??= 30;
    limited.lendablePercent ??= 0;
    if (!isObject(limited.limitResponse)) limited.limitResponse = {};
    const response = limited.limitResponse as Record<string, unknown>;
    response.type ??= '';
    if (isObject(response.queuing)) {
      const q = response.queuing;
      if (!q.handSize) q.handSize = 8;
      if (!q.queues) q.queues = 64;
      if (!q.queueLengthLimit) q.queueLengthLimit = 50;
    }
  }
  if (isObject(spec.exempt)) {
    spec.exempt.nominalConcurrencyShares ??= 0;
    spec.exempt.lendablePercent ??= 0;
  }
  obj.status ??= {};
}

/** apiserver shufflesharding `RequiredEntropyBits`: ceil(log2(deckSize^handSize)). */
function requiredEntropyBits(deck: number, hand: number): number {
  return Math.ceil(Math.log2(deck) * hand);
}

/** `ValidatePriorityLevelQueuingConfiguration`. */
function validateQueuing(q: Record<string, unknown>, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const limit = int(q.queueLengthLimit);
  const queues = int(q.queues);
  const hand = int(q.handSize);
  if (limit <= 0) errors.push(invalid(`${field}.queueLengthLimit`, limit, 'must be positive'));
  if (queues <= 0) errors.push(invalid(`${field}.queues`, queues, 'must be positive'));
  else if (queues > MAX_QUEUES)
    errors.push(invalid(`${field}.queues`, queues, `must not be greater than ${MAX_QUEUES}`));
  if (hand <= 0) errors.push(invalid(`${field}.handSize`, hand, 'must be positive'));
  else if (hand > queues)
    errors.push(invalid(`${field}.handSize`, hand, `should not be greater than queues (${queues})`));
  else if (requiredEntropyBits(queues, hand) > MAX_HASH_BITS)
    errors.push(
      invalid(
        `${field}.handSize`,
        hand,
        `required entropy bits of deckSize ${queues} and handSize ${hand} should not be greater than ${MAX_HASH_BITS}`,
      ),
    );
  return errors;
}

/**
 * Declarative validation's discriminated unions (`+k8s:unionDiscriminator`, beta in 1.37), which
 * answer in place of the hand-written member checks: a member the discriminator does not name is
 * Forbidden, the one it names is Required, and the discriminator itself is Required.
 */
function unionErrors(
  obj: Record<string, unknown>,
  field: string,
  discriminator: string,
  members: Readonly<Record<string, string>>,
): FieldError[] {
  const errors: FieldError[] = [];
  const value = str(obj[discriminator]);
  for (const [member, named] of Object.entries(members)) {
    const set = isObject(obj[member]);
    if (set && value !== named) errors.push(forbidden(`${field}.${member}`, ''));
    if (!set && value === named) errors.push(required(`${field}.${member}`));
  }
  if (value === '') errors.push(required(`${field}.${discriminator}`));
  return errors;
}

/** `ValidateLimitResponse`'s own checks (the union's are {@link unionErrors}'). */
function validateLimitResponse(lr: Record<string, unknown>, field: string): FieldError[] {
  const type = str(lr.type);
  if (type === 'Queue') return isObject(lr.queuing) ? validateQueuing(lr.queuing, `${field}.queuing`) : [];
  if (type === '' || type === 'Reject') return [];
  return [notSupported(`${field}.type`, type, LIMIT_RESPONSES)];
}

/** A percentage between 0 and 100. */
function percent(value: unknown, field: string): FieldError[] {
  return typeof value === 'number' && (value < 0 || value > 100)
    ? [invalid(field, value, 'must be between 0 and 100, inclusive')]
    : [];
}

/** `ValidatePriorityLevelConfigurationSpec`, then the unions' declarative checks. */
function validateSpec(spec: Record<string, unknown>, name: string): FieldError[] {
  const errors: FieldError[] = [];
  const type = str(spec.type);
  if ((name === 'exempt') !== (type === 'Exempt'))
    errors.push(invalid('spec.type', type, "must be 'Exempt' if and only if `name` is 'exempt'"));
  if (type === 'Exempt') {
    if (isObject(spec.exempt)) {
      const shares = spec.exempt.nominalConcurrencyShares;
      if (typeof shares === 'number' && shares < 0)
        errors.push(
          invalid('spec.exempt.nominalConcurrencyShares', shares, 'must be a non-negative integer'),
        );
      errors.push(...percent(spec.exempt.lendablePercent, 'spec.exempt.lendablePercent'));
    }
  } else if (type === 'Limited') {
    if (isObject(spec.limited)) {
      const l = spec.limited;
      const shares = int(l.nominalConcurrencyShares);
      if (shares < 0)
        errors.push(
          invalid('spec.limited.nominalConcurrencyShares', shares, 'must be a non-negative integer'),
        );
      errors.push(...validateLimitResponse(rec(l.limitResponse), 'spec.limited.limitResponse'));
      errors.push(...percent(l.lendablePercent, 'spec.limited.lendablePercent'));
      if (typeof l.borrowingLimitPercent === 'number' && l.borrowingLimitPercent < 0)
        errors.push(
          invalid(
            'spec.limited.borrowingLimitPercent',
            l.borrowingLimitPercent,
            'if specified, must be a non-negative integer',
          ),
        );
    }
  } else if (type !== '') errors.push(notSupported('spec.type', type, ENABLEMENTS));
  errors.push(...unionErrors(spec, 'spec', 'type', { limited: 'Limited', exempt: 'Exempt' }));
  if (isObject(spec.limited))
    errors.push(
      ...unionErrors(rec(spec.limited.limitResponse), 'spec.limited.limitResponse', 'type', {
        queuing: 'Queue',
      }),
    );
  return errors;
}

/** `ValidatePriorityLevelConfigurationStatus`: condition types given and unique. */
function validateStatus(obj: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  objects(rec(obj.status).conditions).forEach((c, i) => {
    const type = str(c.type);
    if (seen.has(type)) errors.push(duplicate(`status.conditions[${i}].type`, type));
    seen.add(type);
    if (type === '') errors.push(required(`status.conditions[${i}].type`));
  });
  return errors;
}

/** `ValidatePriorityLevelConfiguration` (its update form is the same). */
export function validatePriorityLevelConfiguration(obj: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  if (Object.hasOwn(rec(rec(obj.metadata).annotations), PRESERVE_ZERO_SHARES))
    errors.push(forbidden('metadata.annotations', `annotation '${PRESERVE_ZERO_SHARES}' is forbidden`));
  errors.push(...validateSpec(rec(obj.spec), str(rec(obj.metadata).name)));
  errors.push(...validateStatus(obj));
  return errors;
}

/** A cell of the limited level's queuing, `<none>` without one. */
function limitedCell(read: (limited: Record<string, unknown>) => unknown) {
  return (o: KubeObject): string | number => {
    const limited = rec(o.spec).limited;
    if (!isObject(limited)) return '<none>';
    const v = read(limited);
    return typeof v === 'number' ? v : '<none>';
  };
}

const queuing = (l: Record<string, unknown>) => rec(rec(l.limitResponse).queuing);

/** The PriorityLevelConfiguration's entry. */
export const priorityLevelConfigurationKind = builtinKind(
  'flowcontrol.apiserver.k8s.io',
  'v1',
  'prioritylevelconfigurations',
  {
    generationFields: ['spec'],
    defaults: defaultPriorityLevel,
    validate: validatePriorityLevelConfiguration,
    prepareForStatusUpdate: keepMetadataOnStatus,
    cells: {
      Type: (o) => str(rec(o.spec).type),
      NominalConcurrencyShares: limitedCell((l) => l.nominalConcurrencyShares),
      Queues: limitedCell((l) => queuing(l).queues),
      HandSize: limitedCell((l) => queuing(l).handSize),
      QueueLengthLimit: limitedCell((l) => queuing(l).queueLengthLimit),
      Age: (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
    },
  },
);
