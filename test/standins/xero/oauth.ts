/**
 * Xero's identity service in the stand-in, on the kit's OAuth server: the consent page (organisations to tick,
 * Allow / Deny), codes good for five minutes, 30-minute access tokens, refresh tokens that rotate on every use, client
 * credentials as HTTP Basic or in the form, and the organisations each grant reaches.
 */
import { randomUUID } from 'node:crypto';
import type { ConsentFlow } from '../kit/consent.ts';
import { escapeHtml, OAuthServer, randomToken, type BearerCheck, type Grant } from '../kit/oauth.ts';
import { storedTokens } from '../kit/host.ts';
import type { Answer } from '../kit/server.ts';
import { problem } from '../../../packages/sandbox/src/simulators/xero/answers.ts';
import { xeroSimulator } from '../../../packages/sandbox/src/simulators/xero/simulator.ts';
import { xeroConnection } from '../../../packages/sandbox/src/simulators/xero/render-organisation.ts';

export type { OAuthClient } from '../kit/oauth.ts';

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

/** A consent to `tenants`, given now in one auth event. */
const consentTo = (tenants: string[]): Consent => ({ tenants, authEventId: randomUUID(), createdAt: new Date().toISOString() });

const token = (prefix: string): string => randomToken(`${prefix}_`, 18, 'base64url');

export class XeroIdentity {
  readonly oauth = new OAuthServer<Consent>({
    clientAuth: ['basic', 'post'],
    accessSeconds: xeroSimulator.oauth.accessTokenSeconds,
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
  /** The consent page (/identity/connect/authorize): the organisations to tick, Allow or Cancel. */
  readonly consent: ConsentFlow<Consent>;

  constructor(tenants: readonly Tenant[]) {
    this.tenants = tenants;
    const boxes = tenants.map(
      (t) => `<label><input type="checkbox" name="tenant" value="${escapeHtml(t.id)}" checked> ${escapeHtml(t.name)}</label>`,
    );
    this.consent = {
      oauth: this.oauth,
      path: xeroSimulator.oauth.authorizePath,
      title: 'Xero stand-in: allow access',
      failedTitle: 'Sign-in failed',
      intro: (query) => `An app wants access to your organisations (${escapeHtml(query.get('scope') ?? '')}).`,
      choices: `<fieldset><legend>Organisations</legend>\n${boxes.join('<br>\n')}\n</fieldset>`,
      allowLabel: 'Allow access',
      denyLabel: 'Cancel',
      allowed: (form) => {
        const chosen = form.getAll('tenant').filter((id) => tenants.some((t) => t.id === id));
        if (chosen.length === 0) return { title: 'Choose an organisation', problem: 'Tick at least one organisation to allow access.' };
        return { subject: consentTo(chosen) };
      },
      returnsScope: true,
    };
  }

  /** Tokens for a client and organisations without the consent page (tests that start linked). */
  issueTokens(clientId: string, tenantIds: readonly string[], scope = 'offline_access accounting.transactions'): ReturnType<typeof storedTokens> {
    return storedTokens(this.oauth.issue(this.oauth.grant(clientId, consentTo([...tenantIds]), scope)));
  }

  /** Xero's 401 for a missing, unknown or expired bearer token. */
  static unauthorized(check: Exclude<BearerCheck<Consent>, { ok: true }>): Answer {
    const detail =
      check.reason === 'missing'
        ? 'No bearer token'
        : check.reason === 'unknown'
          ? 'TokenInvalid: the token is unknown'
          : `TokenExpired: token expired at ${new Date(check.expiresAt ?? 0).toISOString()}`;
    return { ...problem(401, 'Unauthorized', detail), headers: { 'www-authenticate': 'Bearer error="invalid_token"' } };
  }

  /** GET /connections for a grant. */
  connections(grant: Grant<Consent>): Record<string, unknown>[] {
    const { tenants, authEventId, createdAt } = grant.subject;
    return tenants.map((tenantId) =>
      xeroConnection(randomUUID(), authEventId, tenantId, this.tenants.find((t) => t.id === tenantId)?.name ?? tenantId, createdAt),
    );
  }
}
