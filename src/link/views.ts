/**
 * The link flow's pages. Plain forms and links that work without JavaScript;
 * the little script there is only disables a button while a form is sent and,
 * in popup mode, hands the public token to the page that opened the popup.
 */
import type { AuthorizationInputField, Connector, CredentialFieldSpec, OAuthTenant, PlatformKind } from '../platforms/connector.ts';
import { html, page, type Html } from './html.ts';
import { splitLabel } from './messages.ts';
import { keptOf, keptQuery, type Kept } from './params.ts';

const KIND_LABELS: Record<PlatformKind, string> = {
  accounting: 'Accounting',
  commerce: 'Commerce',
  payments: 'Payments',
  bank_feed: 'Bank feeds',
};

/** Disables the submit button while the form is being sent (no double submits). */
const BUSY_SCRIPT = `document.querySelectorAll('form[data-busy]').forEach(function (form) {
  form.addEventListener('submit', function () {
    var button = form.querySelector('button[type=submit]');
    if (button) { button.disabled = true; button.textContent = form.getAttribute('data-busy'); }
  });
});`;

/** Popup mode: the token goes to the opener, and only to the origin the host page gave. */
const DONE_SCRIPT = `(function () {
  var data = document.getElementById('lp-done').dataset;
  if (!window.opener || !data.origin || !data.token) return;
  window.opener.postMessage({ type: 'ledgerport:success', public_token: data.token }, data.origin);
  document.getElementById('lp-done-note').textContent = 'This window will close now.';
  window.setTimeout(function () { window.close(); }, 50);
})();`;

function monogram(name: string): string {
  const words = name.split(/\s+/).filter((w) => w !== '');
  return (words.length > 1 ? `${words[0]?.charAt(0) ?? ''}${words[1]?.charAt(0) ?? ''}` : name.slice(0, 1)).toUpperCase();
}

/** Kept values as hidden fields, except those the form asks for itself (store_name on a store platform). */
function hiddenKept(kept: Kept, visible: readonly string[] = []): Html {
  return html`${Object.entries(keptOf(kept))
    .filter(([name]) => !visible.includes(name))
    .map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">\n`)}`;
}

function errorRegion(message: string | null): Html {
  // Always present so screen readers announce a message placed in it; hidden by CSS while empty.
  return html`<div id="form-error" class="alert" role="alert" aria-live="assertive">${message ?? ''}</div>`;
}

export interface PickerView {
  nonce: string;
  linkToken: string;
  kept: Kept;
  connectors: readonly Connector[];
  notice: string | null;
}

export function pickerPage(view: PickerView): string {
  const query = keptQuery(view.kept);
  const items = view.connectors.map(
    (c) => html`<li><a class="platform" href="/link/${encodeURIComponent(view.linkToken)}/${c.id}${query}">
<span class="platform-logo" aria-hidden="true">${monogram(c.name)}</span>
<span class="platform-text"><span class="platform-name">${c.name}</span><span class="platform-kind">${KIND_LABELS[c.kind]}</span></span>
<span class="chevron" aria-hidden="true">›</span></a></li>`,
  );
  const body = html`<h1>Connect your account</h1>
<p class="lead">Choose the platform your business uses. You will sign in to it next.</p>
${errorRegion(view.notice)}
${
  view.connectors.length === 0
    ? html`<p>No platforms are available on this service yet.</p>`
    : html`<nav aria-label="Platforms"><ul class="platforms">${items}</ul></nav>`
}`;
  return page({ title: 'Choose your platform', body, nonce: view.nonce });
}

export interface CredentialsView {
  nonce: string;
  linkToken: string;
  kept: Kept;
  connector: Connector;
  fields: readonly CredentialFieldSpec[];
  csrf: string;
  /** Values to show again (never secrets). */
  values: Partial<Record<string, string>>;
  error: string | null;
  invalid: readonly string[];
  reconnect: boolean;
  canChangePlatform: boolean;
}

function autocompleteOf(spec: CredentialFieldSpec): string {
  if (spec.field === 'basic_username') return 'username';
  if (spec.field === 'basic_password') return 'current-password';
  return 'off';
}

export function credentialsPage(view: CredentialsView): string {
  const { connector } = view;
  const firstInvalid = view.fields.find((f) => view.invalid.includes(f.field))?.field ?? (view.error === null ? view.fields[0]?.field : undefined);
  const inputs = view.fields.map((spec) => {
    const id = `f-${spec.field}`;
    const invalid = view.invalid.includes(spec.field);
    const { label, hint } = splitLabel(spec.label);
    const hints = [hint, spec.required ? null : 'Optional'].filter((h) => h !== null).join(' · ');
    return html`<div class="field">
<label for="${id}">${label}${hints === '' ? '' : html` <span class="hint">${hints}</span>`}</label>
<input id="${id}" name="${spec.field}" type="${spec.secret ? 'password' : 'text'}" autocomplete="${autocompleteOf(spec)}"
 autocapitalize="none" spellcheck="false"${spec.required ? html` required` : ''}${invalid ? html` aria-invalid="true" aria-describedby="form-error"` : ''}${firstInvalid === spec.field ? html` autofocus` : ''}
 value="${spec.secret ? '' : (view.values[spec.field] ?? '')}">
</div>`;
  });
  const action = `/link/${encodeURIComponent(view.linkToken)}/${connector.id}`;
  const body = html`<h1>${view.reconnect ? 'Reconnect' : 'Connect'} ${connector.name}</h1>
<p class="lead">${
    view.reconnect
      ? `Sign in to ${connector.name} again so your data keeps flowing.`
      : `Enter your ${connector.name} details. They are checked with ${connector.name} and stored encrypted.`
  }</p>
