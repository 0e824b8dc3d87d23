/**
 * The OAuth step: consent redirect with a single-use state (15 minutes, bound
 * to this browser), the callback that exchanges the code, an organisation
 * picker when the tokens reach several tenants, then the usual completion.
 */
import { linkTokenOf } from '../connections/link-token.ts';
import type { ConnectionRecord } from '../connections/types.ts';
import type { AuthContext, AuthorizationInput, Connector, OAuthCallbackParams, OAuthTenant, OAuthTokens } from '../platforms/connector.ts';
import { connectorContext, openCredentials, sealJson } from '../platforms/context.ts';
import { getConnector } from '../platforms/index.ts';
import { formToken, formTokenValid, newOAuthState, oauthStateBound } from './csrf.ts';
import {
  failure,
  failureStatus,
  finish,
  identify,
  logUnexpected,
  page,
  PLATFORM_CALL_TIMEOUT_MS,
  startOverHref,
  type FlowContext,
  type Outcome,
} from './flow.ts';
import { consentDeclinedMessage, EXPIRED_MESSAGE, NO_TENANT_MESSAGE, noOAuthAppMessage, platformFailureMessage } from './messages.ts';
import { destination, keptQuery, type Kept } from './params.ts';
import { findOAuthApp } from '../sql/oauth-apps.ts';
import { connectionOAuthApp } from '../platforms/oauth-app.ts';
import { simulatorFor } from '../platforms/simulators.ts';
import { claimOAuthState, insertOAuthState, type ClaimedOAuthState } from '../sql/oauth-states.ts';
import { messagePage, tenantPage } from './views.ts';

type OAuthAuth = Extract<Connector['auth'], { type: 'oauth2' }>;

/** What the tenant picker keeps sealed in oauth_states.pending_tokens_ciphertext. */
interface Pending {
  tokens: OAuthTokens;
  tenants: OAuthTenant[];
}

export const tenantSubject = (state: string): string => `tenant:${state}`;

function authContext(ctx: FlowContext, connector: Connector, connection: ConnectionRecord): AuthContext {
  return connectorContext({
    connector,
    connectionId: connection.id,
    credentials: {},
    tokens: null,
    environment: connection.environment,
    simulated: connection.simulated,
    db: ctx.services.pool,
    signal: AbortSignal.timeout(PLATFORM_CALL_TIMEOUT_MS),
  });
}

/** The input kept with a claimed state (sealed: a shop domain says whose shop it is); empty when none was asked. */
function inputOf(ctx: FlowContext, claimed: ClaimedOAuthState): AuthorizationInput {
  return openCredentials(ctx.services.cipher, claimed.authorizationInput);
}

function sealedInput(ctx: FlowContext, input: AuthorizationInput): Buffer | null {
  return Object.keys(input).length === 0 ? null : sealJson(ctx.services.cipher, input);
}

/** Sends the end user to the platform's consent page; `input`: the checked authorisation input (src/link/authorization-input.ts). */
export async function startOAuth(
  ctx: FlowContext & { secret: string },
  connection: ConnectionRecord,
  connector: Connector,
  auth: OAuthAuth,
  kept: Kept,
  redirect: string | null,
  input: AuthorizationInput,
): Promise<Outcome> {
  const own = await findOAuthApp(ctx.services.pool, ctx.services.cipher, connection, connector.id);
  // The sandbox environment without an app of the organisation's own: the platform's simulator, when this build has
  // one. A re-link keeps the connection's side: its account lives there.
  const simulated = connection.linkedAt !== null ? connection.simulated : own === null && connection.environment === 'sandbox';
  const simulator = simulated ? simulatorFor(connector.id) : undefined;
  const app = simulated ? (simulator?.app ?? null) : own;
  if (app === null) return failure(ctx, connection, connector, noOAuthAppMessage(connector, connection.environment), 503, null);
  const state = newOAuthState(ctx.secret);
  await insertOAuthState(ctx.services.pool, {
    state,
    connectionId: connection.id,
    platform: connector.id,
    destination: destination(redirect, connector.id, kept),
    pending: null,
    authorizationInput: sealedInput(ctx, input),
    simulated,
  });
  // The connection's own scope, else the app's (an operator's choice for apps that may ask for fewer), else the connector's.
  const consent = auth.authorizeUrl(app, state, connection.scope ?? own?.scope ?? null, input);
  return { kind: 'redirect', status: 302, location: simulator === undefined ? consent : simulator.consentUrl(consent) };
}

