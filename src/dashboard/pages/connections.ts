/**
 * Connections: the list (search, status and platform filters, keyset pages) and a new connection (its link URL
 * shown on the connection's page). Everything through the API as the signed-in user.
 */
import type { FastifyInstance } from 'fastify';
import { html } from '../../html/tag.ts';
import { back, dashboardAction, dashboardPage, formValue, withMessage } from '../context.ts';
import { apiProblem, badge, csrfField, when } from '../components.ts';
import { registerConnectionPage } from './connection.ts';
import { ENVIRONMENT_HEADER, sessionCookie, sessionEnvironment } from '../../http/session-auth.ts';
import { sessionUser } from '../../users/sessions.ts';
import type { FastifyRequest } from 'fastify';
import type { Environment } from '../../tenants/types.ts';

function sessionEnvironmentOr(request: FastifyRequest): Environment {
  try {
    return sessionEnvironment(request);
  } catch {
    return 'sandbox';
  }
}

const STATUSES = ['active', 'unhealthy', 'not_ready', 'needs_reauth', 'disabled'] as const;

interface ListAnswer {
  connections: {
    id: string;
    name: string | null;
    platform: string | null;
    status: string;
    store_name: string | null;
    created_at: string;
    last_sync: { kind: string; status: string; started_at: string | null; finished_at: string | null; error: string | null } | null;
  }[];
  next_cursor: string | null;
  platforms: { id: string; name: string }[];
}

function option(value: string, label: string, selected: string | undefined) {
  return html`<option value="${value}"${value === selected ? html` selected` : ''}>${label}</option>`;
}

