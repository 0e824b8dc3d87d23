/**
 * The overview at /dashboard: connections by status, the syncs running now with each object's progress (live), the
 * webhook deliveries of the last 24 hours (live) and the latest errors. Read through /dashboard/api/overview,
 * /dashboard/api/syncs/running and /dashboard/api/webhooks/delivery_stats, as the signed-in user.
 */
import type { FastifyInstance } from 'fastify';
import { html, type Html } from '../../html/tag.ts';
import { dashboardFragment, dashboardPage, type DashboardContext } from '../context.ts';
import type { ApiError } from '../api-client.ts';
import { deliveryChart, type DeliveryHour } from './delivery-chart.ts';

interface ConnectionRef {
  id: string;
  name: string | null;
  platform: string | null;
  store_name: string | null;
}

interface Overview {
  connections_by_status: Record<string, number>;
  latest_errors: {
    sync_runs: { id: string; connection: ConnectionRef; kind: string; error: string | null; at: string }[];
    webhook_deliveries: {
      id: string;
      connection_id: string | null;
      connection: ConnectionRef | null;
      code: string;
      attempts: number;
      last_status_code: number | null;
      last_error: string | null;
      at: string;
    }[];
    write_jobs: { id: string; connection: ConnectionRef; object_type: string; operation: string; error: string | null; at: string }[];
    needs_reauth: { connection: ConnectionRef; at: string }[];
  };
}

interface ObjectProgress {
  object_type: string;
  status: string;
  records_read: number;
  pages_read: number;
  expected_records: number | null;
  estimated_completion_at: string | null;
}

interface RunningSync {
  id: string;
  kind: string;
  trigger: string;
  started_at: string | null;
  connection: ConnectionRef;
  objects: ObjectProgress[];
}

interface DeliveryStats {
  hours: DeliveryHour[];
  delivered: number;
  failed: number;
  retrying: { count: number; last_error: string | null; last_status_code: number | null; since: string | null };
}

const STATUS_LABELS: Readonly<Record<string, string>> = {
  active: 'Active',
  unhealthy: 'Unhealthy',
  not_ready: 'Not ready',
  needs_reauth: 'Needs re-authentication',
  disabled: 'Disabled',
};

const RUNNING_FRAGMENT = '/dashboard/fragments/running-syncs';
const DELIVERIES_FRAGMENT = '/dashboard/fragments/delivery-chart';

