/**
 * Stripe's error answers ({"error": {type, code, message, param}}, https://docs.stripe.com/api/errors): 404
 * resource_missing for an id it does not know, 400 for a parameter it refuses, 401 for a missing or wrong key, and its
 * "Unrecognized request URL" for a path it does not serve.
 */
import type { SimulatorAnswer } from '../kit.ts';

export type Json = Record<string, unknown>;

const DOCS = 'https://stripe.com/docs/error-codes';

export function stripeError(
  status: number,
  error: { type: 'invalid_request_error' | 'api_error'; message: string; code?: string; param?: string },
): SimulatorAnswer {
  const body: Json = { type: error.type, message: error.message };
  if (error.code !== undefined) {
    body.code = error.code;
    body.doc_url = `${DOCS}/${error.code.replaceAll('_', '-')}`;
  }
  if (error.param !== undefined) body.param = error.param;
  return { status, body: { error: body } };
}

/** A GET of an id the account does not hold. */
export const noSuch = (object: string, id: string, param = 'id'): SimulatorAnswer =>
  stripeError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${object}: '${id}'`, param });

export const unrecognized = (method: string, path: string): SimulatorAnswer =>
  stripeError(404, {
    type: 'invalid_request_error',
    message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
  });

export const badParameter = (param: string, message: string, code = 'parameter_invalid_integer'): SimulatorAnswer =>
  stripeError(400, { type: 'invalid_request_error', code, message, param });

export const unknownParameter = (param: string): SimulatorAnswer => badParameter(param, `Received unknown parameter: ${param}`, 'parameter_unknown');

/** A missing, unknown or revoked key: Stripe's 401 (its type is invalid_request_error; the status says authentication). */
export const invalidKey = (): SimulatorAnswer => ({
  ...stripeError(401, {
    type: 'invalid_request_error',
    code: 'api_key_invalid',
    message: 'Invalid API Key provided. A Stripe simulator key is the access_token its Connect OAuth issued (docs/simulators.md).',
  }),
  headers: { 'www-authenticate': 'Basic realm="Stripe"' },
});

/** A Stripe-Account header naming an account the key does not reach. */
export const noAccess = (account: string): SimulatorAnswer =>
  stripeError(403, {
    type: 'invalid_request_error',
    code: 'account_invalid',
    message: `The provided key does not have access to account '${account}' (or that account does not exist).`,
  });
