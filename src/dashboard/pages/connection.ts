/**
 * One connection at /dashboard/connections/:id: its status and the reasons behind it, the link URL while it needs
 * the business, per-object sync state and the sync history (live while a sync runs), its events and write jobs, and
 * the actions (sync, backfill, rename, new access token, delete), each through the API as the signed-in user. The
 * connection's access token is looked up server-side to call the API and never rendered, except the new one after
 * an invalidation, once, on that action's answer page.
 */
import type { FastifyInstance } from 'fastify';
import { html, type Html } from '../../html/tag.ts';
import {
  back,
  dashboardAction,
  dashboardActionPage,
  dashboardFragment,
  dashboardPage,
  formValue,
  formValues,
  type DashboardContext,
} from '../context.ts';
import { type ConnectionAnswer, type SyncRunView, type SyncsAnswer } from './connections-parts.ts';
import { connectionAccessToken } from '../connection-token.ts';
import { apiProblem, badge, csrfField, duration, UUID, when } from '../components.ts';

interface StatusAnswer {
  status: {
    is_healthy: boolean;
    needs_update_status: { needs_update: boolean };
    disabled_status: { is_disabled: boolean; disabled_reason: string | null };
    last_sync_completed_at: string | null;
    platform_pause: { paused_until: string; reason: string } | null;
    initial_sync: { status: string; objects_total: number; objects_completed: number; progress: number };
  };
}

interface EventsAnswer {
  events: { id: string; type: string; code: string; created_at: string; payload: Record<string, unknown> }[];
  next_cursor: string | null;
}

interface JobsAnswer {
  jobs: {
    id: string;
    object_type: string;
    operation: string;
    status: string;
    attempts: number;
    response_status: number | null;
    created_at: string;
    updated_at: string;
  }[];
  next_cursor: string | null;
}

type Connection = ConnectionAnswer['connection'];

function idOf(ctx: DashboardContext): string {
  const params = ctx.request.params as Record<string, unknown>;
  return typeof params.id === 'string' ? params.id : '';
}

/**
 * The connection or null (unknown, another organisation's, malformed), with its access token found on the server for
 * the page's own API calls: the API masks tokens in its answers to sessions.
 */
async function loadConnection(ctx: DashboardContext, id: string): Promise<Connection | null> {
  if (!UUID.test(id)) return null;
  const answer = await ctx.api.get<ConnectionAnswer>(`/dashboard/api/connections/${id}`);
  if (!answer.ok) return null;
  const token = await connectionAccessToken(ctx, id);
  return token === null ? null : { ...answer.body.connection, access_token: token };
}

const NOT_FOUND = {
  title: 'Connection not found',
  section: 'connections' as const,
  status: 404,
  body: html`<p class="problem" role="alert" data-testid="connection-not-found">No connection with this id in this organisation and environment (check the environment switch).</p>
<p><a href="/dashboard/connections">Back to connections</a></p>`,
};

function changes(counts: { created: number; updated: number; deleted: number }): string {
  return `${counts.created} new, ${counts.updated} changed, ${counts.deleted} deleted`;
}

/** What the running (or queued) run has read of each object so far. */
function progress(run: SyncRunView, objectCount: number): Html {
  const rows = run.objects.map(
    (o) =>
      html`<tr data-testid="progress-object" data-entity="${o.entity}"><th scope="row">${o.entity}</th><td class="num">${o.records_read}</td><td class="num">${o.pages_read}</td><td class="num">${changes(o)}</td></tr>`,
  );
  return html`<div data-testid="sync-progress"><p>${run.kind} sync ${run.status}: ${run.records_read} records in ${run.pages_read} pages so far, ${run.objects.length} of ${objectCount} objects started.</p>
${run.objects.length === 0 ? '' : html`<table><caption class="muted">Progress of the running sync</caption><thead><tr><th scope="col">Object</th><th scope="col" class="num">Records so far</th><th scope="col" class="num">Pages</th><th scope="col" class="num">Changes</th></tr></thead><tbody>${rows}</tbody></table>`}</div>`;
}

