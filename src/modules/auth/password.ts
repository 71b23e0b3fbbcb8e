import { Algorithm, hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane.
const options = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** argon2id PHC string for a password. */
export const hashPassword = (password: string): Promise<string> => hash(password, options);

// Verified against when the user does not exist, so that a failed login takes as long either way.
let decoyHash: Promise<string> | undefined;

/** Checks a password; with no stored hash it still spends the same time, revealing nothing. */
export async function verifyPassword(
  storedHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (!storedHash) {
    decoyHash ??= hashPassword('decoy-password-for-timing');
    await verify(await decoyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
