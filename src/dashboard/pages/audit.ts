/** Audit log: who did what, when, and how the service answered, newest first. */
import type { FastifyInstance } from 'fastify';
import { html } from '../../html/tag.ts';
import { dashboardPage } from '../context.ts';
import { failedRead, when } from '../components.ts';
import type { AuditEntryView } from '../../users/audit.ts';

export function registerAuditPage(app: FastifyInstance): void {
  dashboardPage(app, '/dashboard/audit', async (ctx) => {
    const cursor = ctx.query.cursor;
    const url = `/dashboard/api/audit_log${cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`}`;
    const answer = await ctx.api.get<{ entries: AuditEntryView[]; next_cursor: string | null }>(url);
    if (!answer.ok) return { title: 'Audit log', section: 'audit', body: failedRead(answer) };
    const rows = answer.body.entries.map(
      (entry) => html`<tr data-testid="audit-row"><td>${when(entry.created_at)}</td><td>${entry.actor}</td><td class="mono">${entry.action}</td>
<td class="mono">${entry.target ?? ''}</td><td>${entry.environment ?? ''}</td><td class="num">${entry.status}</td><td class="mono">${entry.request_id ?? ''}</td></tr>`,
    );
    const next = answer.body.next_cursor;
    return {
      title: 'Audit log',
      section: 'audit',
      body: html`<p class="muted">Every change a dashboard user made or tried (refusals included), and every sign-in and sign-out.</p>
<table><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">On</th><th scope="col">Environment</th><th scope="col" class="num">Answer</th><th scope="col">Request id</th></tr></thead>
<tbody>${rows.length === 0 ? html`<tr><td colspan="7" class="muted">Nothing yet.</td></tr>` : rows}</tbody></table>
<p class="pager">${cursor === undefined ? '' : html`<a href="/dashboard/audit">Newest</a>`}${next === null ? '' : html`<a href="/dashboard/audit?cursor=${next}">Older entries</a>`}</p>`,
    };
  });
}
