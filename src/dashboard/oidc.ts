/** OpenID Connect sign-in (optional): the button on the sign-in page when an identity provider is configured. */
import { html, type Html } from '../html/tag.ts';
import type { Config } from '../config.ts';

export function oidcSignInButton(_config: Config, _next: string): Html {
  return html``;
}
