/**
 * Platforms: the organisation's OAuth apps, allowed redirect URLs, enabled products (the operator's), data batching,
 * and the default sync configuration with the connections that override it. Read and changed through the admin API's
 * endpoints (their contracts let a session in) and /dashboard/api/platform-settings, /dashboard/api/sync-defaults.
 */
import type { FastifyInstance } from 'fastify';
import { html, type Html } from '../../html/tag.ts';
import { ENVIRONMENTS } from '../../tenants/types.ts';
import { back, dashboardAction, dashboardPage, formValue, type DashboardContext } from '../context.ts';
import { csrf, forRole, orgUrl, outcome, when } from './settings-shared.ts';

const PAGE = '/dashboard/platforms';

interface OAuthApp {
  platform: string;
  environment: string;
  client_id: string;
  redirect_uri: string;
  has_webhook_key: boolean;
  scope: string | null;
  calls_this_month: number;
  updated_at: string;
}

interface RedirectUrls {
  environment: string;
  urls: string[];
  updated_at: string;
}

interface SyncDefaults {
  entities?: string[];
  historical_months?: number;
  entity_historical_months?: Record<string, number>;
  incremental_sync_frequency_minutes?: number;
}

interface PlatformSettings {
  products: string[];
  data_batching: { months: number[] } | null;
  sync_defaults: SyncDefaults | null;
  overrides: { connection_id: string; name: string | null; platform: string | null; status: string; sync_config: SyncDefaults }[];
}

const problem = (message: string): Html => html`<p class="problem" role="alert">${message}</p>`;

function environmentSelect(ctx: DashboardContext, id: string): Html {
  const options = ENVIRONMENTS.map((env) => html`<option value="${env}"${env === ctx.environment ? html` selected` : ''}>${env}</option>`);
  return html`<div class="field"><label for="${id}">Environment</label><select id="${id}" name="environment">${options}</select></div>`;
}

