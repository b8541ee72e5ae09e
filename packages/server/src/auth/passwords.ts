import { randomBytes, scrypt, type ScryptOptions } from "node:crypto";
import { constantTimeEqual } from "./secrets.js";

// scrypt with N=2^15, r=8, p=1 needs 32 MiB; maxmem is set explicitly (Node's default of 32 MiB is exactly
// at the edge and fails for these parameters).
const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r * 2 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash`, base64url parts: self-describing so the cost can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ["scrypt", PARAMS.N, PARAMS.r, PARAMS.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await derive(password, Buffer.from(salt, "base64url"), { N: Number(n), r: Number(r), p: Number(p) });
  return constantTimeEqual(actual, expected);
}

let decoy: Promise<string> | undefined;

/**
 * A hash of a random password: verifying against it costs the same as a real check (unknown emails). Made
 * on first use, not at import: a scrypt holds 32 MiB while it runs, which every operator command paid.
 */
export function decoyPasswordHash(): Promise<string> {
  return (decoy ??= hashPassword(randomBytes(16).toString("hex")));
}
