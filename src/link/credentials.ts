/** The credential step: a form built from the connector's fields, checked with the platform on submit. */
import type { Connector, CredentialFieldSpec, Credentials } from '../platforms/connector.ts';
import { PlatformError } from '../platforms/errors.ts';
import { formToken } from './csrf.ts';
import { failureStatus, finish, identify, page, reportLinkError, type FlowContext, type LinkConnection, type Outcome } from './flow.ts';
import { missingFieldsMessage } from './messages.ts';
import { destination, type Kept } from './params.ts';
import { credentialsPage } from './views.ts';
import { finishPolled } from './polled.ts';

/** Subject of the credential form's CSRF token: the flow it belongs to. */
export const formSubject = (connection: LinkConnection): string => `link:${connection.linkToken}`;

function fieldsOf(connector: Connector): readonly CredentialFieldSpec[] {
  return connector.auth.type === 'credentials' ? connector.auth.fields : [];
}

export interface FormState {
  values: Partial<Record<string, string>>;
  error: string | null;
  invalid: readonly string[];
}

export function credentialsForm(
  connection: LinkConnection,
  connector: Connector,
  kept: Kept,
  secret: string,
  status: number,
  state: FormState,
): Outcome {
  // The store-name prefill parameter (Shopify): fills the store_name field when the platform has one.
  const values = { ...(kept.store_name === undefined ? {} : { store_name: kept.store_name }), ...state.values };
  return page(status, (nonce) =>
    credentialsPage({
      nonce,
      linkToken: connection.linkToken,
      kept,
      connector,
      fields: fieldsOf(connector),
      csrf: formToken(secret, formSubject(connection)),
      values,
      error: state.error,
      invalid: state.invalid,
      reconnect: connection.linkedAt !== null,
      canChangePlatform: connection.platform === null,
    }),
  );
}

/** The submitted form: validated, checked with the platform, then linked. */
export async function submitCredentials(
  ctx: FlowContext & { secret: string },
  connection: LinkConnection,
  connector: Connector,
  kept: Kept,
  submitted: Partial<Record<string, string>>,
  redirect: string | null,
): Promise<Outcome> {
  const fields = fieldsOf(connector);
  const credentials: Credentials = {};
  const shown: Record<string, string> = {};
  for (const spec of fields) {
    const raw = submitted[spec.field] ?? '';
    // Secrets are taken as typed; a stray space around a user name or store name is a typo.
    const value = spec.secret ? raw : raw.trim();
    if (value !== '') credentials[spec.field] = value;
    if (!spec.secret) shown[spec.field] = value;
  }
  const missing = fields.filter((spec) => spec.required && credentials[spec.field] === undefined);
  if (missing.length > 0) {
    return credentialsForm(connection, connector, kept, ctx.secret, 422, {
      values: shown,
      error: missingFieldsMessage(missing.map((m) => m.label)),
      invalid: missing.map((m) => m.field),
    });
  }
  const checked = await identify(ctx, connection, connector, credentials, null);
  if ('message' in checked) {
    await reportLinkError(ctx, connection, connector.id, checked.message);
    // An outage says nothing about the fields; a refusal is about all of them, and counts as a failed sign-in.
    const retryable = checked.error instanceof PlatformError && checked.error.retryable;
    if (checked.error instanceof PlatformError && !retryable) await ctx.refused();
    return credentialsForm(connection, connector, kept, ctx.secret, failureStatus(checked.error, 422), {
      values: shown,
      error: checked.message,
      invalid: retryable ? [] : fields.map((f) => f.field),
    });
  }
  // A platform that calls us: the end user leaves with what to install (the .qwc file and its password).
  if (connector.polled !== undefined) {
    return finishPolled(ctx, connection, connector, { credentials, identity: checked.identity }, destination(redirect, connector.id, kept));
  }
  return finish(
    ctx,
    connection,
    { platform: connector.id, credentials, tokens: null, identity: checked.identity },
    destination(redirect, connector.id, kept),
  );
}
