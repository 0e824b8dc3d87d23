/**
 * Known secrets taken out of text that the service stores but did not write
 * itself, such as a webhook receiver's answer (which may echo the body it got,
 * access token included). An excerpt cut at a byte limit can end inside a
 * secret: a trailing beginning of one is masked too.
 */
export const MASK = '[redacted]';
/** Shorter trailing fragments tell nothing: every token starts with a public prefix (lpat_, lpsk_). */
const MIN_FRAGMENT = 8;

export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let scrubbed = text;
  for (const secret of secrets) {
    if (secret.length < MIN_FRAGMENT) continue;
    scrubbed = scrubbed.replaceAll(secret, MASK);
    for (let n = Math.min(secret.length - 1, scrubbed.length); n >= MIN_FRAGMENT; n--) {
      if (scrubbed.endsWith(secret.slice(0, n))) {
        scrubbed = `${scrubbed.slice(0, scrubbed.length - n)}${MASK}`;
        break;
      }
    }
  }
  return scrubbed;
}
