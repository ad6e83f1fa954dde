/**
 * The informer's delivery queue: the one way notifications reach handlers
 * (live watch events, a relist's differences, resyncs, and the replay of the
 * cache for a handler added late) and the one rule for calling a handler.
 *
 * The rule, applied in {@link DeliveryQueue.call} and nowhere else:
 * - Handlers are called one at a time: notifications in the order they were
 *   queued and, for one notification, handlers in the order they were added.
 * - An async handler is awaited before anything else is delivered. The
 *   informer waits for the queue before it reads the next event
 *   ({@link DeliveryQueue.whenDelivered}), so a slow handler slows reading from the
 *   socket instead of queueing memory.
 * - A handler that throws or rejects is reported (`onHandlerError` of the
 *   constructor) and delivery goes on: never fatal.
 * - A handler gets only the notifications queued after it was added (the
 *   store it is replayed already holds the earlier ones' changes) and
 *   nothing once removed, not even the rest of its replay or of a
 *   notification already under way.
 * - After {@link DeliveryQueue.stop} nothing is delivered; a handler already
 *   running finishes.
 *
 * As client-go's sharedProcessor (tools/cache/shared_informer.go), with one
 * difference: client-go gives each handler (processorListener) its own
 * unbounded buffer and goroutine, so handlers run concurrently and a slow one
 * only grows its buffer; here one queue serves all handlers in turn, and a
 * slow one holds the watch instead.
 */
import type { KubeObject } from '../../protocol/events.js';

/** Event handlers of an {@link Informer}; async handlers are awaited before the next event is read. */
export interface InformerHandlers<T extends KubeObject> {
  add?(object: T): void | Promise<void>;
  update?(oldObject: T, newObject: T): void | Promise<void>;
  /** `finalStateUnknown`: the object vanished between two lists, so this is its last known state, not its final one. */
  delete?(object: T, info: { finalStateUnknown: boolean }): void | Promise<void>;
}

/** The event a handler is told about, as `onHandlerError` names it. */
export type HandlerEvent = 'add' | 'update' | 'delete';
/** What a handler is told: a delete of an object that vanished between two lists is told apart. */
export type Notification = HandlerEvent | 'deleteFinalStateUnknown';

/** One {@link DeliveryQueue.subscribe}: client-go's processorListener, without a buffer of its own. */
interface Subscription<T extends KubeObject> {
  readonly handlers: InformerHandlers<T>;
  /** How many entries were queued before it was added: it gets only later ones. */
  readonly after: number;
  removed: boolean;
}

/**
 * The queue is flat, three slots per entry: `kind`, `object`, `extra`.
 * - a {@link Notification} for every subscription: `object` is the handler's
 *   first argument, `extra` an update's new object;
 * - `'replay'`: an add of `object` for one subscription, `extra`;
 * - `'callback'`: `object` is a function to run.
 *
 * Flat (three slots per entry, no record) and its slots reused once drained,
 * so that a live event or a list of thousands of objects allocates nothing
 * per notification: per-event allocations were the informer's largest cost
 * (bench/client-notes.md).
 */
type Kind = Notification | 'replay' | 'callback';
type Slot<T extends KubeObject> = Kind | T | (() => void) | Subscription<T> | undefined;
const SLOTS = 3;
/** A drained queue keeps up to this many slots for reuse; a longer one (a relist queued behind a slow handler) is let go. */
const KEPT_SLOTS = 1024 * SLOTS;

// Shared by every delete notification: frozen, so no handler can change another's.
const FINAL_STATE_KNOWN = Object.freeze({ finalStateUnknown: false });
const FINAL_STATE_UNKNOWN = Object.freeze({ finalStateUnknown: true });

