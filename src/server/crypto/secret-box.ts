import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Encrypts secrets at rest (data-source passwords, signing keys) with AES-256-GCM under the
 * server's master key. The stored form is `v1.<iv>.<tag>.<ciphertext>` in base64url.
 */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

export function createSecretBox(masterKey: Buffer): SecretBox {
  if (masterKey.length !== 32) throw new Error("master key must be 32 bytes");
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", masterKey, iv);
      const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ct.toString("base64url")].join(".");
    },
    open(sealed) {
      const [v, iv, tag, ct] = sealed.split(".");
      if (v !== "v1" || !iv || !tag || ct === undefined) throw new Error("not a sealed secret");
      const decipher = createDecipheriv("aes-256-gcm", masterKey, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}

/**
 * The master key: `SVC_SECRET_KEY` (any string, hashed to 32 bytes) when set, otherwise a
 * random key kept in `<dataDir>/secret.key` (mode 0600), created on first start.
 */
export function loadMasterKey(opts: { secret?: string; dataDir: string }): Buffer {
  if (opts.secret) return createHash("sha256").update(opts.secret).digest();
  if (opts.dataDir === ":memory:") return randomBytes(32);
  const file = path.resolve(opts.dataDir, "secret.key");
  if (existsSync(file)) return Buffer.from(readFileSync(file, "utf8").trim(), "base64url");
  mkdirSync(path.dirname(file), { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString("base64url") + "\n", { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}

/**
 * How bearer secrets (API keys, embed session ids, login tokens) are stored: SHA-256 in hex.
 * They are long random values, so a fast hash is enough; the secret itself is never stored.
 */
export function hashBearerSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}
