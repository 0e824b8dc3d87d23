/**
 * The sandbox platform's own web pages, standing in for a real platform's UI: the page a bank
 * feed's mapping link opens, where the business picks the ledger account the feed brings its
 * statement lines to. Linking makes the feed ready and active (transaction_ready, feed_status).
 *
 *   GET  /sandbox/bank-feeds/link/:token   the form: the company's free Bank and CreditCard accounts
 *   POST /sandbox/bank-feeds/link/:token   account_id (form-encoded) → links the feed, shows a done page
 *
 * Plain server-rendered HTML that works without JavaScript; every value is escaped. Served by the
 * service (registerSandboxPages, mounted by the plugin's pages: plugin.ts) and by the standalone server (server.ts), through
 * the same functions. A changed link answers 403, an expired one 410, each as a readable page.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ServiceError } from '../../../src/errors/catalogue.ts';
import { html, trustedHtml, type Html } from '../../../src/html/tag.ts';
import { LINK_PAGE_PATH } from './feed-link.ts';
import type { NativeAccount, NativeFeedAccount } from './native.ts';
import { NativeError } from './native-error.ts';
import type { SandboxPlatform } from './platform.ts';
import type { AccountState } from './store/state.ts';

export { LINK_PAGE_PATH } from './feed-link.ts';

export interface PageResponse {
  status: number;
  html: string;
}

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
/** A form of one field; anything bigger is not ours. */
export const FORM_BODY_LIMIT = 16 * 1024;

// ---- HTML: the product's tag (src/html/tag.ts), shared with the hosted link pages -----------------

const STYLE = `
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2733; background: #eef2f5; margin: 0; padding: 2rem 1rem; }
main { max-width: 34rem; margin: 0 auto; background: #fff; border-radius: 8px; padding: 1.5rem 2rem; box-shadow: 0 1px 3px rgba(0,0,0,.15); }
.brand { font-weight: 700; color: #0b6e4f; margin: 0 0 1rem; }
h1 { font-size: 1.4rem; margin: 0 0 .75rem; }
fieldset { border: 1px solid #c5ced6; border-radius: 6px; margin: 1rem 0; padding: .5rem 1rem 1rem; }
legend { font-weight: 600; padding: 0 .25rem; }
.choice { display: flex; gap: .5rem; align-items: baseline; padding: .35rem 0; }
.choice label { cursor: pointer; }
.muted { color: #55636f; }
.alert { border-left: 4px solid #b3261e; background: #fdecea; padding: .5rem .75rem; margin: 1rem 0; }
button { font: inherit; font-weight: 600; color: #fff; background: #0b6e4f; border: 0; border-radius: 6px; padding: .6rem 1.2rem; cursor: pointer; }
button:focus-visible, input:focus-visible { outline: 3px solid #f2b705; outline-offset: 2px; }
`;
// The page's only style is this constant: the policy allows exactly it, and no script at all.
const STYLE_HASH = `sha256-${createHash('sha256').update(STYLE).digest('base64')}`;

/** Response headers of every page: no caching or Referer leaks of the token in the address, no framing. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': `default-src 'none'; style-src '${STYLE_HASH}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
};

function layout(status: number, title: string, body: Html): PageResponse {
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${title} · Sandbox Books</title>
<style>${trustedHtml(STYLE)}</style>
</head>
<body>
<main>
<p class="brand">Sandbox Books</p>
${body}
</main>
</body>
</html>
`;
  return { status, html: page.text };
}

/** A page saying one thing (errors, mostly). */
export function messagePage(status: number, title: string, text: string): PageResponse {
  return layout(status, title, html`<h1>${title}</h1>\n<p>${text}</p>`);
}

const INVALID = (): PageResponse =>
  messagePage(
    403,
    'This link is not valid',
    'The address is not a bank feed link of Sandbox Books, or it was changed on the way. Ask the app that sent you here for a new link.',
  );
