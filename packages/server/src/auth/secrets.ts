import { hash, randomBytes, timingSafeEqual } from "node:crypto";
import { API_KEY_ALPHABET } from "@iccid/core";

/** `length` characters drawn uniformly from base62 (rejection sampling keeps the draw unbiased). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += API_KEY_ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** An opaque id with its type prefix, e.g. `acc_3kT…`. */
export function newId(prefix: "acc" | "key"): string {
  return `${prefix}_${randomBase62(20)}`;
}

export function sha256Hex(secret: string): string {
  return hash("sha256", secret, "hex");
}

export function constantTimeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