function runRow(run: SyncRunView): Html {
  const what =
    run.backfill !== null
      ? `${run.backfill.entity} ${run.backfill.start_date} – ${run.backfill.end_date}`
      : run.object_types === null
        ? 'all objects'
        : run.object_types.length === 0
          ? 'no objects'
          : run.object_types.join(', ');
  return html`<tr data-testid="sync-run" data-kind="${run.kind}" data-status="${run.status}">
  <td>${run.kind}<br><span class="muted">${run.trigger}</span></td>
  <td>${what}</td>
  <td>${badge(run.status)}${run.attempts > 1 ? html`<br><span class="muted">${run.attempts} attempts</span>` : ''}</td>
  <td>${when(run.started_at ?? run.created_at)}</td>
  <td class="num">${run.duration_ms === null ? (run.status === 'running' ? 'running' : '') : duration(run.duration_ms)}</td>
  <td class="num" data-testid="run-records">${run.records_read}<br><span class="muted">${run.pages_read} pages</span></td>
  <td class="num" data-testid="run-changes">${changes(run)}</td>
  <td>${run.failed_objects.length === 0 ? '' : html`Failed: ${run.failed_objects.join(', ')}<br>`}${run.error ?? ''}</td>
</tr>`;
}

/** The live part: sync state, per-object progress and the runs (the page's script re-fetches it every 2 s). */
function runsTable(runs: readonly SyncRunView[]): Html {
  return html`<table data-testid="sync-runs"><thead><tr><th scope="col">Sync</th><th scope="col">Objects</th><th scope="col">Outcome</th><th scope="col">Started</th><th scope="col" class="num">Duration</th><th scope="col" class="num">Records read</th><th scope="col" class="num">Changes</th><th scope="col">Failures</th></tr></thead><tbody>${runs.map(runRow)}</tbody></table>`;
}

/** The link to the next (older) page of a list, when there is one. */
function older(cursor: string | null, path: string, label: string): Html {
  return cursor === null ? html`` : html`<p class="pager"><a href="${path}?cursor=${encodeURIComponent(cursor)}" rel="next">${label}</a></p>`;
}

function syncsMarkup(id: string, syncs: SyncsAnswer): Html {
  const running = syncs.runs.find((r) => r.status === 'running' || r.status === 'queued');
  const initial = syncs.runs.find((r) => r.kind === 'initial');
  const state = syncState(syncs, running, initial);
  const objects = syncs.objects.map(
    (o) => html`<tr data-testid="sync-object" data-entity="${o.entity}">
  <th scope="row">${o.entity}</th>
  <td>${o.ready ? badge('ready') : badge('not_ready')} ${badge(o.status)}</td>
  <td class="num">${o.stored_records}</td>
  <td class="num">${o.status === 'in_progress' ? html`${o.records_read} read, ${o.pages_read} pages` : html`${o.records_read} / ${o.pages_read}`}</td>
  <td>${when(o.last_completed_at)}</td>
  <td>${o.error ?? ''}</td>
</tr>`,
  );
  return html`<p>Connection status: ${badge(syncs.connection_status, 'connection-status')}</p>
<p>Sync state: <strong data-testid="sync-state" data-ready="${syncs.is_ready ? 'true' : 'false'}">${state}</strong></p>
<p>Last completed sync: <span data-testid="last-completed-sync">${when(syncs.last_sync_completed_at)}</span></p>
${running === undefined ? '' : progress(running, syncs.objects.length)}
<h3>Objects</h3>
${
  syncs.objects.length === 0
    ? html`<p class="muted">No objects yet: the platform is chosen in the link flow.</p>`
    : html`<table data-testid="sync-objects"><thead><tr><th scope="col">Object</th><th scope="col">State</th><th scope="col" class="num">Records stored</th><th scope="col" class="num">Records read / pages (all syncs)</th><th scope="col">Last complete read</th><th scope="col">Error</th></tr></thead><tbody>${objects}</tbody></table>`
}
<h3>Sync history</h3>
${syncs.runs.length === 0 ? html`<p class="muted" data-testid="no-syncs">No syncs yet.</p>` : runsTable(syncs.runs)}
${older(syncs.next_cursor, `/dashboard/connections/${id}/history`, 'Older syncs')}`;
}