function oauthApps(ctx: DashboardContext, apps: readonly OAuthApp[]): Html {
  const rows = apps.map(
    (
      a,
    ) => html`<tr><th scope="row">${a.platform}</th><td>${a.environment}</td><td class="mono">${a.client_id}</td><td class="mono">${a.redirect_uri}</td><td>${a.scope ?? html`<span class="muted">the connector's</span>`}</td><td>${a.has_webhook_key ? 'yes' : 'no'}</td><td class="num">${a.calls_this_month}</td><td>${when(a.updated_at)}</td>
<td>${forRole(ctx, 'admin', html`<form class="inline" method="post" action="${PAGE}/oauth-apps/delete" data-confirm="Remove the ${a.platform} ${a.environment} OAuth app? New links of ${a.platform} stop until another is set.">${csrf(ctx)}<input type="hidden" name="platform" value="${a.platform}"><input type="hidden" name="environment" value="${a.environment}"><button type="submit" class="danger">Remove<span class="skip"> ${a.platform} ${a.environment}</span></button></form>`)}</td></tr>`,
  );
  return html`${apps.length === 0 ? html`<p class="muted">No OAuth app yet: links of OAuth platforms need one.</p>` : html`<table data-testid="oauth-apps"><thead><tr><th scope="col">Platform</th><th scope="col">Environment</th><th scope="col">Client id</th><th scope="col">Redirect URI</th><th scope="col">Scopes</th><th scope="col">Webhook key</th><th scope="col" class="num">Calls this month</th><th scope="col">Changed</th><th scope="col">Remove</th></tr></thead><tbody>${rows}</tbody></table>`}
<h3>Set an OAuth app</h3>
${forRole(
  ctx,
  'admin',
  html`<form method="post" action="${PAGE}/oauth-apps" class="stack" data-testid="oauth-app-form">${csrf(ctx)}
<div class="field"><label for="oauth-platform">Platform id (e.g. XERO, QUICKBOOKS)</label><input type="text" id="oauth-platform" name="platform" required maxlength="100"></div>
${environmentSelect(ctx, 'oauth-environment')}
<div class="field"><label for="oauth-client-id">Client id</label><input type="text" id="oauth-client-id" name="client_id" required autocomplete="off"></div>
<div class="field"><label for="oauth-client-secret">Client secret (stored encrypted, never shown again)</label><input type="password" id="oauth-client-secret" name="client_secret" required autocomplete="new-password"></div>
<div class="field"><label for="oauth-redirect-uri">Redirect URI</label><input type="url" id="oauth-redirect-uri" name="redirect_uri" required placeholder="https://api.example.com/link/oauth/callback"></div>
<div class="field"><label for="oauth-scope">Scopes, space-separated (empty: the connector's list)</label><input type="text" id="oauth-scope" name="scope"></div>
<div class="field"><label for="oauth-webhook-key">Platform webhook key (optional; never shown again)</label><input type="password" id="oauth-webhook-key" name="webhook_key" autocomplete="new-password"></div>
<button type="submit">Save OAuth app</button></form>`,
)}`;
}

function redirectUrls(ctx: DashboardContext, lists: readonly RedirectUrls[]): Html {
  const rows = ENVIRONMENTS.map((environment) => {
    const list = lists.find((l) => l.environment === environment);
    return html`<tr><th scope="row">${environment}</th><td>${
      list === undefined
        ? html`<span class="muted">No list: ${environment === 'sandbox' ? 'the redirect_url given at connection creation is accepted' : 'no redirect is allowed'}</span>`
        : list.urls.length === 0
          ? html`<span class="muted">Empty list: no redirect is allowed</span>`
          : html`<ul>${list.urls.map((u) => html`<li class="mono">${u}</li>`)}</ul>`
    }</td><td>${list === undefined ? '' : forRole(ctx, 'developer', html`<form class="inline" method="post" action="${PAGE}/redirect-urls/delete" data-confirm="Remove the ${environment} redirect URL list?">${csrf(ctx)}<input type="hidden" name="environment" value="${environment}"><button type="submit" class="danger">Remove ${environment} list</button></form>`)}</td></tr>`;
  });
  return html`<table><thead><tr><th scope="col">Environment</th><th scope="col">Allowed redirect URLs</th><th scope="col">Remove</th></tr></thead><tbody>${rows}</tbody></table>
${forRole(
  ctx,
  'developer',
  html`<form method="post" action="${PAGE}/redirect-urls" class="stack">${csrf(ctx)}${environmentSelect(ctx, 'redirect-environment')}
<div class="field"><label for="redirect-urls">URLs, one a line (replaces the list; any query string is allowed on them)</label><textarea id="redirect-urls" name="urls" rows="4"></textarea></div>
<button type="submit">Save redirect URLs</button></form>`,
)}`;
}

function describeSync(config: SyncDefaults | null): Html {
  if (config === null) return html`<span class="muted">The service's defaults: every entity, 24 months of history, hourly.</span>`;
  const perEntity = Object.entries(config.entity_historical_months ?? {}).map(([e, m]) => `${e}: ${m}`);
  return html`<dl><dt>Entities</dt><dd>${config.entities?.join(', ') ?? 'all'}</dd>
<dt>History</dt><dd>${config.historical_months === undefined ? '24 months' : config.historical_months === 0 ? 'everything' : `${config.historical_months} months`}${perEntity.length === 0 ? '' : ` (${perEntity.join(', ')})`}</dd>
<dt>Incremental sync</dt><dd>every ${config.incremental_sync_frequency_minutes ?? 60} minutes</dd></dl>`;
}

function syncSection(ctx: DashboardContext, settings: PlatformSettings): Html {
  const d = settings.sync_defaults ?? {};
  const overrides = settings.overrides.map(
    (o) =>
      html`<tr><th scope="row"><a href="/dashboard/connections/${o.connection_id}">${o.name ?? o.connection_id}</a></th><td>${o.platform ?? '—'}</td><td>${o.status}</td><td>${describeSync(o.sync_config)}</td></tr>`,
  );
  return html`<p>Connections created without a <span class="mono">syncConfig</span> of their own follow this from their next sync; a connection created with one keeps it.</p>
<div data-testid="sync-defaults">${describeSync(settings.sync_defaults)}</div>
${forRole(
  ctx,
  'developer',
  html`<form method="post" action="${PAGE}/sync-defaults" class="stack" data-testid="sync-defaults-form">${csrf(ctx)}
<div class="field"><label for="sync-entities">Entities, comma-separated (empty: all), e.g. BILL, INVOICE, ACCOUNT</label><input type="text" id="sync-entities" name="entities" value="${d.entities?.join(', ') ?? ''}"></div>
<div class="field"><label for="sync-history">History window in months (0: everything; empty: 24)</label><input type="number" id="sync-history" name="historical_months" min="0" max="240" value="${d.historical_months ?? ''}"></div>
<div class="field"><label for="sync-entity-history">Per-entity history, e.g. BILL=12, INVOICE=6</label><input type="text" id="sync-entity-history" name="entity_historical_months" value="${Object.entries(
    d.entity_historical_months ?? {},
  )
    .map(([e, m]) => `${e}=${m}`)
    .join(', ')}"></div>
