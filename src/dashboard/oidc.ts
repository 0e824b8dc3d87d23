/**
 * OpenID Connect sign-in (optional): the button on the sign-in page when an identity provider is configured (OIDC_*).
 * The flow itself: src/dashboard/oidc-routes.ts. A link, not a form: a form's redirect to the provider would break
 * the dashboard's CSP (form-action 'self').
 */
import { html, type Html } from '../html/tag.ts';
import type { Config } from '../config.ts';

export function oidcSignInButton(config: Config, next: string): Html {
  if (config.oidc === null) return html``;
  return html`<p class="oidc-sign-in">or <a href="/dashboard/oidc/start?next=${encodeURIComponent(next)}">Sign in with ${config.oidc.buttonLabel}</a></p>`;
}

/** On an invitation link's page: accept it by signing in at the provider as the person invited (docs/dashboard.md). */
export function oidcAcceptButton(config: Config, invitationToken: string): Html {
  if (config.oidc === null) return html``;
  return html`<p class="oidc-sign-in">or <a href="/dashboard/oidc/start?invitation=${encodeURIComponent(invitationToken)}">Accept with ${config.oidc.buttonLabel}</a></p>`;
}
