/**
 * Webhooks: the address of each environment, a signed test event, the delivery log of the environment (live, paged,
 * every attempt of a chosen delivery), retry and replay. Everything goes through the admin API's webhook endpoints
 * (their contracts let a session in) and POST /dashboard/api/webhooks/test.
 */
import type { FastifyInstance } from 'fastify';
import { html, type Html } from '../../html/tag.ts';
import { ENVIRONMENTS } from '../../tenants/types.ts';
import { dashboardAction, dashboardFragment, dashboardPage, formValue, back, type DashboardContext } from '../context.ts';
import { csrf, forRole, orgUrl, outcome, when } from './settings-shared.ts';
import { badge, UUID } from '../components.ts';
import type { AttemptView, DeliveryView } from '../../webhooks/admin.ts';

const PAGE = '/dashboard/webhooks';
const LOG_FRAGMENT = '/dashboard/fragments/webhook-deliveries';
const PAGE_SIZE = 20;

interface Webhook {
  environment: string;
  url: string;
  updated_at: string;
}

// The admin API's answers (src/webhooks/admin.ts), read as the service defines them.
type Delivery = DeliveryView;
type Attempt = AttemptView;

interface TestOutcome {
  url: string;
  delivered: boolean;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

function addresses(ctx: DashboardContext, webhooks: readonly Webhook[]): Html {
  const rows = ENVIRONMENTS.map((environment) => {
    const hook = webhooks.find((w) => w.environment === environment);
    return html`<tr><th scope="row">${environment}</th>
<td>${hook === undefined ? html`<span class="muted">Not set: no deliveries</span>` : html`<span class="mono">${hook.url}</span>`}</td>
<td>${hook === undefined ? '—' : when(hook.updated_at)}</td>
<td>${
      hook === undefined
        ? ''
        : forRole(
            ctx,
            'developer',
            html`<form class="inline" method="post" action="${PAGE}/remove" data-confirm="Remove the ${environment} webhook address? New events will not be delivered.">${csrf(ctx)}<input type="hidden" name="environment" value="${environment}"><button type="submit" class="danger">Remove ${environment} address</button></form>`,
          )
    }</td></tr>`;
  });
  const options = ENVIRONMENTS.map((env) => html`<option value="${env}"${env === ctx.environment ? html` selected` : ''}>${env}</option>`);
  return html`<table><thead><tr><th scope="col">Environment</th><th scope="col">Address</th><th scope="col">Changed</th><th scope="col">Remove</th></tr></thead><tbody>${rows}</tbody></table>
${forRole(
  ctx,
  'developer',
  html`<form method="post" action="${PAGE}/url" data-testid="webhook-url-form" class="stack">${csrf(ctx)}
<div class="field"><label for="webhook-environment">Environment</label><select id="webhook-environment" name="environment">${options}</select></div>
<div class="field"><label for="webhook-url">Address (http or https; events are POSTed there, signed)</label><input type="url" id="webhook-url" name="url" required maxlength="2000" placeholder="https://example.com/webhooks/ledgerport"></div>
<button type="submit">Save address</button></form>`,
)}`;
}

/** The environment's delivery log, newest first: the same markup on the page and in its live fragment. */
async function deliveryLog(ctx: DashboardContext, cursor: string): Promise<Html> {
  const query = new URLSearchParams({ environment: ctx.environment, limit: String(PAGE_SIZE) });
  if (cursor !== '') query.set('cursor', cursor);
  const answer = await ctx.api.get<{ deliveries: Delivery[]; next_cursor: string | null }>(
    `${orgUrl(ctx, '/webhook/deliveries')}?${query.toString()}`,
  );
  if (!answer.ok) return html`<p class="problem" role="alert">${answer.error.error_message}</p>`;
  const { deliveries, next_cursor: next } = answer.body;
  if (deliveries.length === 0) return html`<p class="muted">No deliveries in ${ctx.environment}${cursor === '' ? '' : ' on this page'} yet.</p>`;
  const rows = deliveries.map(
    (d) => html`<tr data-delivery="${d.id}"><td>${when(d.created_at)}</td><td class="mono">${d.code}</td><td>${badge(d.status)}</td>
<td class="num">${d.attempts}</td><td>${d.last_status_code ?? '—'}</td><td>${d.last_error ?? ''}</td>
<td>${d.replay_of === null ? '' : html`<span class="muted">re-send of <a href="${PAGE}?delivery=${d.replay_of}#attempts">${d.replay_of.slice(0, 8)}</a></span>`}</td>
<td><a href="${PAGE}?delivery=${d.id}#attempts">Attempts<span class="skip"> of delivery ${d.id}</span></a>
${forRole(ctx, 'developer', html`<form class="inline" method="post" action="${PAGE}/retry" data-testid="retry-delivery">${csrf(ctx)}<input type="hidden" name="delivery_id" value="${d.id}"><button type="submit" class="secondary">Retry<span class="skip"> delivery ${d.id}</span></button></form>`)}</td></tr>`,
  );
  return html`<table><thead><tr><th scope="col">Created</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col" class="num">Attempts</th><th scope="col">Last HTTP status</th><th scope="col">Last error</th><th scope="col">Re-send</th><th scope="col">Actions</th></tr></thead><tbody>${rows}</tbody></table>
<p class="pager">${cursor === '' ? '' : html`<a href="${PAGE}">Newest</a>`}${next === null ? '' : html`<a href="${PAGE}?cursor=${encodeURIComponent(next)}">Older deliveries</a>`}</p>`;
}

async function attempts(ctx: DashboardContext, deliveryId: string): Promise<Html> {
  if (!UUID.test(deliveryId)) return html`<p class="problem" role="alert">"${deliveryId.slice(0, 40)}" is not a delivery id.</p>`;
  const answer = await ctx.api.get<{ delivery: Delivery & { attempts_log: Attempt[] } }>(orgUrl(ctx, `/webhook/deliveries/${deliveryId}`));
  if (!answer.ok) return html`<p class="problem" role="alert">${answer.error.error_message}</p>`;
  const d = answer.body.delivery;
  // The log is the environment's: a delivery of the other one is shown where the switch says.
  if (d.environment !== ctx.environment) {
    return html`<p class="problem" role="alert">Delivery ${d.id} belongs to the ${d.environment} environment: switch to it to see its attempts.</p>`;
  }
  const rows = d.attempts_log.map(
    (a) =>
      html`<tr><td class="num">${a.attempt}</td><td>${when(a.started_at)}</td><td class="num">${a.duration_ms} ms</td><td>${a.status_code ?? 'no answer'}</td><td>${a.error ?? ''}</td><td>${a.response_excerpt === null ? '—' : html`<pre tabindex="0">${a.response_excerpt}</pre>`}</td></tr>`,
  );
  return html`<h3 id="attempts">Attempts of delivery <span class="mono">${d.id}</span> (${d.code}, ${badge(d.status)})</h3>
${rows.length === 0 ? html`<p class="muted">No attempt yet; the next is due ${when(d.next_attempt_at)}.</p>` : html`<table data-testid="delivery-attempts"><thead><tr><th scope="col" class="num">Attempt</th><th scope="col">Started</th><th scope="col" class="num">Duration</th><th scope="col">HTTP status</th><th scope="col">Error</th><th scope="col">Answer (first KiB)</th></tr></thead><tbody>${rows}</tbody></table>`}`;
}

/** A datetime-local value read as UTC (the form says so), as the API's date-time. */
function utc(value: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) ? `${value}:00Z` : value;
}

