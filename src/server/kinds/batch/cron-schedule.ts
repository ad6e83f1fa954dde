/**
 * A CronJob's schedule as kube-apiserver parses it (pkg/util/parsers
 * `ParseCronScheduleWithPanicRecovery`, which runs github.com/robfig/cron/v3 `ParseStandard`):
 * the parser is protocol/cron.ts, shared with the CronJob controller; validation needs only
 * whether it parses and the parser's own error text, quoted as Go quotes.
 */

import { loadLocationError, parseCronSchedule } from '../../../protocol/cron.js';
import { goQuote } from '../field-value.js';

export { loadLocationError };

/**
 * The error `cron.ParseStandard(schedule)` returns, or undefined when it parses. A panic of the
 * parser (a `TZ=` prefix without a space after it) is reported as the recovery words it.
 */
export function cronScheduleError(schedule: string): string | undefined {
  try {
    parseCronSchedule(schedule, goQuote);
    return undefined;
  } catch (err) {
    if (err instanceof Error) return err.message;
    throw err;
  }
}
