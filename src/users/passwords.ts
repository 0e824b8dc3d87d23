/**
 * Passwords of dashboard users: argon2id (@node-rs/argon2, prebuilt binaries, no install script), in PHC form so the
 * parameters travel with the hash and can be raised later without breaking stored ones.
 */
import { hash, verify } from '@node-rs/argon2';

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

// OWASP's argon2id baseline (m = 19 MiB, t = 2, p = 1): about 30 ms a hash on the 2-core CI machine.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

// Checked against when the email is unknown, so a wrong email costs as long as a wrong password (no user enumeration by timing).
let dummyHash: Promise<string> | null = null;

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (storedHash === null) {
    dummyHash ??= hashPassword('ledgerport-no-such-user');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `The password must have at most ${MAX_PASSWORD_LENGTH} characters.`;
  return null;
}
