/** Users: the organisation's people and roles; admins invite, change roles and remove. */
import type { FastifyInstance } from 'fastify';
import { html } from '../../html/tag.ts';
import { back, dashboardAction, dashboardActionPage, dashboardPage, formValue } from '../context.ts';
import { apiProblem, badge, csrfField, failedRead, when } from '../components.ts';
import { DASHBOARD_ROLES } from '../../sql/dashboard-users.ts';
import type { DashboardUser } from '../../users/users.ts';

const ROLE_HELP = 'admin: everything; developer: everything but users and credentials; viewer: read only.';

function roleOptions(selected: string) {
  return DASHBOARD_ROLES.map((role) => html`<option value="${role}"${role === selected ? html` selected` : ''}>${role}</option>`);
}

export function registerUsersPage(app: FastifyInstance): void {
  dashboardPage(app, '/dashboard/users', async (ctx) => {
    const answer = await ctx.api.get<{ users: DashboardUser[] }>('/dashboard/api/users');
    if (!answer.ok) return { title: 'Users', section: 'users', body: failedRead(answer) };
    const isAdmin = ctx.user.role === 'admin';
    const rows = answer.body.users.map(
      (user) => html`<tr data-testid="user-row">
  <td>${user.email}${user.id === ctx.user.userId ? html` <span class="muted">(you)</span>` : ''}</td>
  <td>${badge(user.role)}</td>
  <td>${user.has_password ? 'yes' : html`<span class="muted">invitation not used yet</span>`}</td>
  <td>${when(user.last_sign_in_at)}</td>
  ${
    isAdmin
      ? html`<td><form class="inline" method="post" action="/dashboard/users/${user.id}/role">${csrfField(ctx.user.csrfToken)}
      <label for="role-${user.id}" class="visually-hidden">Role of ${user.email}</label>
      <select id="role-${user.id}" name="role">${roleOptions(user.role)}</select> <button type="submit" class="secondary">Change role</button></form>
      <form class="inline" method="post" action="/dashboard/users/${user.id}/remove" data-confirm="Remove ${user.email} from the organisation?">${csrfField(ctx.user.csrfToken)}
      <button type="submit" class="danger">Remove</button></form></td>`
      : ''
  }
</tr>`,
    );
    const invite = isAdmin
      ? html`<h2>Invite someone</h2>
<form method="post" action="/dashboard/users/invite" data-testid="invite-form">${csrfField(ctx.user.csrfToken)}
  <div class="field"><label for="invite-email">Email</label><input id="invite-email" name="email" type="email" required></div>
  <div class="field"><label for="invite-role">Role</label><select id="invite-role" name="role">${roleOptions('developer')}</select></div>
  <p class="muted">${ROLE_HELP} The invitation is a one-time sign-in link, valid for 7 days, shown once for you to pass on.</p>
  <button type="submit">Invite</button>
</form>`
      : html`<p class="muted">Only admins invite people and change roles. ${ROLE_HELP}</p>`;
    return {
      title: 'Users',
      section: 'users',
      body: html`<table><caption class="visually-hidden">Dashboard users</caption><thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Password set</th><th scope="col">Last sign-in</th>${isAdmin ? html`<th scope="col">Manage</th>` : ''}</tr></thead>
<tbody>${rows}</tbody></table>
${invite}`,
    };
  });

  // The sign-in link is a credential: shown on this answer page once, never in a URL.
  dashboardActionPage(app, '/dashboard/users/invite', async (ctx, body) => {
    const answer = await ctx.api.send<{ user: DashboardUser; sign_in_url: string }>('POST', '/dashboard/api/users', {
      email: formValue(body, 'email'),
      role: formValue(body, 'role'),
    });
    if (!answer.ok) {
      return {
        title: 'Invite someone',
        section: 'users',
        status: answer.status,
        body: html`${failedRead(answer)}<p><a href="/dashboard/users">Back to users</a></p>`,
      };
    }
    return {
      title: 'Invitation ready',
      section: 'users',
      body: html`<div class="secret" data-testid="invitation-link"><p>Send this one-time sign-in link to ${answer.body.user.email} (${answer.body.user.role}). It is shown only now and works once, for 7 days.</p>
<p><code id="sign-in-url">${answer.body.sign_in_url}</code> <button type="button" data-copy="sign-in-url" hidden>Copy</button></p></div>
<p><a href="/dashboard/users">Back to users</a></p>`,
    };
  });

  dashboardAction(app, '/dashboard/users/:userId/role', async (ctx, body) => {
    const { userId } = ctx.request.params as { userId: string };
    const answer = await ctx.api.send('PATCH', `/dashboard/api/users/${encodeURIComponent(userId)}`, { role: formValue(body, 'role') });
    return back(
      '/dashboard/users',
      answer.ok ? { notice: 'Role changed; their sessions ended, so it applies at their next sign-in.' } : { problem: apiProblem(answer) },
    );
  });

  dashboardAction(app, '/dashboard/users/:userId/remove', async (ctx) => {
    const { userId } = ctx.request.params as { userId: string };
    const answer = await ctx.api.send('DELETE', `/dashboard/api/users/${encodeURIComponent(userId)}`);
    return back('/dashboard/users', answer.ok ? { notice: 'User removed.' } : { problem: apiProblem(answer) });
  });
}
