/** What the Webhooks, API keys and Platforms pages share: the API's error as a problem, role-gated forms, dates. */
import { html, type Html } from '../../html/tag.ts';
import { roleAllows } from '../../http/dashboard-roles.ts';
import type { DashboardRole } from '../../sql/dashboard-users.ts';
import type { ApiAnswer } from '../api-client.ts';
import { csrfField } from '../components.ts';
import { back, type ActionResult, type DashboardContext } from '../context.ts';

/** The notice of a successful call, or the API's own error message (its 400s say what to fix). */
export function outcome<T>(to: string, answer: ApiAnswer<T>, notice: (body: T) => string): ActionResult {
  return answer.ok ? back(to, { notice: notice(answer.body) }) : back(to, { problem: answer.error.error_message });
}

/** The form when the user's role may use it; else a line saying who may (the API refuses anyway). */
export function forRole(ctx: DashboardContext, role: DashboardRole, form: Html): Html {
  return roleAllows(ctx.user.role, role)
    ? form
    : html`<p class="muted">Your role (${ctx.user.role}) can read this; changing it needs the ${role} role.</p>`;
}

export function csrf(ctx: DashboardContext): Html {
  return csrfField(ctx.user.csrfToken);
}

/** An ISO timestamp as UTC minutes, readable and sortable. */
export function when(iso: string | null): string {
  return iso === null ? '—' : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

export function orgUrl(ctx: DashboardContext, rest: string): string {
  return `/admin/organizations/${ctx.user.organizationId}${rest}`;
}