/**
 * What the connection's syncs are doing, as its status and latest run say: "ready" only when nothing stops or failed
 * them (a connection that is unhealthy, disabled or needs re-authentication, or whose last sync failed, says so).
 */
function syncState(syncs: SyncsAnswer, running: SyncRunView | undefined, initial: SyncRunView | undefined): string {
  if (syncs.connection_status === 'disabled') return 'stopped: the connection is disabled';
  if (syncs.connection_status === 'needs_reauth') return 'stopped: the connection needs re-authentication';
  if (!syncs.is_ready) return initial === undefined ? 'waiting for the link' : `initial sync ${initial.status}`;
  if (running !== undefined) return `ready, ${running.kind} sync ${running.status}`;
  const latest = syncs.runs[0];
  if (latest?.status === 'failed') return `ready, but the last ${latest.kind} sync failed`;
  if (syncs.connection_status === 'unhealthy') return 'unhealthy: recent syncs failed';
  return 'ready';
}

async function syncsSection(ctx: DashboardContext, id: string): Promise<{ markup: Html; syncs: SyncsAnswer | null }> {
  const answer = await ctx.api.get<SyncsAnswer>(`/dashboard/api/connections/${id}/syncs`);
  if (!answer.ok) return { markup: html`<p class="problem" role="alert">${apiProblem(answer)}</p>`, syncs: null };
  return { markup: syncsMarkup(id, answer.body), syncs: answer.body };
}

function reasons(connection: Connection, status: StatusAnswer['status'] | null): Html {
  const items: Html[] = [];
  if (connection.platform === null || connection.store_unique_id === null)
    items.push(html`<li>Not linked yet: the business has not finished the link flow.</li>`);
  if (status?.needs_update_status.needs_update === true)
    items.push(
      html`<li data-testid="needs-reauth">Needs re-authentication: the platform refused the stored credentials. Send the business the link URL below.</li>`,
    );
  if (status?.disabled_status.is_disabled === true)
    items.push(
      html`<li data-testid="disabled-reason">Disabled (${connection.disable_error ?? status.disabled_status.disabled_reason ?? 'UNKNOWN'}): ${connection.disable_message ?? 'no message'}</li>`,
    );
  if (status !== null && !status.is_healthy && connection.status === 'unhealthy')
    items.push(html`<li>Unhealthy: recent syncs keep failing (see the errors below).</li>`);
  if (status?.platform_pause != null)
    items.push(html`<li>Platform calls paused until ${when(status.platform_pause.paused_until)}: ${status.platform_pause.reason}</li>`);
  return items.length === 0 ? html`<p class="muted">Nothing needs attention.</p>` : html`<ul data-testid="status-reasons">${items}</ul>`;
}

function linkSection(connection: Connection): Html {
  const disabled = connection.status === 'disabled';
  const needsBusiness = connection.store_unique_id === null || connection.status === 'needs_reauth' || disabled;
  if (!needsBusiness) return html``;
  const why =
    connection.status === 'needs_reauth'
      ? 'The business signs in again here.'
      : disabled
        ? 'The connection is disabled (see why below). Its link URL, for when the business is to link its account again:'
        : 'The business connects its account here.';
  return html`<h2>Link URL</h2>
<p>${why}</p>
<p><code id="link-url" class="mono" data-testid="link-url">${connection.link_url}</code> <button type="button" data-copy="link-url" hidden>Copy</button></p>
<p><a href="${connection.link_url}" data-testid="open-link-flow">Open the link flow</a></p>`;
}

