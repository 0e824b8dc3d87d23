/**
 * Credentials carried on every request, described rather than written per connector: an API key in a header of the
 * platform's choosing (`x-api-key`, or `Authorization: Bearer …` with a prefix), or HTTP Basic. The values come from
 * the connection's stored credentials by field name. OAuth 1.0a signatures are oauth1.ts; sessions from
 * credentials are AuthSpec `session` (tokens.ts).
 */
import type { CredentialField, Credentials } from './connector.ts';
import { PlatformError } from './errors.ts';

export type CredentialScheme =
  | {
      type: 'api_key';
      /** Header the key goes in (`x-api-key`, `authorization`). */
      header: string;
      /** Written before the key (`Bearer `, `Token token=`); none by default. */
      prefix?: string;
      /** Default `api_key`. */
      field?: CredentialField;
    }
  | { type: 'basic'; username?: CredentialField; password?: CredentialField };

function required(credentials: Credentials, field: CredentialField): string {
  const value = credentials[field];
  if (value === undefined || value === '') {
    throw new PlatformError({
      kind: 'unauthorized',
      message: `The connection has no ${field}: the end user must give it again.`,
      requestSent: false,
    });
  }
  return value;
}

/** The headers a request carries for `scheme` with the connection's credentials (names lower-case). */
export function credentialHeaders(scheme: CredentialScheme, credentials: Credentials): Record<string, string> {
  if (scheme.type === 'api_key') {
    return { [scheme.header.toLowerCase()]: `${scheme.prefix ?? ''}${required(credentials, scheme.field ?? 'api_key')}` };
  }
  const username = required(credentials, scheme.username ?? 'basic_username');
  // A password may be empty (Stripe-style keys as the user name); only the user name is required.
  const password = credentials[scheme.password ?? 'basic_password'] ?? '';
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
}