/** "Try again" from a claimed state: the connection's link, back in popup mode or with the same redirect. */
function retryHref(ctx: FlowContext, claimed: ClaimedOAuthState): string {
  const target = claimed.destination;
  const kept: Kept = {};
  if (target.startsWith('/')) {
    const params = new URL(target, 'http://link.invalid').searchParams;
    const origin = params.get('origin');
    if (params.get('mode') === 'popup' && origin !== null) {
      kept.mode = 'popup';
      kept.origin = origin;
    }
  } else if (target !== '') {
    kept.redirect_url = target;
  }
  return startOverHref(linkTokenOf(ctx.services.cipher, claimed.connection), keptQuery(kept));
}

function plainPage(status: number, title: string, message: string): Outcome {
  return page(status, (nonce) => messagePage({ nonce, title, message }));
}

const STATE_UNKNOWN =
  'This sign-in has already been used or is no longer valid, so nothing more was changed. If you still need to connect, start again from the app that sent you here.';

/** Claims a state for this browser, or says why it cannot be used. */
async function claim(ctx: FlowContext, state: string | undefined, pending: boolean): Promise<ClaimedOAuthState | Outcome> {
  if (state === undefined || state === '') {
    return plainPage(400, 'Sign-in incomplete', 'This address is missing part of the sign-in. Start again from the app that sent you here.');
  }
  if (!oauthStateBound(ctx.secret, state)) {
    return plainPage(
      403,
      'Sign-in not recognised',
      'This sign-in was started in another browser or window, so it cannot be finished here. Start again in this browser.',
    );
  }
  const claimed = await claimOAuthState(ctx.services.pool, state, pending);
  return claimed ?? plainPage(400, 'Sign-in no longer valid', STATE_UNKNOWN);
}

function oauthConnector(claimed: ClaimedOAuthState): { connector: Connector; auth: OAuthAuth } | null {
  const connector = getConnector(claimed.platform);
  return connector?.auth.type === 'oauth2' ? { connector, auth: connector.auth } : null;
}

export interface CallbackInput {
  state?: string;
  code?: string;
  error?: string;
  error_description?: string;
  [platformParam: string]: string | undefined;
}

/** The callback parameters the connector declared, as the platform sent them. */
function callbackParams(auth: OAuthAuth, query: CallbackInput): OAuthCallbackParams {
  const params: Record<string, string> = {};
  for (const name of auth.callbackParams ?? []) {
    const value = query[name];
    if (value !== undefined) params[name] = value;
  }
  return params;
}

/** The platform sends the end user back here after the consent page. */
export async function oauthCallback(ctx: FlowContext, query: CallbackInput): Promise<Outcome> {
  const claimed = await claim(ctx, query.state, false);
  if ('kind' in claimed) return claimed;
  const found = oauthConnector(claimed);
  if (found === null)
    return plainPage(404, 'Platform not available', 'This platform is no longer offered here. Start again from the app that sent you here.');
  const { connector, auth } = found;
  const fail = (message: string, status: number) => failure(ctx, claimed.connection, connector, message, status, retryHref(ctx, claimed));
  if (claimed.expired) return fail(EXPIRED_MESSAGE, 400);
  if (query.error !== undefined) return fail(consentDeclinedMessage(connector, query.error, query.error_description), 400);
  if (query.code === undefined || query.code === '')
    return fail(`${connector.name} did not send back a sign-in code, so nothing was connected. Please start again.`, 400);
  const app = await connectionOAuthApp(ctx.services.pool, ctx.services.cipher, claimed.connection, connector.id);
  if (app === null) return fail(noOAuthAppMessage(connector, claimed.connection.environment), 503);

  let tokens: OAuthTokens;
  let tenants: OAuthTenant[] | null = null;
  try {
    tokens = await auth.exchangeCode(
      authContext(ctx, connector, claimed.connection),
      app,
      query.code,
      callbackParams(auth, query),
      inputOf(ctx, claimed),
    );
    if (auth.listTenants !== undefined) tenants = await auth.listTenants(authContext(ctx, connector, claimed.connection), tokens);
  } catch (error) {
    logUnexpected(ctx, error, connector, 'code exchange');
    return fail(platformFailureMessage(connector, error), failureStatus(error, 400));
  }
  if (tenants !== null && tenants.length === 0) return fail(NO_TENANT_MESSAGE(connector), 400);
  if (tenants !== null && tenants.length > 1) return askForTenant(ctx, claimed, connector, { tokens, tenants }, null);
  const only = tenants?.[0];
  return complete(ctx, claimed, connector, only === undefined ? tokens : { ...tokens, tenantId: only.id });
}