const EXPIRED = (): PageResponse =>
  messagePage(410, 'This link has expired', 'Bank feed links work for one hour. Ask the app that sent you here for a new link.');
const FEED_GONE = (): PageResponse =>
  messagePage(
    404,
    'This bank feed no longer exists',
    'The bank feed this link was made for has been removed. Ask the app that sent you here to set up the feed again.',
  );

function accountLabel(account: NativeAccount): string {
  return `${account.Code} · ${account.Name}`;
}

interface FormView {
  token: string;
  company: string;
  feed: NativeFeedAccount;
  accounts: readonly NativeAccount[];
  selected: string | null;
  error: string | null;
}

function formPage(status: number, view: FormView): PageResponse {
  const { feed } = view;
  const number = feed.AccountNumber === '' ? '' : html` (account ${feed.AccountNumber})`;
  const intro = html`<p><strong>${feed.Name}</strong> at ${feed.Institution}${number} sends its statement lines to
<strong>${view.company}</strong>. Choose the account in your books the lines go to.</p>`;
  // Always present, so a screen reader announces an error placed in it; empty when there is none.
  const alert = html`<div id="form-error" role="alert">${view.error === null ? '' : html`<p class="alert">${view.error}</p>`}</div>`;
  if (view.accounts.length === 0) {
    return layout(
      status,
      'Link a bank feed',
      html`<h1>Link a bank feed</h1>\n${intro}\n${alert}
<p>There is no bank or credit card account free to link this feed to. Add one to your chart of accounts, then open this link again.</p>`,
    );
  }
  const choices = view.accounts.map((account) => {
    const id = `account-${account.Id}`;
    const checked = account.Id === (view.selected ?? feed.AccountId) ? html` checked` : '';
    return html`<div class="choice"><input type="radio" id="${id}" name="account_id" value="${account.Id}" required${checked}>
<label for="${id}">${accountLabel(account)} <span class="muted">(${account.Type === 'CreditCard' ? 'credit card' : 'bank'}, ${account.CurrencyCode})</span></label></div>\n`;
  });
  const described = view.error === null ? '' : html` aria-describedby="form-error"`;
  return layout(
    status,
    'Link a bank feed',
    html`<h1>Link a bank feed</h1>
${intro}
${alert}
<form method="post" action="${LINK_PAGE_PATH}/${encodeURIComponent(view.token)}">
<fieldset${described}>
<legend>Account in your books</legend>
${choices}</fieldset>
<button type="submit">Link account</button>
</form>`,
  );
}

function donePage(feed: NativeFeedAccount, account: NativeAccount): PageResponse {
  const target = accountLabel(account);
  return layout(
    200,
    'Bank feed linked',
    html`<h1>Bank feed linked</h1>
<p><strong>${feed.Name}</strong> now brings its statement lines to <strong>${target}</strong>. The feed is active and ready for transactions.</p>
<p>You can close this window and go back to the app that sent you here.</p>`,
  );
}

// ---- Flow -------------------------------------------------------------------------------------

type Opened = { state: AccountState; feedId: string; company: string };

async function open(platform: SandboxPlatform, token: string): Promise<Opened | PageResponse> {
  const link = await platform.openLink(token);
  if (!link.ok) return link.reason === 'expired' ? EXPIRED() : INVALID();
  return { state: link.state, feedId: link.feedId, company: platform.identity(link.state).name };
}

/** GET: the form (or why there is none). */
export async function showLinkPage(platform: SandboxPlatform, token: string): Promise<PageResponse> {
  const opened = await open(platform, token);
  if (!('state' in opened)) return opened;
  const choices = await platform.linkChoices(opened.state, opened.feedId);
  if (choices === null) return FEED_GONE();
  return formPage(200, { token, company: opened.company, ...choices, selected: null, error: null });
}

