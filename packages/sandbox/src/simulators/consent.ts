/**
 * A simulated platform's consent page: sign in with a SANDBOX test account, then Allow or Deny. The form posts back to
 * the same address, which the kit answers by redirecting to the app's redirect URI, as the platform would.
 */
import { html, trustedHtml } from '../../../../src/html/tag.ts';
import { SANDBOX_PASSWORD } from '../scenarios.ts';
import type { SimulatorAnswer } from './kit.ts';

/** The OAuth parameters the consent form carries through. */
export const CONSENT_FIELDS = ['client_id', 'redirect_uri', 'scope', 'state', 'response_type', 'shop'] as const;

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}
label{display:block;margin:.75rem 0 .25rem}input[type=text],input[type=password]{width:100%;padding:.5rem;font:inherit}
.actions{margin-top:1.25rem;display:flex;gap:.75rem}button{padding:.5rem 1.25rem;font:inherit}
.note{background:#f3f5f7;padding:.75rem 1rem;border-radius:6px}.error{color:#b00020}`;

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  // No script at all; the form posts to this page and is redirected to the app's callback.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'cache-control': 'no-store',
};

export function consentPage(input: { name: string; params: URLSearchParams; status?: number; error?: string; username?: string }): SimulatorAnswer {
  const hidden = CONSENT_FIELDS.filter((field) => input.params.has(field)).map(
    (field) => html`<input type="hidden" name="${field}" value="${input.params.get(field) ?? ''}">`,
  );
  const scope = input.params.get('scope') ?? '';
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${input.name} (simulated): sign in</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${trustedHtml(STYLE)}</style></head>
<body><h1>${input.name} <small>(simulated)</small></h1>
<p class="note">This is Ledgerport's ${input.name} simulator: SANDBOX's synthetic books in ${input.name}'s own API, for the sandbox
environment. Sign in with a SANDBOX test account: <code>user_good</code> / <code>${SANDBOX_PASSWORD}</code>, or any
<code>user_…</code> name with that password for a business of its own.</p>
${input.error === undefined ? '' : html`<p class="error" role="alert">${input.error}</p>`}
<form method="post">${hidden}
<label for="username">Username</label><input type="text" id="username" name="username" value="${input.username ?? 'user_good'}" autocomplete="username">
<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password">
${scope === '' ? '' : html`<p>The app asks for: <code>${scope}</code></p>`}
<div class="actions"><button type="submit" name="decision" value="allow">Allow access</button>
<button type="submit" name="decision" value="deny">Deny</button></div></form></body></html>`;
  return { status: input.status ?? 200, headers: HEADERS, body: page.text };
}

export function errorPage(name: string, status: number, message: string): SimulatorAnswer {
  const page = html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name} (simulated): sign-in failed</title>
<style>${trustedHtml(STYLE)}</style></head><body><h1>Sign-in failed</h1><p class="error" id="error">${message}</p></body></html>`;
  return { status, headers: HEADERS, body: page.text };
}
