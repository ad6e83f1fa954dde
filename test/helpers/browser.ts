/**
 * A headless Chromium for the UI tests, driven by playwright-core (which
 * never downloads a browser): the machine's own Chromium, found by
 * {@link findChromium}, launched without its sandbox (tests run as root in CI).
 */
import { type Browser, chromium } from 'playwright-core';
import { findChromium, requireTool } from './tools.js';

/** The Chromium to drive, or undefined after a loud skip warning (throws under CI=true instead). */
export async function chromiumForTests(): Promise<string | undefined> {
  const path = await findChromium();
  return requireTool('chromium (apt-get install chromium)', path !== undefined) ? path : undefined;
}

/** Launches `executablePath` headless; callers close it. */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}
