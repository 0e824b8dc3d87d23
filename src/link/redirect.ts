/**
 * The link flow's redirect check: the redirect_url it would send the end user
 * to (from the link's query string, else the one stored at creation) must be
 * allowed by the organisation (src/connections/redirect-urls.ts), checked
 * whenever a page computes it, so a list changed meanwhile applies at once.
 */
import type { ConnectionRecord } from '../connections/types.ts';
import { originRefusal, redirectRefusal, refusalReason } from '../connections/redirect-urls.ts';
import type { Queryable } from '../db/pool.ts';
import { page, type Outcome } from './flow.ts';
import { isPopup, type Kept } from './params.ts';
import { messagePage } from './views.ts';

export type RedirectCheck = { redirect: string | null } | { refused: Outcome };

/** The vetted redirect (null: none, or popup mode, which hands the token to the opener instead), or a page refusing it. */
export async function checkRedirect(db: Queryable, connection: ConnectionRecord, kept: Kept): Promise<RedirectCheck> {
  if (isPopup(kept)) {
    const refusal = await originRefusal(db, connection, kept.origin);
    if (refusal === null) return { redirect: null };
    const reason =
      refusal === 'not_listed'
        ? `is not the origin of any of the ${connection.environment} environment's allowed redirect URLs`
        : refusalReason(refusal, connection.environment);
    return { refused: refusedPage(kept.origin, `popup origin ${reason}; see "Redirect URLs" in docs/connections.md`) };
  }
  const candidate = kept.redirect_url ?? connection.redirectUrl;
  if (candidate === null) return { redirect: null };
  const fromCreation = candidate === connection.redirectUrl;
  const refusal = await redirectRefusal(db, connection, candidate, fromCreation);
  if (refusal === null) return { redirect: candidate };
  return {
    refused: refusedPage(candidate, `redirect_url ${refusalReason(refusal, connection.environment)}; see "Redirect URLs" in docs/connections.md`),
  };
}

function refusedPage(candidate: string, problem: string): Outcome {
  return page(400, (nonce) =>
    messagePage({
      nonce,
      title: 'This link is not valid',
      message:
        `This link would send you on to ${candidate.slice(0, 200)} after connecting, and that address is not allowed here, ` +
        `so nothing was started. Ask the app that sent you here for a new link. (For the developer: the ${problem}.)`,
    }),
  );
}
