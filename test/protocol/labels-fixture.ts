/** The parse-expecting helper the label selector suites share. */
import { type LabelSelector, parseLabelSelector, SelectorError } from '../../src/protocol/labels.js';

/** Parses, expecting only success or a SelectorError; anything else fails the test. */
export function tryParse(text: string): LabelSelector | SelectorError {
  try {
    return parseLabelSelector(text);
  } catch (err) {
    if (err instanceof SelectorError) return err;
    throw new Error(`non-SelectorError for ${JSON.stringify(text)}: ${String(err)}`);
  }
}
