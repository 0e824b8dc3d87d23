/**
 * API keys: the client id of each environment with its active secrets, and the rotation of a secret (admin). The
 * new secret is shown once, on the answer to the rotation form itself: never in a URL (a redirect would have to carry
 * it), never stored, and the answer is not cached (no-store).
 */
import type { FastifyInstance } from 'fastify';
import { html, type Html } from '../../html/tag.ts';
import { ENVIRONMENTS } from '../../tenants/types.ts';
import { dashboardActionPage, dashboardPage, formValue, type DashboardContext, type FormBody, type PageResult } from '../context.ts';
import { csrf, forRole, orgUrl, when } from './settings-shared.ts';

const PAGE = '/dashboard/api-keys';

interface Credential {
  environment: string;
  client_id: string;
  created_at: string;
  active_secrets: { created_at: string; expires_at: string | null }[];
}

interface Rotated {
  environment: string;
  client_id: string;
  client_secret: string;
  previous_secret_expires_at: string;
}

const GRACE_PERIODS: readonly { seconds: number; label: string }[] = [
  { seconds: 0, label: 'none: the old secret stops now' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours' },
  { seconds: 7 * 86_400, label: '7 days' },
  { seconds: 30 * 86_400, label: '30 days (the most)' },
];

function credentialsTable(credentials: readonly Credential[]): Html {
  const rows = credentials.map((c) => {
    const secrets = c.active_secrets.map((s, i) =>
      s.expires_at === null
        ? html`<li>${i === 0 ? 'current' : 'older'} secret, issued ${when(s.created_at)}, no expiry</li>`
        : html`<li>${i === 0 ? 'current' : 'previous'} secret, issued ${when(s.created_at)}, <strong>stops working ${when(s.expires_at)}</strong></li>`,
    );
    return html`<tr><th scope="row">${c.environment}</th><td><code class="mono" id="client-id-${c.environment}">${c.client_id}</code> <button type="button" class="secondary" data-copy="client-id-${c.environment}" hidden>Copy<span class="skip"> ${c.environment} client id</span></button></td><td>${when(c.created_at)}</td><td><ul>${secrets}</ul></td></tr>`;
  });
  return html`<table data-testid="credentials"><thead><tr><th scope="col">Environment</th><th scope="col">Client id</th><th scope="col">Created</th><th scope="col">Active secrets</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function rotateForm(ctx: DashboardContext): Html {
  const environments = ENVIRONMENTS.map((env) => html`<option value="${env}"${env === ctx.environment ? html` selected` : ''}>${env}</option>`);
  const graces = GRACE_PERIODS.map((g) => html`<option value="${g.seconds}"${g.seconds === 86_400 ? html` selected` : ''}>${g.label}</option>`);
  return forRole(
    ctx,
    'admin',
    html`<form method="post" action="${PAGE}/rotate" class="stack" data-testid="rotate-secret" data-confirm="Issue a new client secret? The old one stops working when the grace period ends.">${csrf(ctx)}
<div class="field"><label for="rotate-environment">Environment</label><select id="rotate-environment" name="environment">${environments}</select></div>
<div class="field"><label for="rotate-grace">Grace period of the old secret</label><select id="rotate-grace" name="grace_period_seconds">${graces}</select></div>
<button type="submit">Rotate the secret</button></form>`,
  );
}

async function keysBody(ctx: DashboardContext): Promise<Html> {
  const answer = await ctx.api.get<{ credentials: Credential[] }>('/dashboard/api/credentials');
  return html`<h2>Client credentials</h2>
<p>Your API calls authenticate with HTTP Basic: the client id as user name, its secret as password. Secrets are shown once, when issued, and cannot be shown again.</p>
${answer.ok ? credentialsTable(answer.body.credentials) : html`<p class="problem" role="alert">${answer.error.error_message}</p>`}
<h2 id="rotate">Rotate a secret</h2>
<p>The new secret works at once. The old one keeps working, for API calls and as a second webhook signature (<span class="mono">X-Service-Signatures</span>), until the grace period ends: time to deploy the new one. Webhooks are signed with the newest secret.</p>
${rotateForm(ctx)}`;
}

/** The rotation form's answer is a page, not a redirect, so the secret never travels in a URL. */
async function rotateAnswer(ctx: DashboardContext, body: FormBody): Promise<PageResult> {
  const grace = Number(formValue(body, 'grace_period_seconds'));
  const answer = await ctx.api.send<Rotated>('POST', orgUrl(ctx, '/credentials/rotate'), {
    environment: formValue(body, 'environment'),
    // Not a number: sent as the text it is, for the API's own 400.
    grace_period_seconds: Number.isInteger(grace) && formValue(body, 'grace_period_seconds') !== '' ? grace : formValue(body, 'grace_period_seconds'),
  });
  const shown = answer.ok
    ? html`<section class="secret" data-testid="new-secret" aria-labelledby="new-secret-heading">
<h2 id="new-secret-heading">New ${answer.body.environment} client secret</h2>
<p>Copy it now: it is shown this once and cannot be shown again. Client id <code class="mono">${answer.body.client_id}</code>.</p>
<p><code id="new-secret">${answer.body.client_secret}</code> <button type="button" data-copy="new-secret" hidden>Copy the secret</button></p>
<p>The previous secret stops working ${when(answer.body.previous_secret_expires_at)}.</p>
</section>`
    : '';
  return {
    title: 'API keys',
    section: 'keys',
    status: answer.ok ? 200 : answer.status,
    body: html`${shown}${await keysBody(ctx)}`,
    ...(answer.ok ? { notice: `The ${answer.body.environment} client secret is rotated.` } : { problem: answer.error.error_message }),
  };
}

export function registerApiKeysPage(app: FastifyInstance): void {
  dashboardPage(app, PAGE, async (ctx) => ({ title: 'API keys', section: 'keys', body: await keysBody(ctx) }));
  dashboardActionPage(app, `${PAGE}/rotate`, rotateAnswer);
}
