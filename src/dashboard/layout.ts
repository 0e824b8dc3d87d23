/** The dashboard's shell: header (organisation, environment switch, user), navigation, notices, the page. */
import { html, type Html } from '../html/tag.ts';
import type { SessionUser } from '../users/sessions.ts';
import type { Environment, Organization } from '../tenants/types.ts';
import { ASSET_VERSION } from './assets.ts';

export type NavSection = 'overview' | 'connections' | 'explorer' | 'webhooks' | 'keys' | 'platforms' | 'users' | 'audit' | 'requests' | 'account';

const NAV: readonly { section: NavSection; href: string; label: string }[] = [
  { section: 'overview', href: '/dashboard', label: 'Overview' },
  { section: 'connections', href: '/dashboard/connections', label: 'Connections' },
  { section: 'explorer', href: '/dashboard/explorer', label: 'Data explorer' },
  { section: 'webhooks', href: '/dashboard/webhooks', label: 'Webhooks' },
  { section: 'keys', href: '/dashboard/api-keys', label: 'API keys' },
  { section: 'platforms', href: '/dashboard/platforms', label: 'Platforms' },
  { section: 'users', href: '/dashboard/users', label: 'Users' },
  { section: 'audit', href: '/dashboard/audit', label: 'Audit log' },
  { section: 'requests', href: '/dashboard/request-logs', label: 'Request log' },
];

export function head(title: string): Html {
  return html`<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<meta name="robots" content="noindex, nofollow">
<title>${title} · Ledgerport</title>
<link rel="icon" href="/dashboard/assets/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/dashboard/assets/dashboard.css?v=${ASSET_VERSION}">
<script src="/dashboard/assets/dashboard.js?v=${ASSET_VERSION}" defer></script>`;
}

export function layout(page: {
  title: string;
  section: NavSection;
  body: Html;
  user: SessionUser;
  organization: Organization;
  environment: Environment;
  notice: string | undefined;
  problem: string | undefined;
}): string {
  const nav = NAV.map(
    (item) => html`<li><a href="${item.href}"${item.section === page.section ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
  );
  const environments = (['sandbox', 'production'] as const).map(
    (env) => html`<option value="${env}"${env === page.environment ? html` selected` : ''}>${env}</option>`,
  );
  return `<!doctype html>\n${
    html`<html lang="en">
<head>
${head(page.title)}
</head>
<body data-environment="${page.environment}">
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <p class="brand"><a href="/dashboard"><span class="brand-mark" aria-hidden="true">L</span> Ledgerport</a> <span class="org">${page.organization.name}</span></p>
  <form class="env-switch" method="post" action="/dashboard/environment">
    <input type="hidden" name="_csrf" value="${page.user.csrfToken}">
    <input type="hidden" name="back" value="">
    <label for="environment">Environment</label>
    <select id="environment" name="environment" data-autosubmit>${environments}</select>
    <button type="submit" class="secondary">Switch</button>
  </form>
  <div class="who">
    <span>${page.user.email} <span class="role">(${page.user.role})</span></span>
    <a href="/dashboard/account">Account</a>
    <form method="post" action="/dashboard/logout"><input type="hidden" name="_csrf" value="${page.user.csrfToken}"><button type="submit" class="link">Sign out</button></form>
  </div>
</header>
<div class="frame">
<nav aria-label="Dashboard"><ul>${nav}</ul></nav>
<main id="main" class="env-${page.environment}">
${page.environment === 'production' ? html`<p class="env-banner production">Production: live data of real businesses.</p>` : html`<p class="env-banner sandbox">Sandbox environment</p>`}
${page.notice === undefined ? '' : html`<p class="notice" role="status">${page.notice}</p>`}
${page.problem === undefined ? '' : html`<p class="problem" role="alert">${page.problem}</p>`}
<h1>${page.title}</h1>
${page.body}
</main>
</div>
</body>
</html>`.text
  }\n`;
}

/** A page outside the signed-in shell (sign-in, set password, sign-in refusals): one card, the brand, the title. */
export function signInPage(title: string, body: Html): string {
  return `<!doctype html>\n${
    html`<html lang="en">
<head>
${head(title)}
</head>
<body>
<main class="sign-in" id="main">
<p class="brand"><span class="brand-mark" aria-hidden="true">L</span> Ledgerport</p>
<h1>${title}</h1>
${body}
</main>
</body>
</html>`.text
  }\n`;
}