/** Notifications for an informer's handlers, delivered by the rule in the file comment. */
export class DeliveryQueue<T extends KubeObject> {
  private readonly subscriptions = new Map<InformerHandlers<T>, Subscription<T>>();
  /** The subscriptions as an array, walked by index per notification; rebuilt after a change. */
  private subscriptionList: Subscription<T>[] | undefined;
  /** Entries queued so far: an entry's position is this count once it is queued. */
  private queued = 0;
  /** Entries taken off the queue so far: the head entry's position is this plus one. */
  private taken = 0;
  private readonly slots: Slot<T>[] = [];
  /** The first slot of the entry being delivered; `tail`: where the next entry goes. */
  private head = 0;
  private tail = 0;
  /** The subscriptions the head entry goes to, taken when its delivery began (a snapshot: removals are checked per call). */
  private recipients: Subscription<T>[] | undefined;
  /** The next of them to call: past the one whose async handler held delivery. */
  private nextRecipient = 0;
  /** Set while the loop runs, so a handler that causes a notification (e.g. calls `on()`) only queues it, behind its own. */
  private delivering = false;
  /** Set while an async handler holds delivery: it resumes when that settles. */
  private suspended: Promise<void> | undefined;
  private stopped = false;

  /** `onHandlerError` hears of every handler that throws or rejects. */
  constructor(private readonly onHandlerError: (err: unknown, event: HandlerEvent) => void) {}

  /**
   * Adds handlers. `replay`, when given, is queued as an `add` of each object
   * for these handlers only, as client-go's
   * sharedIndexInformer.AddEventHandlerWithResyncPeriod sends a listener
   * added to a started informer an add per cached object. Returns the
   * remover: from then on they get nothing.
   */
  subscribe(handlers: InformerHandlers<T>, replay?: Iterable<T>): () => void {
    // The same handlers again: one subscription, as one Map entry before; the old one's replay is dropped.
    const old = this.subscriptions.get(handlers);
    if (old) old.removed = true;
    const subscription: Subscription<T> = { handlers, after: this.queued, removed: false };
    this.subscriptions.set(handlers, subscription);
    this.subscriptionList = undefined;
    if (replay) {
      for (const object of replay) this.push('replay', object, subscription);
      this.deliver();
    }
    return () => {
      const current = this.subscriptions.get(handlers);
      if (!current) return;
      // As client-go's sharedProcessor.removeListener, which closes the listener's channel:
      // what it had not yet run is dropped, the rest of a replay included.
      current.removed = true;
      this.subscriptions.delete(handlers);
      this.subscriptionList = undefined;
    };
  }

  /** Queues and delivers one notification for every handler: `object` (an update's old state) and an update's `newObject`. */
  notify(kind: Notification, object: T, newObject: T | undefined): void {
    this.push(kind, object, newObject);
    this.deliver();
  }

  /** Queues one notification for every handler, delivered at the next {@link DeliveryQueue.deliver}. */
  queue(kind: Notification, object: T, newObject: T | undefined): void {
    this.push(kind, object, newObject);
  }

  /** Queues `callback`, to run once everything queued before it has been delivered (also after stop). */
  queueCallback(callback: () => void): void {
    this.push('callback', callback, undefined);
  }

  /**
   * Delivers what is queued, now, unless a delivery is under way (it will
   * reach these too). Handlers that do not return a promise cost no promise.
   */
  deliver(): void {
    if (this.delivering || this.suspended) return;
    this.delivering = true;
    try {
      while (this.head < this.tail) {
        const pending = this.deliverHead();
        if (pending) {
          this.suspend(pending);
          return;
        }
        this.dequeue();
      }
      this.head = 0;
      this.tail = 0;
      if (this.slots.length > KEPT_SLOTS) this.slots.length = 0;
    } finally {
      this.delivering = false;
    }
  }

  /** Undefined when everything queued has been delivered; else a promise that resolves once it has. */
  whenDelivered(): Promise<void> | undefined {
    return this.suspended && this.drained();
  }