/** POST: links the feed to the chosen account; the form again, with the reason, when it cannot. */
export async function submitLinkPage(platform: SandboxPlatform, token: string, form: Readonly<Record<string, string>>): Promise<PageResponse> {
  const opened = await open(platform, token);
  if (!('state' in opened)) return opened;
  const choices = await platform.linkChoices(opened.state, opened.feedId);
  if (choices === null) return FEED_GONE();
  const accountId = form.account_id ?? '';
  const again = (status: number, error: string): PageResponse =>
    formPage(status, {
      token,
      company: opened.company,
      ...choices,
      selected: accountId === '' ? null : accountId,
      error,
    });
  if (accountId === '') return again(400, 'Choose the account in your books the feed’s lines go to.');
  const account = choices.accounts.find((a) => a.Id === accountId);
  if (account === undefined) {
    return again(
      400,
      'That account cannot take this feed: it is not an active bank or credit card account, or another feed already uses it. Choose one of the accounts below.',
    );
  }
  try {
    return donePage(await platform.linkFeed(opened.state, opened.feedId, accountId), account);
  } catch (error) {
    // Another change got there first (the account was taken or archived, the feed removed).
    if (!(error instanceof NativeError) || error.status >= 500) throw error;
    if (error.status === 404) return FEED_GONE();
    return again(409, 'That account changed while you were choosing. Choose again from the accounts below.');
  }
}

/** Fields of a form-encoded body (the last value of a repeated name wins). */
export function parseForm(body: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(body)) fields[name] = value;
  return fields;
}

function formFields(body: unknown): Record<string, string> {
  if (typeof body !== 'object' || body === null) return {};
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') fields[name] = value;
  return fields;
}

// ---- Fastify ----------------------------------------------------------------------------------

/**
 * The status an error of these routes stands for: its own (ServiceError), or the one Fastify and its plugins
 * give theirs (a form too large, a bad content type: all 4xx); anything else is ours to fix. The platform's
 * pages classify errors themselves, as another service would: they do not lean on our API's error mapping.
 */
function statusOf(error: unknown): number {
  if (error instanceof ServiceError) return error.status;
  return typeof error === 'object' && error !== null && 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
}

function send(reply: FastifyReply, page: PageResponse): FastifyReply {
  return reply.code(page.status).headers(PAGE_HEADERS).send(page.html);
}

/** Serves the pages from the service, for `platform`: its plugin's (plugin.ts), or a test's own. */
export function registerSandboxPages(app: FastifyInstance, options: { platform: () => SandboxPlatform }): void {
  const { platform } = options;
  // Encapsulated: the form parser and the HTML error pages apply to these routes only (the API stays JSON).
  void app.register((scope, _options, done) => {
    if (!scope.hasContentTypeParser(FORM_CONTENT_TYPE)) {
      scope.addContentTypeParser(FORM_CONTENT_TYPE, { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, parsed) => {
        parsed(null, parseForm(typeof body === 'string' ? body : body.toString('utf8')));
      });
    }
    scope.setErrorHandler((error: unknown, request, reply) => {
      const status = statusOf(error);
      if (status >= 400 && status < 500)
        return send(reply, messagePage(status, 'This request was not understood', 'Open the link you were given again, and use the form on it.'));
      request.log.error({ err: error }, 'sandbox page failed');
      return send(
        reply,
        messagePage(
          500,
          'Something went wrong',
          `Sandbox Books could not show this page. Please try again in a few minutes. (Reference: ${request.id})`,
        ),
      );
    });
    scope.get<{ Params: { token: string } }>(`${LINK_PAGE_PATH}/:token`, { schema: { hide: true } }, async (request, reply) =>
      send(reply, await showLinkPage(platform(), request.params.token)),
    );
    scope.post<{ Params: { token: string } }>(`${LINK_PAGE_PATH}/:token`, { schema: { hide: true } }, async (request, reply) =>
      send(reply, await submitLinkPage(platform(), request.params.token, formFields(request.body))),
    );
    done();
  });
}
