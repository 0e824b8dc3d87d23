/**
 * What the dashboard's browser suite needs around Chromium: the service started as `npm start` starts it (fresh data
 * directory, embedded PostgreSQL), the first start's secrets read from its banner, screenshots kept as CI artefacts
 * (test-artifacts/dashboard/), axe-core run in the page, and every console error collected.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ConsoleMessage, Page } from 'playwright-core';
import { ROOT } from './process.ts';

export const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'dashboard');

export interface FirstStartSecrets {
  signInUrl: string;
  adminEmail: string;
  clientId: string;
  clientSecret: string;
  adminToken: string;
}

/** The first start's banner (src/tenants/bootstrap.ts, firstStartBanner), as a newcomer reads it. */
export function firstStartSecrets(output: string): FirstStartSecrets | null {
  const dashboard = /dashboard: sign in as (\S+) once, through (\S+)/.exec(output);
  const sandbox = /sandbox: client_id=(\S+) client_secret=(\S+)/.exec(output);
  const admin = /admin token: (\S+)/.exec(output);
  if (
    dashboard?.[1] === undefined ||
    dashboard[2] === undefined ||
    sandbox?.[1] === undefined ||
    sandbox[2] === undefined ||
    admin?.[1] === undefined
  ) {
    return null;
  }
  return { adminEmail: dashboard[1], signInUrl: dashboard[2], clientId: sandbox[1], clientSecret: sandbox[2], adminToken: admin[1] };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

let axeSource: string | null = null;

/**
 * axe-core's serious and critical violations on the page as it is. Evaluated through the DevTools protocol, which the
 * page's Content-Security-Policy (script-src 'self') does not govern, so the page under test keeps its real policy.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= await readFile(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  // Defines window.axe; code evaluated this way is not the page's own, so its CSP does not stop it.
  await page.evaluate(axeSource);
  const violations = await page.evaluate<AxeViolation[]>(async () => {
    const { axe } = globalThis as { axe?: { run: () => Promise<{ violations: AxeViolation[] }> } };
    if (axe === undefined) throw new Error('axe-core did not load');
    return (await axe.run()).violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Collects what went wrong in the page for its whole life: console errors, uncaught exceptions, and every
 * sub-resource (style sheet, script, icon, live fragment) answered 4xx or 5xx. A document's own status is the test's
 * to assert (a refused password is answered 401 on purpose), so Chromium's "Failed to load resource" line about a
 * document is left to the response check, which skips documents.
 */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => {
    errors.push(`${page.url()}: ${error.message}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && response.request().resourceType() !== 'document') errors.push(`${response.url()}: HTTP ${response.status()}`);
  });
  page.on('requestfailed', (request) => {
    const failure = request.failure()?.errorText ?? 'failed';
    // A live fragment's fetch still in flight when the test navigates away is cancelled by the browser (ERR_ABORTED):
    // the page left, nothing failed. On a loaded machine a fragment is often still on its way.
    if (failure === 'net::ERR_ABORTED' && request.resourceType() === 'fetch') return;
    if (request.resourceType() !== 'document') errors.push(`${request.url()}: ${failure}`);
  });
  return errors;
}
