/**
 * The AGE / LAST SEEN cells of `kubectl get`: apimachinery's
 * `duration.HumanDuration` and the printers' `translateTimestampSince`.
 * Integer maths mirror Go's: `int(d.Seconds())` and `d / time.Minute`
 * truncate toward zero.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * apimachinery `duration.HumanDuration`: about 2-3 significant figures, e.g.
 * `45s`, `119s`, `2m5s`, `15m`, `3h20m`, `30h`, `3d4h`, `200d`, `2y100d`, `9y`.
 * Up to one second in the future is "0s" (clock skew); further is `<invalid>`.
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / MINUTE);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) {
    const dy = days % 365;
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${years}y`;
}

/** Milliseconds since the epoch of an RFC 3339 (or MicroTime) string; undefined for absent or unparsable. */
export function parseTimestamp(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * The printers' `translateTimestampSince`: `<unknown>` for a zero (absent)
 * timestamp, else {@link humanDuration} of `now - timestamp`.
 */
export function translateTimestampSince(timestamp: unknown, now: number): string {
  const ms = parseTimestamp(timestamp);
  return ms === undefined ? '<unknown>' : humanDuration(now - ms);
}