function when(iso: string | null): Html | string {
  if (iso === null) return '—';
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

/** A connection by the name people know it by (its own, else its account's), its platform beside it, linked to its page. */
function connectionLink(c: ConnectionRef): Html {
  const name = c.name ?? c.store_name;
  return html`<a href="/dashboard/connections/${c.id}" data-testid="connection-link">${name ?? html`Unnamed connection <span class="mono">${c.id.slice(0, 8)}</span>`}</a>${c.platform === null ? '' : html` <span class="muted">(${c.platform})</span>`}`;
}

function apiProblem(error: ApiError): Html {
  return html`<p class="problem" role="alert">${error.error_message}</p>`;
}

function statusCards(counts: Record<string, number>): Html {
  const cards = Object.entries(counts).map(
    ([status, count]) =>
      html`<li class="card" data-testid="connections-${status}"><a href="/dashboard/connections?status=${status}"><span class="n">${count}</span> <span class="badge ${status}">${STATUS_LABELS[status] ?? status}</span></a></li>`,
  );
  return html`<ul class="cards plain" aria-label="Connections by status">${cards}</ul>`;
}

function objectRow(object: ObjectProgress): Html {
  const done = object.status === 'completed';
  const total = done ? Math.max(object.records_read, 1) : object.expected_records;
  const known = total !== null && object.records_read <= total;
  const label = known
    ? `${object.object_type}: ${object.records_read} of about ${total} records`
    : `${object.object_type}: ${object.records_read} records read, total not known yet`;
  const bar = known
    ? html`<progress max="${total}" value="${done ? total : object.records_read}" aria-label="${label}">${label}</progress>`
    : html`<progress aria-label="${label}">${label}</progress>`;
  const eta = done
    ? 'Done'
    : object.estimated_completion_at === null
      ? html`<span class="muted">Unknown</span>`
      : when(object.estimated_completion_at);
  return html`<tr><th scope="row">${object.object_type}</th><td>${bar} <span class="badge ${object.status}">${object.status.replace('_', ' ')}</span></td><td class="num">${object.records_read}${known && !done ? html` <span class="muted">of ~${total}</span>` : ''}</td><td class="num">${object.pages_read}</td><td>${eta}</td></tr>`;
}

function runningSyncs(runs: readonly RunningSync[]): Html {
  if (runs.length === 0) return html`<p data-testid="no-running-sync">No sync is running.</p>`;
  return html`${runs.map(
    (run) => html`<section class="running-sync" data-testid="running-sync" data-run-id="${run.id}">
<h3>${connectionLink(run.connection)}: ${run.kind} sync</h3>
<p class="muted">Started ${when(run.started_at)} (${run.trigger}).</p>
${
  run.objects.length === 0
    ? html`<p>Starting: no object read yet.</p>`
    : html`<table><thead><tr><th scope="col">Object</th><th scope="col">Progress</th><th scope="col" class="num">Records so far</th><th scope="col" class="num">Pages read</th><th scope="col">Estimated completion</th></tr></thead><tbody>${run.objects.map(objectRow)}</tbody></table>`
}
</section>`,
  )}`;
}

async function runningSyncsMarkup(ctx: DashboardContext): Promise<Html> {
  const answer = await ctx.api.get<{ runs: RunningSync[] }>('/dashboard/api/syncs/running');
  return answer.ok ? runningSyncs(answer.body.runs) : apiProblem(answer.error);
}

async function deliveriesMarkup(ctx: DashboardContext): Promise<Html> {
  const answer = await ctx.api.get<DeliveryStats>('/dashboard/api/webhooks/delivery_stats?hours=24');
  return answer.ok ? html`${retryingLine(answer.body.retrying)}${deliveryChart(answer.body.hours, answer.body)}` : apiProblem(answer.error);
}

/** Deliveries failing right now but still retried: the chart counts finished ones only, so "0 failed" would hide them. */
function retryingLine(retrying: DeliveryStats['retrying']): Html {
  if (retrying.count === 0) return html``;
  const cause = retrying.last_error ?? (retrying.last_status_code === null ? null : `HTTP ${retrying.last_status_code}`);
  return html`<p class="problem" role="status" data-testid="deliveries-retrying"><strong>${retrying.count} ${retrying.count === 1 ? 'delivery is' : 'deliveries are'} failing and being retried</strong>${retrying.since === null ? '' : html` (since ${when(retrying.since)})`}${cause === null ? '' : html`: <span class="mono">${cause.slice(0, 200)}</span>`}. <a href="/dashboard/webhooks">See the delivery log</a>.</p>`;
}

function errorList<T>(title: string, testId: string, items: readonly T[], row: (item: T) => Html): Html {
  return html`<h3>${title}</h3>${
    items.length === 0 ? html`<p class="muted" data-testid="${testId}">None.</p>` : html`<ul data-testid="${testId}">${items.map(row)}</ul>`
  }`;
}

function latestErrors(errors: Overview['latest_errors']): Html {
  return html`${errorList(
    'Failed syncs',
    'failed-syncs',
    errors.sync_runs,
    (r) =>
      html`<li>${when(r.at)} ${connectionLink(r.connection)}: ${r.kind} sync failed${r.error === null ? '' : html`: <span class="mono">${r.error.slice(0, 300)}</span>`}</li>`,
  )}
${errorList(
  'Failed webhook deliveries',
  'failed-deliveries',
  errors.webhook_deliveries,
  (d) =>
    html`<li>${when(d.at)} <a href="/dashboard/webhooks">${d.code}</a> after ${d.attempts} attempts${d.last_status_code === null ? '' : html` (last answer ${d.last_status_code})`}${d.last_error === null ? '' : html`: <span class="mono">${d.last_error.slice(0, 300)}</span>`}${d.connection === null ? '' : html` · ${connectionLink(d.connection)}`}</li>`,
)}
${errorList(
  'Failed writes',
  'failed-writes',
  errors.write_jobs,
  (w) =>
    html`<li>${when(w.at)} ${w.operation} ${w.object_type} on ${connectionLink(w.connection)}${w.error === null ? '' : html`: <span class="mono">${w.error.slice(0, 300)}</span>`}</li>`,
)}
${errorList(
  'Connections needing re-authentication',
  'needs-reauth',
  errors.needs_reauth,
  (c) => html`<li>${connectionLink(c.connection)} since ${when(c.at)}</li>`,
)}`;
}

/** An organisation without a connection yet (in this environment) is shown where to start. */
function firstConnectionPrompt(ctx: DashboardContext): Html {
  const env = ctx.environment === 'sandbox' ? ' In the sandbox, SANDBOX connects at once with test books.' : '';
  if (ctx.user.role === 'viewer')
    return html`<div class="callout" data-testid="first-connection"><p><strong>No connections yet.</strong> A developer or admin of your organisation can create the first one.</p></div>`;
  return html`<div class="callout" data-testid="first-connection"><p><strong>No connections yet.</strong> A connection is one business's account on one platform: create one, send its link URL to the business (or open it yourself), and its first sync starts when the link is done.${env}</p>
<p><a class="button" href="/dashboard/connections/new" data-testid="create-first-connection">Create your first connection</a></p></div>`;
}

export function registerOverview(app: FastifyInstance): void {
  dashboardPage(app, '/dashboard', async (ctx) => {
    const overview = await ctx.api.get<Overview>('/dashboard/api/overview');
    if (!overview.ok) return { title: 'Overview', section: 'overview', status: overview.status, body: apiProblem(overview.error) };
    const [running, deliveries] = [await runningSyncsMarkup(ctx), await deliveriesMarkup(ctx)];
    return {
      title: 'Overview',
      section: 'overview',
      body: html`<h2>Connections</h2>
${Object.values(overview.body.connections_by_status).every((n) => n === 0) ? firstConnectionPrompt(ctx) : ''}
${statusCards(overview.body.connections_by_status)}
<h2>Syncs running now</h2>
<div data-live="${RUNNING_FRAGMENT}" aria-live="polite" data-testid="running-syncs">${running}</div>
<h2>Webhook deliveries, last 24 hours</h2>
<div data-live="${DELIVERIES_FRAGMENT}" data-live-every="10000" data-testid="delivery-stats">${deliveries}</div>
<h2>Latest errors</h2>
${latestErrors(overview.body.latest_errors)}`,
    };
  });
  dashboardFragment(app, RUNNING_FRAGMENT, runningSyncsMarkup);
  dashboardFragment(app, DELIVERIES_FRAGMENT, deliveriesMarkup);
}
