import { Type } from 'typebox';
import { EnvironmentSchema } from '../organizations/schemas.ts';

export const OAuthAppSchema = Type.Object(
  {
    platform: Type.String({ description: 'Platform id, e.g. XERO.' }),
    environment: EnvironmentSchema,
    client_id: Type.String({ description: "The OAuth app's client id at the platform." }),
    redirect_uri: Type.String({ description: 'Where the platform sends the end user back after consent.' }),
    has_webhook_key: Type.Boolean({
      description: "Whether the platform's webhooks to this app are verified and received (POST /platform-webhooks/…); the key is never shown.",
    }),
    scope: Type.Union([Type.String(), Type.Null()], {
      description:
        "Consent scopes the app asks for, space-separated; null: the connector's list (docs/platforms.md). A connection's own scope replaces them.",
    }),
    calls_this_month: Type.Integer({
      minimum: 0,
      description:
        "Platform calls the app's connections made this calendar month (UTC), as platforms that meter an app's calls per month count them (Intuit's App Partner Program). Forgotten if PostgreSQL crashes.",
    }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { description: "An organisation's OAuth app for one platform and environment; the client secret is stored encrypted and never shown." },
);

export const OAuthAppParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Organisation id' }),
  platform: Type.String({ minLength: 1, maxLength: 100, description: 'Platform id of an OAuth platform, e.g. XERO.' }),
});
