/**
 * The `Warning` headers of one answer, recorded as kube-apiserver's warning recorder does
 * (k8s.io/apiserver/pkg/endpoints/filters/warning.go `recorder.AddWarning`): each text once, as
 * `299 - "<text>"` with `"` and `\` escaped (k8s.io/apimachinery/pkg/util/net/http.go
 * `NewWarningHeader`), texts with control characters dropped, and past 4 KiB of text in all every
 * warning cut to 256 characters. kubectl prints each as `Warning: <text>`.
 */
import type { ServerResponse } from 'node:http';

const TRUNCATE_AT_TOTAL_RUNES = 4 * 1024;
const TRUNCATE_ITEM_RUNES = 256;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** `299 - "<text>"`; the UTF-8 bytes passed through node's latin1 header encoding unchanged. */
function warningHeader(text: string): string {
  const quoted = `299 - "${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
  return Buffer.from(quoted, 'utf8').toString('latin1');
}

/** Collects one answer's warnings onto its response's headers, before the answer is written. */
export class WarningRecorder {
  private readonly res: ServerResponse;
  // Made on the first warning: most answers have none.
  private recorded: Set<string> | undefined;
  private ordered: string[] | undefined;
  private written = 0;
  private truncating = false;

  constructor(res: ServerResponse) {
    this.res = res;
  }

  /** Adds a warning (a repeated text is ignored). */
  add(text: string): void {
    if (text.length === 0 || this.res.headersSent) return;
    if (this.written >= TRUNCATE_AT_TOTAL_RUNES && this.truncating) return;
    if (!this.recorded || !this.ordered) {
      this.recorded = new Set();
      this.ordered = [];
    }
    if (this.recorded.has(text)) return;
    this.recorded.add(text);
    this.ordered.push(text);
    if (CONTROL.test(text)) return;
    let item = [...text];
    if (this.truncating && item.length > TRUNCATE_ITEM_RUNES) item = item.slice(0, TRUNCATE_ITEM_RUNES);
    if (this.written + item.length <= TRUNCATE_AT_TOTAL_RUNES || this.truncating) {
      this.written += item.length;
      this.res.appendHeader('Warning', warningHeader(item.join('')));
      return;
    }
    // Over the budget: start again with every warning cut short.
    this.truncating = true;
    this.written = 0;
    this.res.removeHeader('Warning');
    for (const each of this.ordered) {
      if (CONTROL.test(each)) continue;
      const cut = [...each].slice(0, TRUNCATE_ITEM_RUNES);
      this.written += cut.length;
      this.res.appendHeader('Warning', warningHeader(cut.join('')));
    }
  }
}
