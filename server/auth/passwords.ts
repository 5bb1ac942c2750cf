/**
 * Password hashing (Argon2id), below every module: sign-in, user edits, the seed and the CLI share it
 * without importing one another.
 */
import { hash, verify } from "@node-rs/argon2";

const ARGON2 = { memoryCost: 19456, timeCost: 2, parallelism: 1, algorithm: 2 /* Argon2id */ } as const;

export const hashPassword = (password: string) => hash(password, ARGON2);
export async function verifyPassword(digest: string | null, password: string): Promise<boolean> {
  if (!digest) return false;
  try {
    return await verify(digest, password);
  } catch {
    return false;
  }
}
