/**
 * Checks the authorisation input an OAuth platform asks for before its consent page (AuthSpec.authorizationInput):
 * shared by the link flow's form and POST /connections/create, so both accept and refuse the same values.
 */
import type { AuthorizationInput, AuthorizationInputField, Connector } from './connector.ts';

export function authorizationInputFields(connector: Connector): readonly AuthorizationInputField[] {
  return connector.auth.type === 'oauth2' ? (connector.auth.authorizationInput ?? []) : [];
}

export type CheckedInput =
  { ok: true; input: AuthorizationInput } | { ok: false; invalid: readonly AuthorizationInputField[]; values: Partial<Record<string, string>> };

/** Normalised values when every field is there and matches its pattern; otherwise the fields that do not. */
export function checkAuthorizationInput(fields: readonly AuthorizationInputField[], submitted: Partial<Record<string, unknown>>): CheckedInput {
  const input: AuthorizationInput = {};
  const values: Record<string, string> = {};
  const invalid: AuthorizationInputField[] = [];
  for (const spec of fields) {
    const raw = submitted[spec.field];
    const trimmed = typeof raw === 'string' ? raw.trim() : '';
    const value = spec.lowercase === true ? trimmed.toLowerCase() : trimmed;
    values[spec.field] = value;
    if (value === '' || value.length > 255 || !spec.pattern.test(value)) invalid.push(spec);
    else input[spec.field] = value;
  }
  return invalid.length === 0 ? { ok: true, input } : { ok: false, invalid, values };
}

/** The sentence for the fields that do not match, for a form or a 400. */
export function invalidInputMessage(invalid: readonly AuthorizationInputField[]): string {
  return invalid.map((spec) => `${spec.label}: ${spec.hint}`).join(' ');
}

/** The stored input of a connection (its credentials) when it has every field and each still matches. */
export function storedAuthorizationInput(fields: readonly AuthorizationInputField[], stored: AuthorizationInput): AuthorizationInput | null {
  if (fields.length === 0) return {};
  const checked = checkAuthorizationInput(fields, stored);
  return checked.ok ? checked.input : null;
}

/**
 * The credential fields `POST /connections/create` takes for a platform: the input an OAuth platform asks for before
 * its consent page, else the fields it signs in with; null when it takes none (its consent page gives the tokens).
 */
function credentialFieldsTaken(connector: Connector): { fields: readonly string[]; when: string } | null {
  const input = authorizationInputFields(connector);
  if (input.length > 0) return { fields: input.map((spec) => spec.field), when: 'before its consent page it takes' };
  const fields = connector.auth.type === 'credentials' ? connector.auth.fields : connector.auth.credentials;
  return fields === undefined ? null : { fields: fields.map((spec) => spec.field), when: 'it signs in with' };
}

/**
 * The first submitted credential field the platform does not take, and the sentence a 400 says about it; null when it
 * takes every one (or takes none at all, which the caller refuses in its own words). A field the platform ignores
 * must not be kept silently: the caller believes it was used.
 */
export function credentialFieldNotTaken(connector: Connector, submitted: readonly string[]): { field: string; message: string } | null {
  const taken = credentialFieldsTaken(connector);
  const other = taken === null ? undefined : submitted.find((field) => !taken.fields.includes(field));
  if (taken === null || other === undefined) return null;
  return { field: other, message: `\`${other}\` is not taken by ${connector.id}: ${taken.when} ${taken.fields.join(', ')}.` };
}
