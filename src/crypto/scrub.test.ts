import { describe, expect, it } from 'vitest';
import { MASK, scrubSecrets } from './scrub.ts';

describe('scrubSecrets', () => {
  const token = 'lpat_Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA';
  const secret = 'lpsk_c2VjcmV0c2VjcmV0c2VjcmV0';

  it('masks every occurrence of every secret', () => {
    expect(scrubSecrets(`{"access_token":"${token}","again":"${token}"} ${secret}`, [token, secret])).toBe(
      `{"access_token":"${MASK}","again":"${MASK}"} ${MASK}`,
    );
  });

  it('masks the beginning of a secret cut off at the end of an excerpt', () => {
    expect(scrubSecrets(`echo: ${token.slice(0, 20)}`, [token])).toBe(`echo: ${MASK}`);
    // A few characters are no secret: the public prefix alone stays.
    expect(scrubSecrets('ends with lpat_', [token])).toBe('ends with lpat_');
  });

  it('leaves other text alone', () => {
    expect(scrubSecrets('ok', [token, secret])).toBe('ok');
    expect(scrubSecrets('short secrets are not looked for', ['short'])).toBe('short secrets are not looked for');
  });
});
