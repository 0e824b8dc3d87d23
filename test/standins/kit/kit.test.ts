/**
 * The stand-in kit on its own: the OAuth server's rules as the platforms' descriptions set them (client
 * authentication, single-use codes, rotation or not, expiry and revocation), the OpenAPI validator's query and null
 * handling, the GraphQL validator's records, and the fault queue.
 */
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { GraphQLContract } from './graphql.ts';
import { OAuthServer, randomToken, type ClientAuth, type OAuthPlatform } from './oauth.ts';
import { convertNullable, nestQuery, OpenApiContract } from './openapi.ts';
import { Faults } from './server.ts';
import { XmlSchemaContract } from './xml.ts';

const REFUSED = { status: 400, body: { error: 'invalid_grant' } };

function server(overrides: Partial<OAuthPlatform<string>> = {}, clientAuth: readonly ClientAuth[] = ['basic', 'post']): OAuthServer<string> {
  let clock = 1_000_000;
  const oauth = new OAuthServer<string>(
    {
      clientAuth,
      accessSeconds: 60,
      codeSeconds: 300,
      refresh: 'rotate',
      checkRedirectUri: true,
      mint: { access: () => randomToken('at_', 6, 'hex'), refresh: () => randomToken('rt_', 6, 'hex'), code: () => randomToken('c_', 6, 'hex') },
      answer: (issued) => ({ access_token: issued.accessToken, refresh_token: issued.refreshToken, subject: issued.grant.subject }),
      errors: { invalidClient: { status: 401, body: { error: 'invalid_client' } }, invalidGrant: REFUSED, unsupportedGrant: () => REFUSED },
      ...overrides,
    },
    () => (clock += 1000),
  );
  oauth.register({ clientId: 'app', clientSecret: 'secret', redirectUri: 'http://localhost/cb' });
  return oauth;
}

const basic = `Basic ${Buffer.from('app:secret').toString('base64')}`;
const form = (fields: Record<string, string>): URLSearchParams => new URLSearchParams(fields);

describe('stand-in kit: OAuth server', () => {
  it('exchanges a code once, for the redirect_uri it was issued to, and rotates refresh tokens', () => {
    const oauth = server();
    const code = oauth.code(oauth.grant('app', 'realm-1'), 'http://localhost/cb');
    expect(oauth.token(form({ grant_type: 'authorization_code', code, redirect_uri: 'http://elsewhere/cb' }), basic)).toEqual(REFUSED);
    const exchanged = oauth.token(form({ grant_type: 'authorization_code', code, redirect_uri: 'http://localhost/cb' }), basic);
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.subject).toBe('realm-1');
    expect(oauth.token(form({ grant_type: 'authorization_code', code, redirect_uri: 'http://localhost/cb' }), basic)).toEqual(REFUSED);
    const refresh = String(exchanged.body.refresh_token);
    expect(oauth.token(form({ grant_type: 'refresh_token', refresh_token: refresh }), basic).status).toBe(200);
    expect(oauth.token(form({ grant_type: 'refresh_token', refresh_token: refresh }), basic)).toEqual(REFUSED);
    expect(oauth.calls).toEqual({ authorization_code: 3, refresh_token: 2, total: 5 });
  });

  it('keeps refresh tokens where the platform does, and knows the client by its secret alone where it must', () => {
    const oauth = server({ refresh: 'keep' }, ['secret']);
    const { refreshToken } = oauth.issue(oauth.grant('app', 'acct_1'));
    const again = form({ grant_type: 'refresh_token', refresh_token: refreshToken ?? '' });
    expect(oauth.token(again, 'Bearer secret').status).toBe(200);
    expect(oauth.token(again, undefined).status).toBe(401);
    expect(oauth.token(form({ grant_type: 'refresh_token', refresh_token: refreshToken ?? '', client_secret: 'secret' }), undefined).status).toBe(
      200,
    );
    expect(oauth.token(again, 'Bearer wrong')).toEqual({ status: 401, body: { error: 'invalid_client' } });
  });

  it('checks bearer tokens: unknown, expired by time or by fault, revoked with their subject', () => {
    const oauth = server();
    const first = oauth.issue(oauth.grant('app', 'a'));
    const second = oauth.issue(oauth.grant('app', 'b'));
    expect(oauth.bearer(`Bearer ${first.accessToken}`)).toMatchObject({ ok: true, grant: { subject: 'a' } });
    expect(oauth.bearer(undefined)).toEqual({ ok: false, reason: 'missing' });
    expect(oauth.check('nope')).toEqual({ ok: false, reason: 'unknown' });
    oauth.revoke((subject) => subject === 'b');
    expect(oauth.check(second.accessToken)).toEqual({ ok: false, reason: 'unknown' });
    expect(oauth.token(form({ grant_type: 'refresh_token', refresh_token: second.refreshToken ?? '' }), basic)).toEqual(REFUSED);
    oauth.expireAccessTokens();
    expect(oauth.check(first.accessToken)).toMatchObject({ ok: false, reason: 'expired' });
    oauth.revokeRefreshTokens();
    expect(oauth.token(form({ grant_type: 'refresh_token', refresh_token: first.refreshToken ?? '' }), basic)).toEqual(REFUSED);
    expect(oauth.issued).toHaveLength(4);
  });

  it('takes a request without grant_type as a code exchange where the platform says so, with the client in the form', () => {
    const oauth = server({ defaultGrant: 'authorization_code', refresh: 'none', checkRedirectUri: false }, ['post']);
    const code = oauth.code(oauth.grant('app', 'shop-1'), null);
    expect(oauth.token(form({ client_id: 'app', client_secret: 'secret', code }), undefined, (g) => g.subject === 'shop-2')).toEqual(REFUSED);
    const answer = oauth.token(form({ client_id: 'app', client_secret: 'secret', code }), undefined, (g) => g.subject === 'shop-1');
    expect(answer).toMatchObject({ status: 200, body: { refresh_token: null } });
  });
});

