/** The check of every signed address of ours (src/files/signed-url.ts): a bad or expired signature is a 401. */
import { Type } from 'typebox';
import { ServiceError } from '../../errors/catalogue.ts';
import { verifyFileSignature, type SignedPurpose } from '../../files/signed-url.ts';

export const SignedQuery = Type.Object({ expires: Type.Integer({ minimum: 0 }), signature: Type.String({ minLength: 1, maxLength: 100 }) });

export function assertSigned(
  services: { urlSigningKey: Buffer; previousUrlSigningKeys: readonly Buffer[] },
  purpose: SignedPurpose,
  id: string,
  query: { expires: number; signature: string },
  what: string,
): void {
  const keys = [services.urlSigningKey, ...services.previousUrlSigningKeys];
  const verdict = verifyFileSignature(keys, id, query.expires, query.signature, Date.now(), purpose);
  if (verdict === 'ok') return;
  throw new ServiceError(
    'INVALID_CREDENTIALS',
    verdict === 'expired' ? `This ${what} address has expired; ask for a fresh one.` : `This ${what} address is not valid; use it unchanged.`,
    { source: 'service' },
  );
}
