/**
 * Xero's identity service in the stand-in, on the kit's OAuth server: the consent page (organisations to tick,
 * Allow / Deny), codes good for five minutes, 30-minute access tokens, refresh tokens that rotate on every use, client
 * credentials as HTTP Basic or in the form, and the organisations each grant reaches.
 */
import { randomUUID } from 'node:crypto';
import { consentPage, errorPage, escapeHtml, OAuthServer, randomToken, redirectBack, type BearerCheck, type Grant } from '../kit/oauth.ts';
import { htmlAnswer, redirectAnswer, storedTokens } from '../kit/openapi-standin.ts';
import type { Answer } from '../kit/server.ts';

export type { OAuthClient } from '../kit/oauth.ts';

/** Xero's problem answer (401, 403, 500). */
export const xeroProblem = (status: number, title: string, detail: string): Answer => ({
  status,
  body: { Type: null, Title: title, Status: status, Detail: detail },
});
export interface Tenant {
  id: string;
  name: string;
}

/** What a Xero grant reaches: the organisations ticked, under one auth event. */
export interface Consent {
  tenants: string[];
  authEventId: string;
  createdAt: string;
}

export const ACCESS_TOKEN_SECONDS = 1800;

const token = (prefix: string): string => randomToken(`${prefix}_`, 18, 'base64url');

export class XeroIdentity {
  readonly oauth = new OAuthServer<Consent>({
    clientAuth: ['basic', 'post'],
    accessSeconds: ACCESS_TOKEN_SECONDS,
    codeSeconds: 5 * 60,
    refresh: 'rotate',
    checkRedirectUri: true,
    mint: { access: () => token('at'), refresh: () => token('rt'), code: () => token('code') },
    answer: (issued, remember) => ({
      id_token: remember(token('id')),
      access_token: issued.accessToken,
      expires_in: issued.expiresIn,
      token_type: 'Bearer',
      refresh_token: issued.refreshToken,
      scope: issued.grant.scope,
    }),
    errors: {
      invalidClient: { status: 400, body: { error: 'invalid_client' } },
      invalidGrant: { status: 400, body: { error: 'invalid_grant' } },
      unsupportedGrant: () => ({ status: 400, body: { error: 'unsupported_grant_type' } }),
    },
  });

  private readonly tenants: readonly Tenant[];

  constructor(tenants: readonly Tenant[]) {
    this.tenants = tenants;
  }

  /** GET /identity/connect/authorize: the consent page, or an error page for a bad client. */
  consentPage(query: URLSearchParams): Answer {
    const problem =
      query.get('response_type') !== 'code'
        ? 'response_type must be code.'
        : this.oauth.clientProblem(query.get('client_id'), query.get('redirect_uri'));
    if (problem !== null) return htmlAnswer(400, errorPage('Sign-in failed', problem));
    const boxes = this.tenants
      .map((t) => `<label><input type="checkbox" name="tenant" value="${escapeHtml(t.id)}" checked> ${escapeHtml(t.name)}</label>`)
      .join('<br>\n');
    const hidden = Object.fromEntries(['client_id', 'redirect_uri', 'scope', 'state'].map((name) => [name, query.get(name) ?? '']));
    return htmlAnswer(
      200,
      consentPage({
        title: 'Xero stand-in: allow access',
        intro: `An app wants access to your organisations (${escapeHtml(query.get('scope') ?? '')}).`,
        action: '/identity/connect/authorize',
        hidden,
        choices: `<fieldset><legend>Organisations</legend>\n${boxes}\n</fieldset>`,
        allowLabel: 'Allow access',
        denyLabel: 'Cancel',
      }),
    );
  }

  /** POST /identity/connect/authorize: the user's answer, as the redirect back to the app (or an error page). */
  decide(form: URLSearchParams): Answer {
    const clientId = form.get('client_id');
    const redirectUri = form.get('redirect_uri');
    const problem = this.oauth.clientProblem(clientId, redirectUri);
    if (problem !== null || clientId === null || redirectUri === null) return htmlAnswer(400, errorPage('Sign-in failed', problem ?? ''));
    const state = form.get('state');
    const scope = form.get('scope');
    const back: Record<string, string> = {};
    if (form.get('decision') !== 'allow') {
      back.error = 'access_denied';
    } else {
      const chosen = form.getAll('tenant').filter((id) => this.tenants.some((t) => t.id === id));
      if (chosen.length === 0) return htmlAnswer(400, errorPage('Choose an organisation', 'Tick at least one organisation to allow access.'));
      back.code = this.oauth.code(this.grant(clientId, chosen, scope ?? ''), redirectUri);
      if (scope !== null) back.scope = scope;
    }
    if (state !== null) back.state = state;
    return redirectAnswer(redirectBack(redirectUri, back));
  }

  private grant(clientId: string, tenants: string[], scope: string): Grant<Consent> {
    return this.oauth.grant(clientId, { tenants, authEventId: randomUUID(), createdAt: new Date().toISOString() }, scope);
  }

  /** Tokens for a client and organisations without the consent page (tests that start linked). */
  issueTokens(clientId: string, tenantIds: readonly string[], scope = 'offline_access accounting.transactions'): ReturnType<typeof storedTokens> {
    return storedTokens(this.oauth.issue(this.grant(clientId, [...tenantIds], scope)));
  }

  /** Xero's 401 for a missing, unknown or expired bearer token. */
  static unauthorized(check: Exclude<BearerCheck<Consent>, { ok: true }>): Answer {
    const detail =
      check.reason === 'missing'
        ? 'No bearer token'
        : check.reason === 'unknown'
          ? 'TokenInvalid: the token is unknown'
          : `TokenExpired: token expired at ${new Date(check.expiresAt ?? 0).toISOString()}`;
    return { ...xeroProblem(401, 'Unauthorized', detail), headers: { 'www-authenticate': 'Bearer error="invalid_token"' } };
  }

  /** GET /connections for a grant. */
  connections(grant: Grant<Consent>): Record<string, unknown>[] {
    const { tenants, authEventId, createdAt } = grant.subject;
    return tenants.map((tenantId) => ({
      id: randomUUID(),
      authEventId,
      tenantId,
      tenantType: 'ORGANISATION',
      tenantName: this.tenants.find((t) => t.id === tenantId)?.name ?? tenantId,
      createdDateUtc: createdAt,
      updatedDateUtc: createdAt,
    }));
  }
}