export function registerConnectionsPages(app: FastifyInstance): void {
  dashboardPage(app, '/dashboard/connections', async (ctx) => {
    const { search = '', status = '', platform = '', cursor = '' } = ctx.query;
    const query = new URLSearchParams({ search, status, platform, cursor });
    for (const [name, value] of [...query]) if (value === '') query.delete(name);
    const answer = await ctx.api.get<ListAnswer>(`/dashboard/api/connections?${query.toString()}`);
    if (!answer.ok) {
      return {
        title: 'Connections',
        section: 'connections',
        status: answer.status,
        body: html`<p class="problem" role="alert">${apiProblem(answer)}</p><p><a href="/dashboard/connections">Show all connections</a></p>`,
      };
    }
    const { connections, next_cursor: next, platforms } = answer.body;
    const rows = connections.map(
      (c) => html`<tr data-testid="connection-row" data-connection-id="${c.id}">
  <td><a href="/dashboard/connections/${c.id}">${c.name ?? c.store_name ?? 'Unnamed'}</a><br><span class="mono muted">${c.id}</span></td>
  <td>${badge(c.status)}</td>
  <td>${c.platform ?? html`<span class="muted">not chosen yet</span>`}</td>
  <td>${when(c.created_at)}</td>
  <td>${c.last_sync === null ? html`<span class="muted">none</span>` : html`${c.last_sync.kind} ${badge(c.last_sync.status)}<br>${when(c.last_sync.finished_at ?? c.last_sync.started_at)}`}</td>
</tr>`,
    );
    const nextQuery = new URLSearchParams(query);
    if (next !== null) nextQuery.set('cursor', next);
    const canCreate = ctx.user.role !== 'viewer';
    return {
      title: 'Connections',
      section: 'connections',
      body: html`${canCreate ? html`<p><a href="/dashboard/connections/new" data-testid="new-connection">New connection</a></p>` : ''}
<form class="filters" method="get" action="/dashboard/connections" role="search">
  <div class="field"><label for="search">Name or id</label><input id="search" name="search" type="text" value="${search}"></div>
  <div class="field"><label for="status">Status</label><select id="status" name="status">${option('', 'any', status)}${STATUSES.map((s) => option(s, s, status))}</select></div>
  <div class="field"><label for="platform">Platform</label><select id="platform" name="platform">${option('', 'any', platform)}${platforms.map((p) => option(p.id, p.name, platform))}</select></div>
  <button type="submit" class="secondary">Filter</button>
</form>
${
  connections.length === 0
    ? html`<p data-testid="no-connections">No connections${search !== '' || status !== '' || platform !== '' ? ' match these filters' : ' yet'}.</p>`
    : html`<table data-testid="connections-table"><caption class="muted">Newest first, ${connections.length} on this page</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Platform</th><th scope="col">Created</th><th scope="col">Last sync</th></tr></thead>
<tbody>${rows}</tbody></table>`
}
<p class="pager">${cursor !== '' ? html`<a href="/dashboard/connections?${new URLSearchParams([...query].filter(([n]) => n !== 'cursor')).toString()}">First page</a>` : ''}${next !== null ? html`<a href="/dashboard/connections?${nextQuery.toString()}" rel="next" data-testid="next-page">Next page</a>` : ''}</p>`,
    };
  });

  dashboardPage(app, '/dashboard/connections/new', async (ctx) => {
    // The list endpoint carries the platform catalogue; a search no connection matches keeps the answer to that.
    const answer = await ctx.api.get<ListAnswer>('/dashboard/api/connections?search=00000000-0000-0000-0000-000000000000');
    const platforms = answer.ok ? answer.body.platforms : [];
    return {
      title: 'New connection',
      section: 'connections',
      body: html`<p>A connection is one business's account on one platform. You get a link URL for the business to sign in to its platform; the initial sync starts when they finish.</p>
<form method="post" action="/dashboard/connections/new" data-testid="new-connection-form">${csrfField(ctx.user.csrfToken)}
  <div class="field"><label for="new-platform">Platform</label><select id="new-platform" name="platform">${option('', 'Let the business choose', '')}${platforms.map((p) => option(p.id, `${p.name} (${p.id})`, ''))}</select></div>
  <div class="field"><label for="new-name">Name (optional)</label><input id="new-name" name="name" type="text" maxlength="200"></div>
  <button type="submit">Create connection</button>
</form>
<p><a href="/dashboard/connections">Back to connections</a></p>`,
    };
  });

  dashboardAction(app, '/dashboard/connections/new', async (ctx, body) => {
    const platform = formValue(body, 'platform');
    const name = formValue(body, 'name').trim();
    // The link flow brings the user back to the dashboard, which shows the connection, where the environment's redirect
    // rules let it: sandbox without a list, or a list naming the dashboard's page. Otherwise the flow ends on its own
    // page and the connection page shows the result on the next visit.
    const returnTo = `${ctx.request.server.services.config.publicUrl}/dashboard/connections/linked`;
    const lists = await ctx.api.get<{ redirect_urls: { environment: string; urls: string[] }[] }>(
      `/admin/organizations/${ctx.user.organizationId}/redirect_urls`,
    );
    const list = lists.ok ? lists.body.redirect_urls.find((l) => l.environment === ctx.environment) : undefined;
    const mayReturn = list === undefined ? ctx.environment === 'sandbox' : list.urls.includes(returnTo);
    const answer = await ctx.api.send<{ connection: { id: string } }>('POST', '/versioned/connections/create', {
      ...(platform === '' ? {} : { platform }),
      ...(name === '' ? {} : { name }),
      ...(mayReturn ? { redirect_url: returnTo } : {}),
    });
    if (!answer.ok) return back('/dashboard/connections/new', { problem: apiProblem(answer) });
    return back(`/dashboard/connections/${answer.body.connection.id}`, {
      notice: 'Connection created. Send the link URL to the business (or open the link flow yourself) to connect its account.',
    });
  });

  // Where the dashboard's own link flow returns with a public_token: straight on to the connection's page. The
  // connection is found through the API as the user (the edge checks the session), like every read of a page.
  app.get('/dashboard/connections/linked', async (request, reply) => {
    const cookie = request.headers.cookie;
    const raw = (request.query as Record<string, unknown>).public_token;
    const token = typeof raw === 'string' ? raw : '';
    // Signed out: after signing in, the list (the public token, a credential, must not ride in `next`, a form or a state).
    const signIn = '/dashboard/login?next=%2Fdashboard%2Fconnections';
    const session = sessionCookie(request);
    const user = session === null ? null : await sessionUser(app.services.pool, session);
    if (cookie === undefined || user === null) return reply.redirect(signIn, 303);
    const answer = await app.inject({
      method: 'GET',
      url: `/dashboard/api/connections/linked?public_token=${encodeURIComponent(token)}`,
      headers: { cookie, [ENVIRONMENT_HEADER]: sessionEnvironmentOr(request), 'x-request-id': request.id },
    });
    if (answer.statusCode === 401) return reply.redirect(signIn, 303);
    const body: unknown = JSON.parse(answer.body);
    if (answer.statusCode === 200 && typeof body === 'object' && body !== null && 'connection_id' in body && typeof body.connection_id === 'string') {
      const connected = back(`/dashboard/connections/${body.connection_id}`, { notice: 'Account connected: its initial sync has started.' });
      return reply.redirect(withMessage(connected, user.csrfToken), 303);
    }
    const problem =
      'The link flow finished, but the dashboard cannot tell which connection it was (its public_token is unknown or expired): find it in the list.';
    return reply.redirect(withMessage(back('/dashboard/connections', { problem }), user.csrfToken), 303);
  });

  registerConnectionPage(app);
}