export function registerWebhooksPage(app: FastifyInstance): void {
  dashboardPage(app, PAGE, async (ctx) => {
    const hooks = await ctx.api.get<{ webhooks: Webhook[] }>(orgUrl(ctx, '/webhook'));
    const cursor = ctx.query.cursor ?? '';
    const liveUrl = cursor === '' ? LOG_FRAGMENT : `${LOG_FRAGMENT}?cursor=${encodeURIComponent(cursor)}`;
    const selected = ctx.query.delivery;
    return {
      title: 'Webhooks',
      section: 'webhooks',
      body: html`<h2>Addresses</h2>
${hooks.ok ? addresses(ctx, hooks.body.webhooks) : html`<p class="problem" role="alert">${hooks.error.error_message}</p>`}
<h2>Send a test event</h2>
<p>Sends a signed <span class="mono">WEBHOOK_TEST</span> event to the ${ctx.environment} address now and shows what your receiver answered. It is not stored, not in the log below and not retried.</p>
${forRole(ctx, 'developer', html`<form method="post" action="${PAGE}/test" data-testid="send-test-event">${csrf(ctx)}<button type="submit">Send a test event to ${ctx.environment}</button></form>`)}
<h2>Delivery log (${ctx.environment})</h2>
<p class="muted">Newest first; updates by itself. Each delivery is retried for 15 minutes, then marked failed.</p>
<div data-live="${liveUrl}" aria-live="polite" data-testid="delivery-log">${await deliveryLog(ctx, cursor)}</div>
${selected === undefined ? '' : await attempts(ctx, selected)}
<h2>Replay failed deliveries</h2>
${forRole(
  ctx,
  'developer',
  html`<form method="post" action="${PAGE}/replay" class="filters" data-testid="replay-deliveries">${csrf(ctx)}
<div class="field"><label for="replay-from">From (UTC, inclusive)</label><input type="datetime-local" id="replay-from" name="from" required></div>
<div class="field"><label for="replay-to">To (UTC, exclusive)</label><input type="datetime-local" id="replay-to" name="to" required></div>
<button type="submit">Replay ${ctx.environment} failures</button></form>
<p class="muted">Every failed delivery created in the range (at most 31 days) and not re-sent before is sent again, once.</p>`,
)}
<h2>Signing secret</h2>
<p>Deliveries are signed with the environment's client secret (<span class="mono">X-Service-Signature</span>, HMAC-SHA256). When you rotate it, the old secret keeps working for the grace period you choose and deliveries carry both signatures in <span class="mono">X-Service-Signatures</span> until it ends, so your receiver can switch without losing events.</p>
<p><a href="/dashboard/api-keys#rotate" data-testid="rotate-secret">Rotate the signing secret on the API keys page</a></p>`,
    };
  });

  dashboardFragment(app, LOG_FRAGMENT, (ctx) => deliveryLog(ctx, ctx.query.cursor ?? ''));

  dashboardAction(app, `${PAGE}/url`, async (ctx, body) => {
    const answer = await ctx.api.send<{ webhook: Webhook }>('PUT', orgUrl(ctx, '/webhook'), {
      environment: formValue(body, 'environment'),
      url: formValue(body, 'url').trim(),
    });
    return outcome(PAGE, answer, (b) => `The ${b.webhook.environment} webhook address is now ${b.webhook.url}.`);
  });

  dashboardAction(app, `${PAGE}/remove`, async (ctx, body) => {
    const environment = formValue(body, 'environment');
    const answer = await ctx.api.send('DELETE', `${orgUrl(ctx, '/webhook')}?environment=${encodeURIComponent(environment)}`);
    return outcome(PAGE, answer, () => `The ${environment} webhook address is removed; new events of ${environment} are not delivered.`);
  });

  dashboardAction(app, `${PAGE}/test`, async (ctx) => {
    const answer = await ctx.api.send<{ test: TestOutcome }>('POST', '/dashboard/api/webhooks/test', {});
    if (!answer.ok) return back(PAGE, { problem: answer.error.error_message });
    const t = answer.body.test;
    const what = `${t.url} answered ${t.status_code ?? 'nothing'} in ${t.duration_ms} ms${t.error === null ? '' : ` (${t.error})`}`;
    return t.delivered ? back(PAGE, { notice: `Test event delivered: ${what}.` }) : back(PAGE, { problem: `Test event not delivered: ${what}.` });
  });

  dashboardAction(app, `${PAGE}/retry`, async (ctx, body) => {
    const id = formValue(body, 'delivery_id');
    if (!UUID.test(id)) return back(PAGE, { problem: 'Choose a delivery to retry from the log.' });
    const answer = await ctx.api.send<{ delivery: Delivery }>('POST', orgUrl(ctx, `/webhook/deliveries/${id}/retry`), {});
    return outcome(PAGE, answer, (b) => `Delivery ${id} is re-sent as ${b.delivery.id} (pending, retried for 15 minutes).`);
  });

  dashboardAction(app, `${PAGE}/replay`, async (ctx, body) => {
    const answer = await ctx.api.send<{ replayed: number }>('POST', orgUrl(ctx, '/webhook/deliveries/replay'), {
      from: utc(formValue(body, 'from')),
      to: utc(formValue(body, 'to')),
      environment: ctx.environment,
    });
    return outcome(PAGE, answer, (b) => `${b.replayed} failed ${b.replayed === 1 ? 'delivery is' : 'deliveries are'} sent again.`);
  });
}
