/** Account: who you are, your role, and signing out on every device. */
import type { FastifyInstance } from 'fastify';
import { html } from '../../html/tag.ts';
import { dashboardPage } from '../context.ts';
import { badge, csrfField } from '../components.ts';

export function registerAccountPage(app: FastifyInstance): void {
  dashboardPage(app, '/dashboard/account', (ctx) =>
    Promise.resolve({
      title: 'Your account',
      section: 'account' as const,
      body: html`<dl><dt>Email</dt><dd>${ctx.user.email}</dd><dt>Role</dt><dd>${badge(ctx.user.role)}</dd><dt>Organisation</dt><dd>${ctx.organization.name} <span class="mono muted">${ctx.organization.id}</span></dd></dl>
<h2>Sessions</h2>
<p>A session lasts 12 hours. Signing out everywhere ends every session of yours, on every device and browser.</p>
<form method="post" action="/dashboard/account/logout-everywhere" data-confirm="Sign out on every device?">${csrfField(ctx.user.csrfToken)}<button type="submit" class="secondary">Sign out everywhere</button></form>`,
    }),
  );
}