/** Parks the tokens under a new single-use state and shows the organisation picker. */
async function askForTenant(
  ctx: FlowContext,
  claimed: ClaimedOAuthState,
  connector: Connector,
  pending: Pending,
  error: string | null,
): Promise<Outcome> {
  const secret = ctx.secret;
  if (secret === null) throw new Error('a claimed state implies the browser secret');
  const state = newOAuthState(secret);
  await insertOAuthState(ctx.services.pool, {
    state,
    connectionId: claimed.connection.id,
    platform: connector.id,
    destination: claimed.destination,
    pending: sealJson(ctx.services.cipher, pending),
    authorizationInput: claimed.authorizationInput,
    simulated: claimed.connection.simulated,
  });
  return page(error === null ? 200 : 422, (nonce) =>
    tenantPage({
      nonce,
      connector,
      tenants: pending.tenants,
      state,
      csrf: formToken(secret, tenantSubject(state)),
      error,
    }),
  );
}

/** The organisation picker's answer. */
export async function chooseTenant(ctx: FlowContext, body: { csrf?: string; state: string; tenant?: string }): Promise<Outcome> {
  if (!formTokenValid(ctx.secret, tenantSubject(body.state), body.csrf)) return forbidden();
  const claimed = await claim(ctx, body.state, true);
  if ('kind' in claimed) return claimed;
  const found = oauthConnector(claimed);
  if (found === null || claimed.pending === null) return plainPage(404, 'Platform not available', 'This platform is no longer offered here.');
  const { connector } = found;
  if (claimed.expired) return failure(ctx, claimed.connection, connector, EXPIRED_MESSAGE, 400, retryHref(ctx, claimed));
  const pending = JSON.parse(ctx.services.cipher.decrypt(claimed.pending)) as Pending;
  const chosen = pending.tenants.find((t) => t.id === body.tenant);
  if (chosen === undefined) return askForTenant(ctx, claimed, connector, pending, 'Choose an organisation to continue.');
  return complete(ctx, claimed, connector, { ...pending.tokens, tenantId: chosen.id });
}

async function complete(ctx: FlowContext, claimed: ClaimedOAuthState, connector: Connector, tokens: OAuthTokens): Promise<Outcome> {
  // Kept as the connection's sealed credentials: later calls (the API host of a shop) read it from ctx.credentials.
  const input = inputOf(ctx, claimed);
  const credentials = Object.keys(input).length === 0 ? null : input;
  const checked = await identify(ctx, claimed.connection, connector, input, tokens);
  if ('message' in checked) {
    return failure(ctx, claimed.connection, connector, checked.message, failureStatus(checked.error, 400), retryHref(ctx, claimed));
  }
  return finish(
    ctx,
    claimed.connection,
    { platform: connector.id, credentials, tokens, identity: checked.identity, simulated: claimed.connection.simulated },
    claimed.destination,
  );
}

export function forbidden(retry: string | null = null): Outcome {
  return page(403, (nonce) =>
    messagePage({
      nonce,
      title: 'Please start again',
      message: 'This form has expired or was not sent from this page, so nothing was changed. Go back to the start and try again.',
      retryHref: retry,
    }),
  );
}
