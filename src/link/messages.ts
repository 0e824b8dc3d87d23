/**
 * Plain-words messages for what can go wrong in the link flow. The same text
 * is shown to the end user and sent as `message` in CONNECTION_LINK_ERROR, so
 * it must make sense to both and never expose internals.
 */
import type { Connector } from '../platforms/connector.ts';
import { PlatformError } from '../platforms/errors.ts';

const MAX_PLATFORM_TEXT = 200;

/** "username and password", "store name, API key and secret". */
function fieldList(connector: Connector): string {
  if (connector.auth.type !== 'credentials') return 'details';
  const labels = connector.auth.fields.filter((f) => f.required).map((f) => lowerFirst(splitLabel(f.label).label));
  if (labels.length === 0) return 'details';
  if (labels.length === 1) return labels[0] ?? 'details';
  return `${labels.slice(0, -1).join(', ')} and ${labels.at(-1) ?? ''}`;
}

/** "Password (pass_good)" → the label "Password" and the hint "pass_good". */
export function splitLabel(label: string): { label: string; hint: string | null } {
  const match = /^(.+?)\s*\((.+)\)\s*$/.exec(label);
  return match?.[1] === undefined || match[2] === undefined ? { label, hint: null } : { label: match[1], hint: match[2] };
}

/** Keeps acronyms (API key, URL) as they are. */
function lowerFirst(label: string): string {
  return /^[A-Z][a-z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;
}

function quoted(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  return trimmed.length > MAX_PLATFORM_TEXT ? `${trimmed.slice(0, MAX_PLATFORM_TEXT - 1)}…` : trimmed;
}

/** What the platform's refusal means for the person at the keyboard. */
export function platformFailureMessage(connector: Connector, error: unknown): string {
  const name = connector.name;
  if (!(error instanceof PlatformError)) return `Something went wrong on our side while connecting to ${name}. Please try again in a few minutes.`;
  switch (error.kind) {
    case 'unauthorized':
    case 'forbidden':
      return connector.auth.type === 'credentials'
        ? `Those credentials were not accepted by ${name}. Check the ${fieldList(connector)}.`
        : `${name} did not grant access. Sign in again and allow access when ${name} asks.`;
    case 'rate_limited':
      return `${name} is receiving too many requests right now. Wait a minute, then try again.`;
    case 'server':
    case 'network':
    case 'timeout':
      return `${name} could not be reached just now. Please try again in a few minutes.`;
    case 'billing':
      return `${name} reported a problem with this account's subscription or billing. Sort it out with ${name}, then try again.`;
    case 'bad_request':
    case 'not_found':
    case 'conflict':
    case 'duplicate':
      return `${name} did not accept these details (${name} said: "${quoted(error.platformMessage)}"). Check them and try again.`;
  }
}

export function missingFieldsMessage(labels: readonly string[]): string {
  const plain = labels.map((label) => lowerFirst(splitLabel(label).label));
  return plain.length === 1 ? `Enter your ${plain[0] ?? ''}.` : `Fill in every field: ${plain.join(', ')}.`;
}

export function consentDeclinedMessage(connector: Connector, error: string, description: string | undefined): string {
  if (error === 'access_denied') return `Access was declined on ${connector.name}, so nothing was connected. Start again if you meant to allow it.`;
  const detail = description === undefined || description.trim() === '' ? error : description;
  return `${connector.name} could not complete the sign-in (${connector.name} said: "${quoted(detail)}"). Please start again.`;
}

export function noOAuthAppMessage(connector: Connector, environment: string): string {
  return (
    `${connector.name} is not set up for this app yet, so it cannot be connected right now. ` +
    `(For the developer: register your ${connector.name} OAuth app for the ${environment} environment with Ledgerport.)`
  );
}

export function otherAccountMessage(connector: Connector, storeName: string | null): string {
  const which = storeName === null ? 'the account connected before' : `"${storeName}"`;
  return `You signed in to a different ${connector.name} account. To reconnect, sign in to ${which}.`;
}

export const EXPIRED_MESSAGE = 'The sign-in took longer than 15 minutes and expired, so nothing was connected. Please start again.';
export const NO_TENANT_MESSAGE = (connector: Connector): string =>
  `Your ${connector.name} login has no organisation that can be connected. Sign in with a user who belongs to one.`;
