/** Debian's Chromium for browser tests (apt-get install -y chromium): never a downloaded browser. */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** CI installs Chromium (.ci/run) and must run the browser tests; elsewhere, without it, they are skipped with a notice. */
export const runBrowserTests = existsSync(CHROMIUM) || process.env.CI === 'true';
if (!runBrowserTests) process.stderr.write(`browser tests skipped: ${CHROMIUM} is missing (apt-get install -y chromium)\n`);

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\``);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
