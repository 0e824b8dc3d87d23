/**
 * The step before an OAuth consent page for platforms whose consent address depends on the account (a Shopify shop
 * domain, an Amazon region: AuthSpec.authorizationInput). The end user fills a server-rendered form (CSRF as the
 * credential form); a value that does not match is answered 400 with the form again and nothing is stored; a good one
 * goes with the OAuth state to the consent page. A connection that already holds the input (given at creation, or
 * linked before: re-authentication stays on the same shop) goes straight to consent.
 */
import {
  authorizationInputFields,
  checkAuthorizationInput,
  invalidInputMessage,
  storedAuthorizationInput,
} from '../platforms/authorization-input.ts';
import type { AuthorizationInput, Connector } from '../platforms/connector.ts';
import { openCredentials } from '../platforms/context.ts';
import { formToken } from './csrf.ts';
import { formSubject } from './credentials.ts';
import { page, type FlowContext, type LinkConnection, type Outcome } from './flow.ts';
import { startOAuth } from './oauth.ts';
import type { Kept } from './params.ts';
import { authorizationInputPage } from './views.ts';

type OAuthAuth = Extract<Connector['auth'], { type: 'oauth2' }>;

interface InputFormState {
  values: Partial<Record<string, string>>;
  error: string | null;
  invalid: readonly string[];
}

function inputForm(connection: LinkConnection, connector: Connector, kept: Kept, secret: string, status: number, state: InputFormState): Outcome {
  // The store-name prefill parameter fills a store_name field here as on the credential form, and the fields that
  // derive from it (a Shopify shop domain) as they say.
  const values = { ...(kept.store_name === undefined ? {} : { store_name: kept.store_name }), ...prefilled(connector, kept), ...state.values };
  return page(status, (nonce) =>
    authorizationInputPage({
      nonce,
      linkToken: connection.linkToken,
      kept,
      connector,
      fields: authorizationInputFields(connector),
      csrf: formToken(secret, formSubject(connection)),
      values,
      error: state.error,
      invalid: state.invalid,
      reconnect: connection.linkedAt !== null,
      canChangePlatform: connection.platform === null,
    }),
  );
}

/** Values of the fields that derive from the store-name prefill parameter (AuthorizationInputField.fromStoreName). */
function prefilled(connector: Connector, kept: Kept): Record<string, string> {
  const storeName = kept.store_name?.trim();
  if (storeName === undefined || storeName === '') return {};
  const values: Record<string, string> = {};
  for (const spec of authorizationInputFields(connector)) if (spec.fromStoreName !== undefined) values[spec.field] = spec.fromStoreName(storeName);
  return values;
}

/**
 * The OAuth step of a GET: the input form when the platform asks for input the connection does not hold yet. A
 * store-name prefill that gives every field a good value starts the flow at that store at once (as a re-link does).
 */
export function oauthStep(
  ctx: FlowContext & { secret: string },
  connection: LinkConnection,
  connector: Connector,
  auth: OAuthAuth,
  kept: Kept,
  redirect: string | null,
): Promise<Outcome> {
  const fields = authorizationInputFields(connector);
  const held: AuthorizationInput = connection.platform === connector.id ? openCredentials(ctx.services.cipher, connection.credentialsCiphertext) : {};
  const input = storedAuthorizationInput(fields, held);
  if (input !== null) return startOAuth(ctx, connection, connector, auth, kept, redirect, input);
  const fromPrefill = prefilled(connector, kept);
  if (Object.keys(fromPrefill).length > 0) {
    const checked = checkAuthorizationInput(fields, fromPrefill);
    if (checked.ok) return startOAuth(ctx, connection, connector, auth, kept, redirect, checked.input);
  }
  return Promise.resolve(inputForm(connection, connector, kept, ctx.secret, 200, { values: {}, error: null, invalid: [] }));
}

/** The submitted input form: checked, then off to the consent page with it. */
export function submitAuthorizationInput(
  ctx: FlowContext & { secret: string },
  connection: LinkConnection,
  connector: Connector,
  auth: OAuthAuth,
  kept: Kept,
  submitted: Partial<Record<string, string>>,
  redirect: string | null,
): Promise<Outcome> {
  const checked = checkAuthorizationInput(authorizationInputFields(connector), submitted);
  if (!checked.ok) {
    return Promise.resolve(
      inputForm(connection, connector, kept, ctx.secret, 400, {
        values: checked.values,
        error: invalidInputMessage(checked.invalid),
        invalid: checked.invalid.map((spec) => spec.field),
      }),
    );
  }
  return startOAuth(ctx, connection, connector, auth, kept, redirect, checked.input);
}
