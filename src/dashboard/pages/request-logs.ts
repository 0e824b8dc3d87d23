/** API request log: the organisation's requests in this environment, newest first, found by request id, status or connection. */
import type { FastifyInstance } from 'fastify';
import { html } from '../../html/tag.ts';
import { dashboardPage } from '../context.ts';
import { apiProblem, when } from '../components.ts';
import type { RequestLogRow } from '../../sql/list-request-logs.ts';

const PAGE = '/dashboard/request-logs';
const STATUS_CLASSES = ['2xx', '4xx', '5xx'] as const;

/** A row as the API serves it: the stored row's fields, times as ISO text. */
type RequestLogView = RequestLogRow;

function option(value: string, label: string, selected: string) {
  return html`<option value="${value}"${value === selected ? html` selected` : ''}>${label}</option>`;
}

export function registerRequestLogsPage(app: FastifyInstance): void {
  dashboardPage(app, PAGE, async (ctx) => {
    const { request_id: requestId = '', status = '', connection_id: connectionId = '', cursor = '' } = ctx.query;
    const filters = new URLSearchParams({ request_id: requestId.trim(), status, connection_id: connectionId.trim() });
    for (const [name, value] of [...filters]) if (value === '') filters.delete(name);
    const query = new URLSearchParams(filters);
    if (cursor !== '') query.set('cursor', cursor);
    const answer = await ctx.api.get<{ request_logs: RequestLogView[]; next_cursor: string | null }>(`/versioned/logs/requests?${query.toString()}`);
    const form = html`<p class="muted">Every request your client credentials made in this environment, kept ${ctx.request.server.services.config.requestLog.retentionHours} hours. Rows are written about every second. Every answer carries its request id in the X-Request-Id header.</p>
<form class="filters" method="get" action="${PAGE}" role="search" data-testid="request-log-form">
  <div class="field"><label for="request-id">Request id</label><input id="request-id" name="request_id" type="text" value="${requestId}" data-testid="request-log-request-id"></div>
  <div class="field"><label for="request-status">Status</label><select id="request-status" name="status">${option('', 'any', status)}${STATUS_CLASSES.map((s) => option(s, s, status))}${status !== '' && !(STATUS_CLASSES as readonly string[]).includes(status) ? option(status, status, status) : ''}</select></div>
  <div class="field"><label for="request-connection">Connection id</label><input id="request-connection" name="connection_id" type="text" value="${connectionId}"></div>
  <button type="submit" class="secondary">Search</button>
</form>`;
    if (!answer.ok) {
      return {
        title: 'Request log',
        section: 'requests',
        status: answer.status,
        body: html`${form}<p class="problem" role="alert">${apiProblem(answer)}</p><p><a href="${PAGE}">Show all requests</a></p>`,
      };
    }
    const rows = answer.body.request_logs.map(
      (
        r,
      ) => html`<tr data-testid="request-log-row" data-request-id="${r.request_id}"><td>${when(r.created_at)}</td><td class="mono">${r.method}</td><td class="mono">${r.route}</td>
<td class="num">${r.status}</td><td class="num">${r.duration_ms} ms</td><td class="mono">${r.request_id}</td>
<td>${r.connection_id === null ? '' : html`<a class="mono" href="/dashboard/connections/${r.connection_id}">${r.connection_id}</a>`}</td><td class="mono">${r.error_code ?? ''}</td></tr>`,
    );
    const next = answer.body.next_cursor;
    const nextQuery = new URLSearchParams(filters);
    if (next !== null) nextQuery.set('cursor', next);
    const filtered = filters.size > 0;
    return {
      title: 'Request log',
      section: 'requests',
      body: html`${form}
<table data-testid="request-log"><thead><tr><th scope="col">When</th><th scope="col">Method</th><th scope="col">Route</th><th scope="col" class="num">Status</th><th scope="col" class="num">Duration</th><th scope="col">Request id</th><th scope="col">Connection</th><th scope="col">Error</th></tr></thead>
<tbody>${rows.length === 0 ? html`<tr><td colspan="8" class="muted" data-testid="no-request-logs">${filtered ? 'No request matches these filters.' : 'No requests yet.'}</td></tr>` : rows}</tbody></table>
<p class="pager">${cursor === '' ? '' : html`<a href="${PAGE}?${filters.toString()}">Newest</a>`}${next === null ? '' : html`<a href="${PAGE}?${nextQuery.toString()}" rel="next">Older requests</a>`}</p>`,
    };
  });
}
