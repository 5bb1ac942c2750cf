/**
 * Password hashing (Argon2id), below every module: sign-in, user edits, the seed and the CLI share it
 * without importing one another.
 * Each hash takes about 19 MB and one core for tens of milliseconds: a burst of a hundred sign-ins computed
 * at once took both cores of a small server and starved every other request for seconds. So hashes take
 * turns in one lane (PASSWORD_HASH_CONCURRENCY at once, PASSWORD_HASH_QUEUE waiting, each for at most
 * PASSWORD_HASH_WAIT_MS); past that the caller gets a HashingBusy (a Spanish 429 with Retry-After).
 */
import { hash, verify } from "@node-rs/argon2";
import { LaneBusy, type LaneLimits, Lanes } from "../http/lanes";

const ARGON2 = { memoryCost: 19456, timeCost: 2, parallelism: 1, algorithm: 2 /* Argon2id */ } as const;

/** Too many hashes waiting: try again in `retryAfterSeconds`. */
export class HashingBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("password hashing busy");
  }
}

let limits: LaneLimits = { inFlight: 1, queued: 64, waitMs: 30_000 };
const lane = new Lanes(() => limits);

/** The process's hashing lane (server/app.ts sets it from the configuration). */
export function configureHashing(next: LaneLimits) {
  limits = next;
}

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  let release: () => void;
  try {
    release = await lane.acquire("hash");
  } catch (error) {
    if (error instanceof LaneBusy) throw new HashingBusy(error.retryAfterSeconds);
    throw error;
  }
  try {
    return await work();
  } finally {
    release();
  }
}

export const hashPassword = (password: string) => inTurn(() => hash(password, ARGON2));
export async function verifyPassword(digest: string | null, password: string): Promise<boolean> {
  if (!digest) return false;
  return inTurn(async () => {
    try {
      return await verify(digest, password);
    } catch {
      return false;
    }
  });
}