describe('stand-in kit: OpenAPI validator', () => {
  const contract = new OpenApiContract({
    api: {
      paths: {
        '/things': {
          get: {
            operationId: 'listThings',
            parameters: [
              { name: 'created', in: 'query', style: 'deepObject', schema: { type: 'object', properties: { gte: { type: 'integer' } } } },
              { name: 'ids', in: 'query', explode: false, schema: { type: 'array', items: { type: 'integer' } } },
            ],
            responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/thing' } } } } },
          },
        },
      },
      components: {
        schemas: { thing: { type: 'object', properties: { note: { nullable: true, anyOf: [{ type: 'string' }, { type: 'integer' }] } } } },
      },
    },
  });
  const found = contract.find('api', 'GET', '/things');

  it('nests deepObject and bracket arrays, splits form arrays, and refuses what is undeclared', () => {
    expect(nestQuery(new URLSearchParams('created[gte]=1&types[]=a&types[]=b&expand[0]=x&plain=y'))).toEqual({
      created: { gte: '1' },
      types: ['a', 'b'],
      expand: ['x'],
      plain: 'y',
    });
    if (found === null) throw new Error('no operation');
    const check = (query: string) => contract.validateParameters(found.operation, { pathParams: {}, query: new URLSearchParams(query), headers: {} });
    expect(check('created[gte]=5&ids=1,2')).toEqual([]);
    expect(check('created[gte]=soon')).toEqual(['query parameter created/gte must be integer']);
    expect(check('ids=1,x')).toEqual(['query parameter ids/1 must be integer']);
    expect(check('colour=blue')).toEqual(['query parameter colour is not in the contract of GET /things']);
  });

  it('admits null where a composed schema is nullable', () => {
    expect(convertNullable({ nullable: true, anyOf: [{ type: 'string' }] })).toEqual({ anyOf: [{ anyOf: [{ type: 'string' }] }, { type: 'null' }] });
    if (found === null) throw new Error('no operation');
    expect(contract.validateResponse(found.operation, 200, { note: null })).toEqual([]);
    expect(contract.validateResponse(found.operation, 200, { note: [] })).not.toEqual([]);
  });
});

describe('stand-in kit: GraphQL validator and faults', () => {
  it('records every document and the ones that do not parse or validate', () => {
    const contract = new GraphQLContract(buildSchema('type Query { shop: String }'));
    expect(contract.check('{ shop }')).toMatchObject({ ok: true });
    expect(contract.check('{ orders }')).toMatchObject({ ok: false, problems: [{ code: 'GRAPHQL_VALIDATION_FAILED' }] });
    expect(contract.check('{ shop')).toMatchObject({ ok: false, problems: [{ code: 'PARSE_ERROR' }] });
    expect(contract.received).toHaveLength(3);
    expect(contract.invalid.map((i) => i.query)).toEqual(['{ orders }', '{ shop']);
  });

  it('hands each fault to as many matching requests as it was added for, in order', () => {
    const faults = new Faults<{ status: number; path: string }>();
    faults.add({ status: 429, path: '/a' }, 2);
    faults.add({ status: 500, path: '/b' }, 1);
    const take = (path: string) => faults.take((f) => f.path === path)?.status;
    expect([take('/b'), take('/a'), take('/b'), take('/a'), take('/a')]).toEqual([500, 429, undefined, 429, undefined]);
  });
});

describe('stand-in kit: XML Schema validator', () => {
  const xsd = `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="CustomerQueryRq">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="MaxReturned" type="xs:positiveInteger" minOccurs="0"/>
        <xs:element name="FromModifiedDate" type="xs:dateTime" minOccurs="0"/>
      </xs:sequence>
      <xs:attribute name="requestID" type="xs:string" use="required"/>
    </xs:complexType>
  </xs:element>
</xs:schema>`;

  it('passes a document that fits the schema and names the problems of one that does not', () => {
    const contract = new XmlSchemaContract(xsd);
    try {
      expect(contract.validate('<CustomerQueryRq requestID="1"><MaxReturned>50</MaxReturned></CustomerQueryRq>')).toEqual([]);
      const wrong = contract.validate('<CustomerQueryRq><MaxReturned>none</MaxReturned><Colour/></CustomerQueryRq>', 'request');
      expect(wrong).toHaveLength(3);
      expect(wrong.join('\n')).toMatch(/request line 1: .*MaxReturned.*not a valid value/);
      expect(wrong.join('\n')).toMatch(/requestID.*is required/);
      expect(contract.validate('<CustomerQueryRq requestID="1">', 'answer')[0]).toMatch(/^answer \(not well-formed\) line 1: /);
      // An external entity is not loaded: the document is refused, and nothing of the file comes back.
      const doctype = '<!DOCTYPE CustomerQueryRq [<!ENTITY x SYSTEM "file:///etc/hostname">]>';
      expect(contract.validate(`${doctype}<CustomerQueryRq requestID="&x;"/>`)).toEqual([
        "body (not well-formed) line 1: Attribute references external entity 'x'",
      ]);
      expect(contract.validate(`${doctype}<CustomerQueryRq requestID="1"><MaxReturned>&x;</MaxReturned></CustomerQueryRq>`)).toEqual([
        'body: Invalid input or internal error',
      ]);
    } finally {
      contract.dispose();
    }
  });
});
