/**
 * Webhook bodies carry secrets the spec puts there: the connection's
 * access_token, and update_url (whose link token opens the connection's link
 * page). The event store must not hold them in clear: a stored body keeps each
 * such key with the value null (the key stays where it was, so the delivered
 * body is byte for byte what it was), and the value is stored sealed beside it
 * (events.access_token_ciphertext, events.update_url_ciphertext). The
 * dispatcher fills the slots when it sends the webhook.
 */
import type { Cipher } from '../crypto/secrets.ts';

const KEY = 'access_token';
const UPDATE_URL = 'update_url';

export interface StoredBody {
  /** The body with its access_token emptied (null). */
  payload: Record<string, unknown>;
  /** The access token taken out, or null when the body had none. */
  accessToken: string | null;
}

/** Takes the string at `key` out of a body: the body with null in its place, and the value (null when there is none). */
function takeSlot(body: Record<string, unknown>, key: string): { payload: Record<string, unknown>; value: string | null } {
  const value = body[key];
  if (typeof value !== 'string') return { payload: body, value: null };
  return { payload: { ...body, [key]: null }, value };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fillSlot(stored: unknown, key: string, value: string | null): unknown {
  if (value === null || !isObject(stored) || !(key in stored)) return stored;
  return { ...stored, [key]: value };
}

/** Splits a webhook body into what is stored in clear and the access token to seal. */
export function takeAccessToken(body: Record<string, unknown>): StoredBody {
  const { payload, value } = takeSlot(body, KEY);
  return { payload, accessToken: value };
}

/** Splits a webhook body into what is stored in clear and the update_url to seal. */
export function takeUpdateUrl(body: Record<string, unknown>): { payload: Record<string, unknown>; updateUrl: string | null } {
  const { payload, value } = takeSlot(body, UPDATE_URL);
  return { payload, updateUrl: value };
}

/** Splits a webhook body into what is stored in clear, the access token and the update_url to seal. */
export function takeSecrets(body: Record<string, unknown>): StoredBody & { updateUrl: string | null } {
  const { payload, accessToken } = takeAccessToken(body);
  return { ...takeUpdateUrl(payload), accessToken };
}

export function unsealAccessToken(cipher: Cipher, sealed: Buffer | null): string | null {
  return sealed === null ? null : cipher.decrypt(sealed);
}

/**
 * The body as delivered: the stored body with the token in its slot (the key
 * keeps its place). A body without the slot, or without a sealed token (its
 * connection was deleted before migration 0016 could seal one), is sent as stored.
 */
export function fillAccessToken(stored: unknown, token: string | null): unknown {
  return fillSlot(stored, KEY, token);
}

/** The body as delivered, both slots filled (each only where the stored body has it and a value was sealed). */
export function fillSecrets(stored: unknown, secrets: { accessToken: string | null; updateUrl: string | null }): unknown {
  return fillSlot(fillAccessToken(stored, secrets.accessToken), UPDATE_URL, secrets.updateUrl);
}

export interface SealedSlots {
  access_token_ciphertext: Buffer | null;
  update_url_ciphertext: Buffer | null;
}

/** A stored event's body as the dispatcher sends it: its sealed values unsealed, back in their slots. */
export function deliveredBody(
  cipher: Cipher,
  stored: unknown,
  sealed: SealedSlots,
): { body: unknown; accessToken: string | null; updateUrl: string | null } {
  const accessToken = unsealAccessToken(cipher, sealed.access_token_ciphertext);
  const updateUrl = sealed.update_url_ciphertext === null ? null : cipher.decrypt(sealed.update_url_ciphertext);
  return { body: fillSecrets(stored, { accessToken, updateUrl }), accessToken, updateUrl };
}

/** The link token in an update_url (its last path segment): what a receiver's echo must not bring back into storage. */
export function linkTokenIn(updateUrl: string): string {
  return updateUrl.slice(updateUrl.lastIndexOf('/') + 1);
}