<div class="field"><label for="sync-frequency">Incremental sync every N minutes (60 to 20160; empty: 60)</label><input type="number" id="sync-frequency" name="incremental_sync_frequency_minutes" min="60" max="20160" value="${d.incremental_sync_frequency_minutes ?? ''}"></div>
<button type="submit">Save sync configuration</button></form>`,
)}
<h3>Connections with their own configuration (${ctx.environment})</h3>
${overrides.length === 0 ? html`<p class="muted">None: every connection follows the organisation's configuration.</p>` : html`<table data-testid="sync-overrides"><thead><tr><th scope="col">Connection</th><th scope="col">Platform</th><th scope="col">Status</th><th scope="col">Its configuration</th></tr></thead><tbody>${overrides}</tbody></table>`}`;
}

/** "BILL=12, INVOICE=6" as an object; a malformed entry is kept as a string so the API's 400 names it. */
function entityMonths(text: string): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const [entity = '', months = ''] = part.split('=').map((s) => s.trim());
    out[entity.toUpperCase()] = /^\d+$/.test(months) ? Number(months) : months;
  }
  return out;
}

/** A number field: absent when empty; as typed when not an integer, for the API's 400. */
function optionalInteger(value: string): number | string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

export function registerPlatformsPage(app: FastifyInstance): void {
  dashboardPage(app, PAGE, async (ctx) => {
    const [apps, redirects, settings] = [
      await ctx.api.get<{ oauth_apps: OAuthApp[] }>(orgUrl(ctx, '/oauth_apps')),
      await ctx.api.get<{ redirect_urls: RedirectUrls[] }>(orgUrl(ctx, '/redirect_urls')),
      await ctx.api.get<PlatformSettings>('/dashboard/api/platform-settings'),
    ];
    return {
      title: 'Platforms',
      section: 'platforms',
      body: html`<h2>Enabled products</h2>
${settings.ok ? html`<ul data-testid="products">${settings.body.products.map((p) => html`<li>${p}</li>`)}</ul><p class="muted">Enabled by your operator; ask them to change it.</p>` : problem(settings.error.error_message)}
<h2>OAuth apps</h2>
${apps.ok ? oauthApps(ctx, apps.body.oauth_apps) : problem(apps.error.error_message)}
<h2>Allowed redirect URLs</h2>
${redirects.ok ? redirectUrls(ctx, redirects.body.redirect_urls) : problem(redirects.error.error_message)}
<h2>Data batching</h2>
${
  settings.ok
    ? html`<p data-testid="data-batching">${settings.body.data_batching === null ? 'Off: initial syncs read all history at once.' : `On: batches at ${settings.body.data_batching.months.join(', ')} months back (HISTORICAL_UPDATE after each).`}</p>
${forRole(ctx, 'developer', html`<form method="post" action="${PAGE}/data-batching" class="stack">${csrf(ctx)}<div class="field"><label for="batching-months">Batch boundaries in months back, ascending (empty: off), e.g. 1, 6, 12</label><input type="text" id="batching-months" name="months" value="${settings.body.data_batching?.months.join(', ') ?? ''}"></div><button type="submit">Save data batching</button></form>`)}`
    : ''
}
<h2>Sync configuration</h2>
<p class="muted">The organisation's default, for sandbox and production alike (the environment switch does not narrow it).</p>
${settings.ok ? syncSection(ctx, settings.body) : ''}`,
    };
  });

  dashboardAction(app, `${PAGE}/oauth-apps`, async (ctx, body) => {
    const platform = formValue(body, 'platform').trim().toUpperCase();
    if (platform === '') return back(PAGE, { problem: 'Name the platform of the OAuth app (e.g. XERO).' });
    const scope = formValue(body, 'scope').trim();
    const webhookKey = formValue(body, 'webhook_key');
    const answer = await ctx.api.send<{ oauth_app: OAuthApp }>('PUT', orgUrl(ctx, `/oauth_apps/${encodeURIComponent(platform)}`), {
      environment: formValue(body, 'environment'),
      client_id: formValue(body, 'client_id').trim(),
      client_secret: formValue(body, 'client_secret'),
      redirect_uri: formValue(body, 'redirect_uri').trim(),
      ...(scope === '' ? {} : { scope }),
      ...(webhookKey === '' ? {} : { webhook_key: webhookKey }),
    });
    return outcome(PAGE, answer, (b) => `The ${b.oauth_app.platform} OAuth app of ${b.oauth_app.environment} is saved.`);
  });

  dashboardAction(app, `${PAGE}/oauth-apps/delete`, async (ctx, body) => {
    const platform = formValue(body, 'platform');
    const environment = formValue(body, 'environment');
    const answer = await ctx.api.send(
      'DELETE',
      `${orgUrl(ctx, `/oauth_apps/${encodeURIComponent(platform)}`)}?environment=${encodeURIComponent(environment)}`,
    );
    return outcome(PAGE, answer, () => `The ${platform} OAuth app of ${environment} is removed.`);
  });

  dashboardAction(app, `${PAGE}/redirect-urls`, async (ctx, body) => {
    const urls = formValue(body, 'urls')
      .split(/\r?\n/)
      .map((u) => u.trim())
      .filter((u) => u !== '');
    const answer = await ctx.api.send<{ redirect_urls: RedirectUrls }>('PUT', orgUrl(ctx, '/redirect_urls'), {
      environment: formValue(body, 'environment'),
      urls,
    });
    return outcome(PAGE, answer, (b) => `The ${b.redirect_urls.environment} redirect URLs are saved (${b.redirect_urls.urls.length}).`);
  });

  dashboardAction(app, `${PAGE}/redirect-urls/delete`, async (ctx, body) => {
    const environment = formValue(body, 'environment');
    const answer = await ctx.api.send('DELETE', `${orgUrl(ctx, '/redirect_urls')}?environment=${encodeURIComponent(environment)}`);
    return outcome(PAGE, answer, () => `The ${environment} redirect URL list is removed.`);
  });

  dashboardAction(app, `${PAGE}/data-batching`, async (ctx, body) => {
    const months = formValue(body, 'months')
      .split(',')
      .map((m) => m.trim())
      .filter((m) => m !== '')
      .map((m) => (/^\d+$/.test(m) ? Number(m) : m));
    const answer = await ctx.api.send<{ data_batching: { months: number[] } | null }>('PUT', orgUrl(ctx, '/data_batching'), { months });
    return outcome(PAGE, answer, (b) =>
      b.data_batching === null ? 'Data batching is off.' : `Data batching is on: ${b.data_batching.months.join(', ')} months.`,
    );
  });

  dashboardAction(app, `${PAGE}/sync-defaults`, async (ctx, body) => {
    const entities = formValue(body, 'entities')
      .split(',')
      .map((e) => e.trim().toUpperCase())
      .filter((e) => e !== '');
    const perEntity = entityMonths(formValue(body, 'entity_historical_months'));
    const historical = optionalInteger(formValue(body, 'historical_months'));
    const frequency = optionalInteger(formValue(body, 'incremental_sync_frequency_minutes'));
    const answer = await ctx.api.send<{ sync_defaults: SyncDefaults | null }>('PUT', '/dashboard/api/sync-defaults', {
      ...(entities.length === 0 ? {} : { entities }),
      ...(historical === undefined ? {} : { historical_months: historical }),
      ...(Object.keys(perEntity).length === 0 ? {} : { entity_historical_months: perEntity }),
      ...(frequency === undefined ? {} : { incremental_sync_frequency_minutes: frequency }),
    });
    return outcome(PAGE, answer, (b) =>
      b.sync_defaults === null
        ? "The sync configuration is back to the service's defaults."
        : 'The sync configuration is saved; connections that follow it use it from their next sync.',
    );
  });
}
