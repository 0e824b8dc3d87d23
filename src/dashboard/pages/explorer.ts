/**
 * The data explorer at /dashboard/explorer: a connection and a resource, a filter in the service's filter language
 * (docs/filtering.md) and a sort, pages by cursor, and one object with its platform_data. Every read goes through the
 * client API (/versioned/...) with the connection's access token, looked up here on the server from the connection
 * id the form sends: the token never reaches a URL or the page, and a filter error is the API's own 400 message.
 */
import type { FastifyInstance } from 'fastify';
import { html, type Html } from '../../html/tag.ts';
import { connectionAccessToken } from '../connection-token.ts';
import { OBJECT_TYPES, UNIFIED_OBJECT_TYPES, type UnifiedObjectType } from '../../model/object-types.ts';
import { dashboardPage, type DashboardContext, type PageResult } from '../context.ts';
import type { ApiAnswer } from '../api-client.ts';

interface ConnectionOption {
  id: string;
  name: string | null;
  platform: string | null;
  status: string;
  access_token: string;
}

type Json = Record<string, unknown>;

const PAGE_SIZE = 25;
/** Columns beside the id: the preferred fields the objects have, then their first other scalar fields. */
const EXTRA_COLUMNS = 6;
const CONNECTION_PAGES = 20;
const V = '/versioned';
/** Served as one object per connection, without list parameters (src/api/data/routes.ts SINGLE_OBJECT_TYPES). */
const SINGLE_OBJECT_TYPES: ReadonlySet<string> = new Set(['company_info', 'store']);

function isUnifiedType(value: string): value is UnifiedObjectType {
  return (UNIFIED_OBJECT_TYPES as readonly string[]).includes(value);
}

/** The organisation's connections in the session's environment (every status), up to 20 pages of 500. */
async function connectionsOf(ctx: DashboardContext): Promise<ApiAnswer<ConnectionOption[]>> {
  const all: ConnectionOption[] = [];
  let cursor = '';
  for (let page = 0; page < CONNECTION_PAGES; page++) {
    const answer = await ctx.api.get<{ connections: ConnectionOption[]; next_cursor: string | null }>(
      `${V}/connections?status=any&limit=500&cursor=${encodeURIComponent(cursor)}`,
    );
    if (!answer.ok) return answer;
    all.push(...answer.body.connections);
    if (answer.body.next_cursor === null) break;
    cursor = answer.body.next_cursor;
  }
  return { ok: true, status: 200, body: all };
}

function explorerUrl(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') query.set(name, value);
  return `/dashboard/explorer?${query.toString()}`;
}

function connectionLabel(c: { name: string | null; platform: string | null; id: string }): string {
  return `${c.name ?? 'Unnamed'} (${c.platform ?? 'no platform'}) · ${c.id.slice(0, 8)}`;
}