function actions(ctx: DashboardContext, connection: Connection, entities: string[]): Html {
  if (ctx.user.role === 'viewer')
    return html`<h2>Actions</h2><p class="muted">Your role (viewer) reads only: a developer or admin can sync, rename or delete this connection.</p>`;
  const base = `/dashboard/connections/${connection.id}`;
  const csrf = csrfField(ctx.user.csrfToken);
  const checkboxes = entities.map((e) => html`<label class="check"><input type="checkbox" name="object_types" value="${e}" checked> ${e}</label> `);
  const entityOptions = entities.map((e) => html`<option value="${e}">${e}</option>`);
  const linked = connection.store_unique_id !== null;
  return html`<h2>Actions</h2>
<div class="actions">
${
  linked
    ? html`<form method="post" action="${base}/sync" data-testid="sync-form">${csrf}
  <fieldset><legend>Incremental sync</legend>${checkboxes}</fieldset>
  <button type="submit">Sync now</button></form>
<form method="post" action="${base}/backfill" data-testid="backfill-form">${csrf}
  <fieldset><legend>Backfill</legend>
  <div class="field"><label for="backfill-entity">Object</label><select id="backfill-entity" name="entity">${entityOptions}</select></div>
  <div class="field"><label for="backfill-start">From</label><input id="backfill-start" name="start_date" type="date" required></div>
  <div class="field"><label for="backfill-end">To</label><input id="backfill-end" name="end_date" type="date" required></div></fieldset>
  <button type="submit">Backfill</button></form>`
    : ''
}
<form method="post" action="${base}/rename" data-testid="rename-form">${csrf}
  <fieldset><legend>Rename</legend>
  <div class="field"><label for="rename-name">Name</label><input id="rename-name" name="name" type="text" maxlength="200" value="${connection.name ?? ''}"></div></fieldset>
  <button type="submit" class="secondary">Rename</button></form>
<form method="post" action="${base}/invalidate-token" data-testid="invalidate-form" data-confirm="Replace this connection's access token? The current one stops working at once.">${csrf}
  <p>New access token: the current one stops working.</p>
  <button type="submit" class="secondary">Invalidate the access token</button></form>
<form method="post" action="${base}/delete" data-testid="delete-form" data-confirm="Delete this connection and its stored data? This cannot be undone.">${csrf}
  <p>Delete the connection and its stored copy.</p>
  <button type="submit" class="danger">Delete</button></form>
</div>`;
}

function eventsSection(id: string, answer: { ok: true; body: EventsAnswer } | { ok: false; text: string }): Html {
  if (!answer.ok) return html`<p class="problem" role="alert">${answer.text}</p>`;
  if (answer.body.events.length === 0) return html`<p class="muted">No events yet.</p>`;
  return html`${eventsTable(answer.body)}${older(answer.body.next_cursor, `/dashboard/connections/${id}/events`, 'Older events')}`;
}

function eventsTable(body: EventsAnswer): Html {
  return html`<table data-testid="connection-events"><thead><tr><th scope="col">When</th><th scope="col">Code</th><th scope="col">Details</th></tr></thead><tbody>${body.events.map(
    (e) =>
      html`<tr data-testid="connection-event" data-code="${e.code}"><td>${when(e.created_at)}</td><td>${e.code}</td><td class="mono">${JSON.stringify(
        Object.fromEntries(Object.entries(e.payload).filter(([name]) => !['type', 'code', 'connection_id'].includes(name))),
      )}</td></tr>`,
  )}</tbody></table>`;
}

function jobsSection(id: string, answer: { ok: true; body: JobsAnswer } | { ok: false; text: string }): Html {
  if (!answer.ok) return html`<p class="problem" role="alert">${answer.text}</p>`;
  if (answer.body.jobs.length === 0) return html`<p class="muted">No write jobs.</p>`;
  return html`${jobsTable(answer.body)}${older(answer.body.next_cursor, `/dashboard/connections/${id}/write-jobs`, 'Older write jobs')}`;
}

function jobsTable(body: JobsAnswer): Html {
  return html`<table data-testid="write-jobs"><thead><tr><th scope="col">Job</th><th scope="col">Write</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col">Updated</th></tr></thead><tbody>${body.jobs.map(
    (j) =>
      html`<tr><td class="mono">${j.id}</td><td>${j.operation} ${j.object_type}</td><td>${badge(j.status)}${j.response_status === null ? '' : html` <span class="muted">HTTP ${j.response_status}</span>`}</td><td>${when(j.created_at)}</td><td>${when(j.updated_at)}</td></tr>`,
  )}</tbody></table>`;
}

type Read<T> = { ok: true; body: T } | { ok: false; text: string };

async function readEvents(ctx: DashboardContext, url: string): Promise<Read<EventsAnswer>> {
  const answer = await ctx.api.get<EventsAnswer>(url);
  return answer.ok ? { ok: true, body: answer.body } : { ok: false, text: apiProblem(answer) };
}