${errorRegion(view.error)}
<form method="post" action="${action}" data-busy="Connecting…">
<input type="hidden" name="csrf" value="${view.csrf}">
${hiddenKept(
  view.kept,
  view.fields.map((f) => f.field),
)}${inputs}
<button type="submit">${view.reconnect ? 'Reconnect' : 'Connect'}</button>
</form>
${view.canChangePlatform ? html`<a class="back" href="/link/${encodeURIComponent(view.linkToken)}${keptQuery(view.kept)}">← Choose a different platform</a>` : ''}`;
  return page({ title: `${view.reconnect ? 'Reconnect' : 'Connect'} ${connector.name}`, body, nonce: view.nonce, script: BUSY_SCRIPT });
}

export interface AuthorizationInputView extends Omit<CredentialsView, 'fields'> {
  fields: readonly AuthorizationInputField[];
}

/** What an OAuth platform needs to know before its consent page (a shop domain); the form posts back to this step. */
export function authorizationInputPage(view: AuthorizationInputView): string {
  const { connector } = view;
  const firstInvalid = view.fields.find((f) => view.invalid.includes(f.field))?.field ?? view.fields[0]?.field;
  const inputs = view.fields.map((spec) => {
    const id = `f-${spec.field}`;
    const invalid = view.invalid.includes(spec.field);
    return html`<div class="field">
<label for="${id}">${spec.label} <span class="hint">${spec.hint}</span></label>
<input id="${id}" name="${spec.field}" type="text" autocomplete="off" autocapitalize="none" spellcheck="false" required
${invalid ? html` aria-invalid="true" aria-describedby="form-error"` : ''}${firstInvalid === spec.field ? html` autofocus` : ''} value="${view.values[spec.field] ?? ''}">
</div>`;
  });
  const action = `/link/${encodeURIComponent(view.linkToken)}/${connector.id}`;
  const body = html`<h1>${view.reconnect ? 'Reconnect' : 'Connect'} ${connector.name}</h1>
<p class="lead">Tell us which ${connector.name} account to connect. You will sign in to ${connector.name} next.</p>
${errorRegion(view.error)}
<form method="post" action="${action}" data-busy="Continuing…">
<input type="hidden" name="csrf" value="${view.csrf}">
${hiddenKept(
  view.kept,
  view.fields.map((f) => f.field),
)}${inputs}
<button type="submit">Continue</button>
</form>
${view.canChangePlatform ? html`<a class="back" href="/link/${encodeURIComponent(view.linkToken)}${keptQuery(view.kept)}">← Choose a different platform</a>` : ''}`;
  return page({ title: `${view.reconnect ? 'Reconnect' : 'Connect'} ${connector.name}`, body, nonce: view.nonce, script: BUSY_SCRIPT });
}

export interface TenantView {
  nonce: string;
  connector: Connector;
  tenants: readonly OAuthTenant[];
  state: string;
  csrf: string;
  error: string | null;
}

export function tenantPage(view: TenantView): string {
  const options = view.tenants.map(
    (tenant, i) => html`<label class="choice" for="t-${i}">
<input type="radio" id="t-${i}" name="tenant" value="${tenant.id}" required${i === 0 ? html` autofocus` : ''}> ${tenant.name}</label>`,
  );
  const body = html`<h1>Choose an organisation</h1>
<p class="lead">Your ${view.connector.name} login can reach several organisations. Pick the one to connect.</p>
${errorRegion(view.error)}
<form method="post" action="/link/oauth/tenant" data-busy="Connecting…">
<input type="hidden" name="csrf" value="${view.csrf}">
<input type="hidden" name="state" value="${view.state}">
<fieldset><legend class="visually-hidden">Organisation</legend>${options}</fieldset>
<button type="submit">Connect</button>
</form>`;
  return page({ title: `Choose your ${view.connector.name} organisation`, body, nonce: view.nonce, script: BUSY_SCRIPT });
}

export interface DoneView {
  nonce: string;
  platformName: string | null;
  /** Popup mode: the token is posted to this origin only. */
  popup: { origin: string; publicToken: string } | null;
}

export function donePage(view: DoneView): string {
  const what = view.platformName === null ? 'Your account' : `Your ${view.platformName} account`;
  const body = html`<div id="lp-done"${view.popup === null ? '' : html` data-origin="${view.popup.origin}" data-token="${view.popup.publicToken}"`}>
<div class="success-mark" aria-hidden="true">✓</div>
<h1>You're connected</h1>
<p class="lead">${what} is now connected. Your data will start to appear shortly.</p>
<p id="lp-done-note" role="status">You can close this window.</p>
</div>`;
  return page({ title: 'Connected', body, nonce: view.nonce, ...(view.popup === null ? {} : { script: DONE_SCRIPT }) });
}

export interface MessageView {
  nonce: string;
  title: string;
  message: string;
  /** "Try again" destination, when starting over can help. */
  retryHref?: string | null;
}

export function messagePage(view: MessageView): string {
  const body = html`<h1>${view.title}</h1>
<div class="alert" role="alert">${view.message}</div>
${view.retryHref === undefined || view.retryHref === null ? '' : html`<a class="button" href="${view.retryHref}">Try again</a>`}`;
  return page({ title: view.title, body, nonce: view.nonce });
}

export function notFoundPage(nonce: string): string {
  return messagePage({
    nonce,
    title: 'Link not found',
    message: 'This link does not exist or is no longer valid. Ask the app that sent you here for a new link.',
  });
}
