/**
 * Secrets at rest (the users' calendar tokens): AES-256-GCM with a key that is the configured
 * SECRET_KEY (hashed to 32 bytes), or else a random key generated once and kept in
 * DATA_DIR/secret.key (mode 0600). Every server process of one installation reads the same key.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config";

const KEY_FILE = "secret.key";
const VERSION = "v1";
const keys = new Map<string, Buffer>();

function readKeyFile(file: string): Buffer | null {
  try {
    const key = Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
    if (key.length !== 32) throw new Error(`${file} no contiene una clave de 32 bytes`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** The 32-byte key of this installation. */
export function secretKey(config: Pick<Config, "SECRET_KEY" | "dataDir">): Buffer {
  if (config.SECRET_KEY) return createHash("sha256").update(config.SECRET_KEY, "utf8").digest();
  const file = path.join(config.dataDir, KEY_FILE);
  const cached = keys.get(file);
  if (cached) return cached;
  let key = readKeyFile(file);
  if (!key) {
    fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    const fresh = randomBytes(32);
    try {
      // 'wx': a second process starting at the same moment keeps the first one's key.
      fs.writeFileSync(file, `${fresh.toString("base64")}\n`, { flag: "wx", mode: 0o600 });
      key = fresh;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      key = readKeyFile(file);
      if (!key) throw error;
    }
  }
  keys.set(file, key);
  return key;
}

/** "v1.<iv>.<tag>.<ciphertext>", each part base64url. */
export function encryptSecret(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/** The plain text, or null when the value was not encrypted with this key (or was tampered with). */
export function decryptSecret(value: string, key: Buffer): string | null {
  const [version, iv, tag, body] = value.split(".");
  if (version !== VERSION || !iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