function form(ctx: DashboardContext, connections: readonly ConnectionOption[]): Html {
  const q = ctx.query;
  const resource = q.resource ?? 'bill';
  const connectionOptions = connections.map(
    (c) => html`<option value="${c.id}"${c.id === q.connection ? html` selected` : ''}>${connectionLabel(c)} · ${c.status}</option>`,
  );
  const resourceOptions = UNIFIED_OBJECT_TYPES.map(
    (type) => html`<option value="${type}"${type === resource ? html` selected` : ''}>${OBJECT_TYPES[type].path}</option>`,
  );
  return html`<form method="get" action="/dashboard/explorer" class="filters" data-testid="explorer-form">
<div class="field"><label for="explorer-connection">Connection</label>
<select id="explorer-connection" name="connection" required>${connections.length === 0 ? html`<option value="">No connection in this environment</option>` : connectionOptions}</select></div>
<div class="field"><label for="explorer-resource">Resource</label>
<select id="explorer-resource" name="resource">${resourceOptions}</select></div>
<div class="field"><label for="explorer-filter">Filter</label>
<input type="text" id="explorer-filter" name="filter" value="${q.filter ?? ''}" maxlength="2000" placeholder='status = "open" AND due_date < 2024-06-30' aria-describedby="explorer-filter-help" data-testid="explorer-filter"></div>
<div class="field"><label for="explorer-sort">Sort</label>
<input type="text" id="explorer-sort" name="sort" value="${q.sort ?? ''}" maxlength="200" placeholder="updated_at DESC" class="short"></div>
<button type="submit">Show</button>
</form>
<p id="explorer-filter-help" class="muted">Filter and sort in the API's filter language: see docs/filtering.md (e.g. <span class="mono">status = "open"</span>, <span class="mono">due_date &lt; 2024-06-30</span>, <span class="mono">due_date DESC</span>).</p>`;
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Fields people recognise an object by, shown first when the resource has them. */
const PREFERRED_COLUMNS = [
  'name',
  'display_name',
  'document_number',
  'status',
  'total_amount',
  'amount',
  'currency',
  'issue_date',
  'due_date',
  'updated_at',
];

function columnsOf(objects: readonly Json[]): string[] {
  const isScalarField = (key: string) => objects.some((o) => key in o && (o[key] === null || typeof o[key] !== 'object'));
  const columns = PREFERRED_COLUMNS.filter(isScalarField).slice(0, EXTRA_COLUMNS);
  for (const object of objects) {
    for (const key of Object.keys(object)) {
      if (columns.length >= EXTRA_COLUMNS) return columns;
      if (key === 'id' || key === 'platform_data' || columns.includes(key) || !isScalarField(key)) continue;
      columns.push(key);
    }
  }
  return columns;
}

function resultsTable(ctx: DashboardContext, type: UnifiedObjectType, objects: readonly Json[], nextCursor: string | null): Html {
  const q = ctx.query;
  if (objects.length === 0) return html`<p data-testid="explorer-results">No ${OBJECT_TYPES[type].plural.replaceAll('_', ' ')} match.</p>`;
  const columns = columnsOf(objects);
  const rows = objects.map((object) => {
    const id = scalar(object.id);
    const view = explorerUrl({ connection: q.connection, resource: type, id });
    return html`<tr><th scope="row"><a href="${view}" class="mono">${id}</a></th>${columns.map((c) => html`<td>${scalar(object[c])}</td>`)}</tr>`;
  });
  const next =
    nextCursor === null
      ? ''
      : html`<a href="${explorerUrl({ connection: q.connection, resource: type, filter: q.filter, sort: q.sort, cursor: nextCursor })}" rel="next" data-testid="explorer-next">Next page</a>`;
  return html`<table data-testid="explorer-results"><caption class="muted">${objects.length} ${OBJECT_TYPES[type].plural.replaceAll('_', ' ')} on this page</caption>
<thead><tr><th scope="col">id</th>${columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead><tbody>${rows}</tbody></table>
<div class="pager">${q.cursor === undefined ? '' : html`<a href="${explorerUrl({ connection: q.connection, resource: type, filter: q.filter, sort: q.sort })}">First page</a>`}${next}</div>`;
}

function oneObject(ctx: DashboardContext, type: UnifiedObjectType, object: Json): Html {
  const { platform_data: platformData, ...unified } = object;
  const back = explorerUrl({ connection: ctx.query.connection, resource: type });
  return html`<section data-testid="explorer-object"><h2>${OBJECT_TYPES[type].singular.replaceAll('_', ' ')} <span class="mono">${scalar(object.id)}</span></h2>
<p><a href="${back}">Back to the list</a></p>
<h3>Unified object</h3>
<pre tabindex="0" aria-label="The unified object" data-testid="explorer-unified">${JSON.stringify(unified, null, 2)}</pre>
<h3>platform_data</h3>
<pre tabindex="0" aria-label="The platform record" data-testid="explorer-platform-data">${platformData === undefined ? 'The platform record is not stored for this object.' : JSON.stringify(platformData, null, 2)}</pre>
</section>`;
}

function readUrl(type: UnifiedObjectType, accessToken: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams({ access_token: accessToken });
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') query.set(name, value);
  return `${V}${OBJECT_TYPES[type].path}?${query.toString()}`;
}

/** The answer of the API for the page's query: a list, one object, or the API's own error. */
async function results(ctx: DashboardContext, connection: ConnectionOption, type: UnifiedObjectType): Promise<{ body: Html; status: number }> {
  const q = ctx.query;
  const names = OBJECT_TYPES[type];
  const alert = (message: string, status: number) => ({
    body: html`<p class="problem" role="alert" data-testid="explorer-error">${message}</p>`,
    status,
  });
  // The API masks access tokens in its answers to sessions: the page finds the token on the server.
  const accessToken = await connectionAccessToken(ctx, connection.id);
  if (accessToken === null) return alert(`No connection ${connection.id} in this organisation's ${ctx.environment} environment.`, 404);
  if (q.id !== undefined && q.id !== '') {
    const url = readUrl(type, accessToken, { expand: 'platform_data' }).replace('?', `/${encodeURIComponent(q.id)}?`);
    const answer = await ctx.api.get<Json>(url);
    // The API's RESOURCE_NOT_FOUND is a 410; for a page, "not here" is a 404.
    if (!answer.ok) return alert(answer.error.error_message, answer.error.error_code === 'RESOURCE_NOT_FOUND' ? 404 : answer.status);
    const object = answer.body[names.singular];
    return typeof object === 'object' && object !== null
      ? { body: oneObject(ctx, type, object as Json), status: 200 }
      : alert('The API answered without the object.', 502);
  }
  const listParams = SINGLE_OBJECT_TYPES.has(type)
    ? { expand: 'platform_data' }
    : { filter: q.filter, sort: q.sort, cursor: q.cursor, limit: String(PAGE_SIZE) };
  const answer = await ctx.api.get<Json>(readUrl(type, accessToken, listParams));
  // A filter the API refuses is the user's to fix: the page still answers 200 with the API's message.
  if (!answer.ok) return alert(answer.error.error_message, answer.status >= 500 ? answer.status : 200);
  const list = answer.body[names.plural];
  if (Array.isArray(list)) {
    const nextCursor = typeof answer.body.next_cursor === 'string' ? answer.body.next_cursor : null;
    return { body: resultsTable(ctx, type, list as Json[], nextCursor), status: 200 };
  }
  // The resources served as one object per connection (company_info, store).
  const single = answer.body[names.singular];
  return typeof single === 'object' && single !== null
    ? { body: oneObject(ctx, type, single as Json), status: 200 }
    : alert('The API answered without results.', 502);
}

/** The connection the form shows selected when the address names none: the first active one, else the first. */
function defaultConnection(connections: readonly ConnectionOption[]): ConnectionOption | undefined {
  return connections.find((c) => c.status === 'active') ?? connections[0];
}

async function explorer(request: DashboardContext): Promise<PageResult> {
  const page = (body: Html, status = 200): PageResult => ({ title: 'Data explorer', section: 'explorer', body, status });
  const connections = await connectionsOf(request);
  if (!connections.ok) return page(html`<p class="problem" role="alert">${connections.error.error_message}</p>`, connections.status);
  // The form always shows a connection and a resource selected: without a choice in the address the page reads what
  // the form shows (it used to show them selected and still ask to choose them).
  const named = request.query.connection !== undefined && request.query.connection !== '';
  const fallback = named ? undefined : defaultConnection(connections.body);
  const ctx: DashboardContext = fallback === undefined ? request : { ...request, query: { ...request.query, connection: fallback.id } };
  const q = ctx.query;
  const heading = form(ctx, connections.body);
  if (q.connection === undefined || q.connection === '') {
    return page(
      html`${heading}<p data-testid="explorer-no-connection">No connection in this environment yet: <a href="/dashboard/connections/new">create one</a>, and its data shows here once its first sync is done.</p>`,
    );
  }
  const chosen = connections.body.find((c) => c.id === q.connection);
  // Another organisation's connection, or one of the other environment: as unknown, and nothing of it shown.
  if (chosen === undefined) {
    return page(
      html`${heading}<p class="problem" role="alert" data-testid="explorer-error">No connection ${q.connection} in this organisation's ${ctx.environment} environment.</p>`,
      404,
    );
  }
  const resource = q.resource ?? 'bill';
  if (!isUnifiedType(resource)) {
    return page(
      html`${heading}<p class="problem" role="alert" data-testid="explorer-error">Unknown resource "${resource}": choose one from the list.</p>`,
      400,
    );
  }
  const found = await results(ctx, chosen, resource);
  return page(html`${heading}<h2>${OBJECT_TYPES[resource].path} of ${connectionLabel(chosen)}</h2>${found.body}`, found.status);
}

export function registerExplorer(app: FastifyInstance): void {
  dashboardPage(app, '/dashboard/explorer', explorer);
}