  /** Nothing is delivered from now on; a handler already running finishes ({@link DeliveryQueue.whenDelivered} waits for it). */
  stop(): void {
    this.stopped = true;
  }

  private push(kind: Kind, object: T | (() => void), extra: T | Subscription<T> | undefined): void {
    const s = this.slots;
    const i = this.tail;
    s[i] = kind;
    s[i + 1] = object;
    s[i + 2] = extra;
    this.tail = i + SLOTS;
    this.queued++;
  }

  /** Takes the delivered head entry off, dropping its references. */
  private dequeue(): void {
    const s = this.slots;
    const i = this.head;
    s[i + 1] = undefined;
    s[i + 2] = undefined;
    this.head = i + SLOTS;
    this.taken++;
    this.recipients = undefined;
    this.nextRecipient = 0;
  }

  /** Delivers the head entry from {@link DeliveryQueue.nextRecipient} on; a promise when an async handler holds it. */
  private deliverHead(): void | Promise<void> {
    const s = this.slots;
    const i = this.head;
    const kind = s[i] as Kind;
    if (kind === 'callback') {
      (s[i + 1] as () => void)();
      return;
    }
    const position = this.taken + 1;
    const object = s[i + 1] as T;
    if (kind === 'replay') {
      // One recipient: after its async handler settles, the entry is done.
      if (this.nextRecipient > 0) return;
      this.nextRecipient = 1;
      return this.call(s[i + 2] as Subscription<T>, position, 'add', object, undefined);
    }
    const newObject = s[i + 2] as T | undefined;
    this.recipients ??= this.currentSubscriptions();
    const recipients = this.recipients;
    for (let j = this.nextRecipient; j < recipients.length; j++) {
      // Moved on before the call: a handler is never called twice for one notification.
      this.nextRecipient = j + 1;
      const pending = this.call(recipients[j], position, kind, object, newObject);
      if (pending) return pending;
    }
  }

  /**
   * The rule for one call: `subscription`'s handler for the notification at
   * `position`, unless it was removed, added after that notification was queued
   * (its replay covered it), or the queue stopped. A promise only for an
   * async handler; a failure is reported, never thrown.
   */
  private call(
    subscription: Subscription<T>,
    position: number,
    kind: Notification,
    object: T,
    newObject: T | undefined,
  ): void | Promise<void> {
    if (subscription.removed || subscription.after >= position || this.stopped) return;
    const h = subscription.handlers;
    let result: unknown;
    try {
      if (kind === 'update') result = h.update?.(object, newObject as T);
      else if (kind === 'add') result = h.add?.(object);
      else if (kind === 'delete') result = h.delete?.(object, FINAL_STATE_KNOWN);
      else result = h.delete?.(object, FINAL_STATE_UNKNOWN);
    } catch (err) {
      this.failed(err, kind);
      return;
    }
    // Only a promise is awaited: any other value (from JavaScript, `(o) => names.push(o)`) is ignored.
    if (isPromise(result)) return result.then(undefined, (err: unknown) => this.failed(err, kind));
  }

  private failed(err: unknown, kind: Notification): void {
    this.onHandlerError(err, kind === 'deleteFinalStateUnknown' ? 'delete' : kind);
  }

  /** The subscriptions as an array (rebuilt only after a change): walked by index, no iterator per notification. */
  private currentSubscriptions(): Subscription<T>[] {
    this.subscriptionList ??= [...this.subscriptions.values()];
    return this.subscriptionList;
  }

  /** Holds delivery until `pending` (an async handler) settles, then goes on. */
  private suspend(pending: Promise<void>): void {
    this.suspended = pending.then(() => {
      this.suspended = undefined;
      this.deliver();
    });
  }

  private async drained(): Promise<void> {
    while (this.suspended) await this.suspended;
  }
}

function isPromise(value: unknown): value is Promise<unknown> {
  return value !== undefined && typeof (value as Promise<unknown>)?.then === 'function';
}
