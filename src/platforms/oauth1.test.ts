import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPlatformHttp } from './http.ts';
import { oauth1Authorization, oauth1Signer, signatureBaseString } from './oauth1.ts';

const get = (url: string) => ({ method: 'GET' as const, url: new URL(url), headers: {}, body: undefined });

/** The header's fields, decoded. */
function fieldsOf(header: string): Record<string, string> {
  return Object.fromEntries([...header.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1] ?? '', decodeURIComponent(m[2] ?? '')]));
}

describe('OAuth 1.0a signatures (RFC 5849)', () => {
  it('builds the signature base string of RFC 5849 §3.4.1.1', () => {
    const url = new URL('http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b');
    const body = new URLSearchParams('c2&a3=2+q');
    const base = signatureBaseString('POST', url, [
      ...url.searchParams,
      ...body,
      ['oauth_consumer_key', '9djdj82h48djs9d2'],
      ['oauth_token', 'kkk9d7dh3k39sjv7'],
      ['oauth_signature_method', 'HMAC-SHA1'],
      ['oauth_timestamp', '137131201'],
      ['oauth_nonce', '7d8f3e4a'],
    ]);
    expect(base).toBe(
      'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7',
    );
  });

  it("signs RFC 5849 §1.2's example request to its published signature, realm unsigned", () => {
    const header = oauth1Authorization(
      get('http://photos.example.net/photos?file=vacation.jpg&size=original'),
      {
        consumerKey: 'dpf43f3p2l4k3l03',
        consumerSecret: 'kd94hf93k423kf44',
        token: 'nnch734d00sl2jdk',
        tokenSecret: 'pfkkdhi9sl3r4s00',
        realm: 'Photos',
      },
      { method: 'HMAC-SHA1', nonce: () => 'chapoH', timestamp: () => 137131202, version: false },
    );
    expect(header).toMatch(/^OAuth realm="Photos", oauth_consumer_key="dpf43f3p2l4k3l03", /);
    expect(fieldsOf(header).oauth_signature).toBe('MdpQcU8iPSUjWoN/UDMsK2sui9I=');
  });

  it('signs with HMAC-SHA256 (NetSuite TBA): the base string under consumer secret & token secret, version 1.0', () => {
    const credentials = { consumerKey: 'ck', consumerSecret: 'cs+1', token: 'tk', tokenSecret: 'ts/2', realm: '1234567_SB1' };
    const request = get('https://1234567-sb1.suitetalk.api.netsuite.com/services/rest/record/v1/vendorBill?limit=5');
    const header = oauth1Authorization(request, credentials, { nonce: () => 'n0nce', timestamp: () => 1700000000 });
    const fields = fieldsOf(header);
    expect(fields).toMatchObject({ realm: '1234567_SB1', oauth_signature_method: 'HMAC-SHA256', oauth_version: '1.0', oauth_nonce: 'n0nce' });
    const base = signatureBaseString('GET', request.url, [
      ['limit', '5'],
      ['oauth_consumer_key', 'ck'],
      ['oauth_token', 'tk'],
      ['oauth_signature_method', 'HMAC-SHA256'],
      ['oauth_timestamp', '1700000000'],
      ['oauth_nonce', 'n0nce'],
      ['oauth_version', '1.0'],
    ]);
    expect(fields.oauth_signature).toBe(createHmac('sha256', 'cs%2B1&ts%2F2').update(base).digest('base64'));
  });

  it('gives each attempt of a retried request its own nonce, timestamp and signature', async () => {
    const headers: string[] = [];
    let calls = 0;
    const http = createPlatformHttp({
      sleep: () => Promise.resolve(),
      random: () => 0,
      fetch: (_url, init) => {
        calls += 1;
        headers.push(new Headers(init.headers).get('authorization') ?? '');
        return Promise.resolve(calls === 1 ? new Response('busy', { status: 503 }) : Response.json({ ok: true }));
      },
    });
    let clock = 1700000000;
    const sign = oauth1Signer({ consumerKey: 'ck', consumerSecret: 'cs', token: 'tk', tokenSecret: 'ts', realm: 'R' }, { timestamp: () => clock++ });
    await http.request({ method: 'GET', url: 'https://example.com/records', idempotent: true, sign });
    const [first, second] = headers.map(fieldsOf);
    expect(headers).toHaveLength(2);
    expect(first?.oauth_nonce).not.toBe(second?.oauth_nonce);
    expect(first?.oauth_timestamp).not.toBe(second?.oauth_timestamp);
    expect(first?.oauth_signature).not.toBe(second?.oauth_signature);
  });
});