async function readJobs(ctx: DashboardContext, url: string): Promise<Read<JobsAnswer>> {
  const answer = await ctx.api.get<JobsAnswer>(url);
  return answer.ok ? { ok: true, body: answer.body } : { ok: false, text: apiProblem(answer) };
}

export function registerConnectionPage(app: FastifyInstance): void {
  dashboardPage(app, '/dashboard/connections/:id', async (ctx) => {
    const connection = await loadConnection(ctx, idOf(ctx));
    if (connection === null) return NOT_FOUND;
    const token = encodeURIComponent(connection.access_token);
    const statusAnswer = await ctx.api.get<StatusAnswer>(`/versioned/connections/status?access_token=${token}`);
    const status = statusAnswer.ok ? statusAnswer.body.status : null;
    const syncs = await syncsSection(ctx, connection.id);
    const events = await readEvents(ctx, `/dashboard/api/connections/${connection.id}/events`);
    const jobs = await readJobs(ctx, `/dashboard/api/connections/${connection.id}/write-jobs`);
    return {
      title: connection.name ?? connection.store_name ?? 'Connection',
      section: 'connections',
      body: html`<p><a href="/dashboard/connections">All connections</a></p>
<dl class="facts">
  <dt>Platform</dt><dd data-testid="connection-platform">${connection.platform ?? 'not chosen yet'}</dd>
  <dt>Account</dt><dd>${connection.store_name ?? connection.store_unique_id ?? 'not linked yet'}</dd>
  <dt>Id</dt><dd class="mono" data-testid="connection-id">${connection.id}</dd>
  <dt>Created</dt><dd>${when(connection.created_at)}</dd>
</dl>
${linkSection(connection)}
<h2>Status and syncs</h2>
<div data-live="/dashboard/fragments/connections/${connection.id}/syncs" aria-live="polite" data-testid="syncs-live">${syncs.markup}</div>
<h2>Why this status</h2>
${reasons(connection, status)}
${actions(ctx, connection, syncs.syncs?.entities ?? [])}
<h2>Events</h2>
<div data-live="/dashboard/fragments/connections/${connection.id}/events" data-live-every="5000" aria-live="polite">${eventsSection(connection.id, events)}</div>
<h2>Write jobs</h2>
${jobsSection(connection.id, jobs)}`,
    };
  });

  dashboardFragment(app, '/dashboard/fragments/connections/:id/syncs', async (ctx) => {
    const id = idOf(ctx);
    if (!UUID.test(id)) return html`<p class="problem" role="alert">No connection with this id.</p>`;
    return (await syncsSection(ctx, id)).markup;
  });

  dashboardFragment(app, '/dashboard/fragments/connections/:id/events', async (ctx) => {
    const id = idOf(ctx);
    if (!UUID.test(id)) return html`<p class="problem" role="alert">No connection with this id.</p>`;
    return eventsSection(id, await readEvents(ctx, `/dashboard/api/connections/${id}/events`));
  });

  // Older pages of the connection's lists (the connection page shows the newest of each).
  const olderPage = (path: string, title: string, render: (ctx: DashboardContext, id: string, cursor: string) => Promise<Html>) => {
    dashboardPage(app, `/dashboard/connections/:id/${path}`, async (ctx) => {
      const id = idOf(ctx);
      if (!UUID.test(id)) return NOT_FOUND;
      const cursor = encodeURIComponent(ctx.query.cursor ?? '');
      return {
        title,
        section: 'connections',
        body: html`<p><a href="/dashboard/connections/${id}">Back to the connection</a></p>${await render(ctx, id, cursor)}`,
      };
    });
  };
  olderPage('history', 'Sync history', async (ctx, id, cursor) => {
    const answer = await ctx.api.get<SyncsAnswer>(`/dashboard/api/connections/${id}/syncs?cursor=${cursor}`);
    if (!answer.ok) return html`<p class="problem" role="alert">${apiProblem(answer)}</p>`;
    return html`${runsTable(answer.body.runs)}${older(answer.body.next_cursor, `/dashboard/connections/${id}/history`, 'Older syncs')}`;
  });
  olderPage('events', 'Events', async (ctx, id, cursor) =>
    eventsSection(id, await readEvents(ctx, `/dashboard/api/connections/${id}/events?cursor=${cursor}`)),
  );
  olderPage('write-jobs', 'Write jobs', async (ctx, id, cursor) =>
    jobsSection(id, await readJobs(ctx, `/dashboard/api/connections/${id}/write-jobs?cursor=${cursor}`)),
  );

  const act = (
    name: string,
    run: (
      ctx: DashboardContext,
      connection: Connection,
      body: Parameters<Parameters<typeof dashboardAction>[2]>[1],
    ) => Promise<{ notice?: string; problem?: string; to?: string }>,
  ): void => {
    dashboardAction(app, `/dashboard/connections/:id/${name}`, async (ctx, body) => {
      const id = idOf(ctx);
      const connection = await loadConnection(ctx, id);
      if (connection === null) return back('/dashboard/connections', { problem: 'No connection with this id in this organisation and environment.' });
      const outcome = await run(ctx, connection, body);
      return back(outcome.to ?? `/dashboard/connections/${connection.id}`, outcome);
    });
  };

  act('sync', async (ctx, connection, body) => {
    const objectTypes = formValues(body, 'object_types');
    const answer = await ctx.api.send<{ incremental_sync: { id: string } }>(
      'POST',
      `/versioned/connections/incremental_sync?access_token=${encodeURIComponent(connection.access_token)}`,
      { object_types: objectTypes },
    );
    if (!answer.ok) return { problem: apiProblem(answer) };
    return { notice: `Incremental sync queued (${objectTypes.length === 0 ? 'no objects' : objectTypes.join(', ')}); it shows below as it runs.` };
  });

  act('backfill', async (ctx, connection, body) => {
    const answer = await ctx.api.send('POST', `/versioned/connections/backfill?access_token=${encodeURIComponent(connection.access_token)}`, {
      entity: formValue(body, 'entity'),
      start_date: formValue(body, 'start_date'),
      end_date: formValue(body, 'end_date'),
    });
    return answer.ok ? { notice: 'Backfill queued; it shows below as it runs.' } : { problem: apiProblem(answer) };
  });

  act('rename', async (ctx, connection, body) => {
    const name = formValue(body, 'name').trim();
    const answer = await ctx.api.send('PATCH', `/versioned/connections/${connection.id}`, { name: name === '' ? null : name });
    return answer.ok ? { notice: name === '' ? 'Name cleared.' : `Renamed to ${name}.` } : { problem: apiProblem(answer) };
  });

  act('delete', async (ctx, connection) => {
    const answer = await ctx.api.send('DELETE', `/versioned/connections/${connection.id}`);
    if (answer.ok) return { notice: `Connection ${connection.id} deleted.`, to: '/dashboard/connections' };
    if (answer.status === 409) {
      return {
        problem: `Not deleted: a sync of this connection is running. Wait until it finishes (Syncs below), then delete. ${apiProblem(answer)}`,
      };
    }
    return { problem: apiProblem(answer) };
  });

  // The new access token is a secret: shown on this answer page once, never in a URL.
  dashboardActionPage(app, '/dashboard/connections/:id/invalidate-token', async (ctx) => {
    const connection = await loadConnection(ctx, idOf(ctx));
    if (connection === null) return NOT_FOUND;
    const answer = await ctx.api.send<{ connection_id: string; access_token: string }>(
      'POST',
      `/versioned/connections/access_token/invalidate?access_token=${encodeURIComponent(connection.access_token)}`,
      {},
    );
    const backLink = html`<p><a href="/dashboard/connections/${connection.id}">Back to the connection</a></p>`;
    if (!answer.ok) {
      return {
        title: 'Access token not replaced',
        section: 'connections',
        status: answer.status,
        body: html`<p class="problem" role="alert">${apiProblem(answer)}</p>${backLink}`,
      };
    }
    return {
      title: 'New access token',
      section: 'connections',
      body: html`<div class="secret"><p>The old access token no longer works. This is the new one; it is shown only now: copy it to your application.</p>
<p><code id="new-access-token" data-testid="new-access-token">${answer.body.access_token}</code> <button type="button" data-copy="new-access-token" hidden>Copy</button></p></div>
${backLink}`,
    };
  });
}
