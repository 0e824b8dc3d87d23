import { describe, expect, it } from 'vitest';
import { PresignedFiles } from './presigned-files.ts';

describe('PresignedFiles (S3 presigned links)', () => {
  it('serves a file by its link until it expires, and refuses altered links and a second credential as S3 does', () => {
    let clock = 1_700_000_000_000;
    const stored = new Map([['a', { content: Buffer.from('hello'), contentType: 'text/plain', fileName: 'a b.txt' }]]);
    const files = new PresignedFiles<string>({ seconds: 60, now: () => clock, open: (id) => stored.get(id) ?? null });
    const link = new URL(files.link('http://files.test/bucket', 'a', { content: Buffer.alloc(0), contentType: 'text/plain', fileName: 'a b.txt' }));
    const [, key = '', name] = link.pathname.split('/').slice(1);
    expect([key, name]).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/), 'a%20b.txt']);
    /** Status, S3 error code (or the file's text) and the breach reported. */
    const serve = (query = link.searchParams, authorization?: string, at = key): [number, string, string | null] => {
      const { answer, breach } = files.serve(at, query, authorization);
      const body = Buffer.isBuffer(answer.body) ? answer.body.toString() : String(answer.body);
      return [answer.status, /<Code>(\w+)<\/Code>/.exec(body)?.[1] ?? body, breach];
    };

    expect(serve()).toEqual([200, 'hello', null]);
    const altered = new URLSearchParams(link.searchParams);
    altered.set('Expires', '9999999999');
    expect(serve(altered)).toEqual([403, 'SignatureDoesNotMatch', 'file link that the API did not answer (or altered)']);
    expect(serve(link.searchParams, undefined, '0'.repeat(32))[1]).toBe('SignatureDoesNotMatch');
    expect(serve(link.searchParams, 'Bearer x')).toEqual([400, 'InvalidArgument', 'Authorization header sent to a presigned file link']);
    stored.delete('a');
    expect(serve()).toEqual([404, 'NoSuchKey', null]);
    clock += 61_000;
    expect(serve()).toEqual([403, 'AccessDenied', null]);
  });
});
