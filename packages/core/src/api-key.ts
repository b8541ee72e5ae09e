// API key format: `iccid_` + 22 base62 characters of randomness (≈131 bits) + 6 base62 characters of
// CRC-32 over the prefix and random part, so a mistyped or truncated key is caught offline, before any
// request (the same idea as GitHub's token format). Secret scanners match API_KEY_PATTERN.

export const API_KEY_PREFIX = "iccid_";
export const API_KEY_RANDOM_LENGTH = 22;
export const API_KEY_CHECKSUM_LENGTH = 6;
/** The published pattern of an ICCID Lookup API key (for secret scanning). */
export const API_KEY_PATTERN = /\biccid_[0-9A-Za-z]{28}\b/;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const EXACT_KEY = /^iccid_[0-9A-Za-z]{28}$/;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(value: number, width: number): string {
  let out = "";
  for (let v = value; v > 0; v = Math.floor(v / 62)) out = BASE62[v % 62] + out;
  return out.padStart(width, "0");
}

/** The 6-character checksum of a key's prefix and random part. */
export function apiKeyChecksum(prefixAndRandom: string): string {
  return base62(crc32(prefixAndRandom), API_KEY_CHECKSUM_LENGTH);
}

/** Builds a full key from 22 base62 characters of randomness. */
export function formatApiKey(random: string): string {
  if (!new RegExp(`^[0-9A-Za-z]{${API_KEY_RANDOM_LENGTH}}$`).test(random)) {
    throw new TypeError(`random must be ${API_KEY_RANDOM_LENGTH} base62 characters`);
  }
  const body = API_KEY_PREFIX + random;
  return body + apiKeyChecksum(body);
}

/** True when `key` has the key format and its checksum matches (no network, no secret needed). */
export function isWellFormedApiKey(key: string): boolean {
  if (typeof key !== "string" || !EXACT_KEY.test(key)) return false;
  const split = key.length - API_KEY_CHECKSUM_LENGTH;
  return apiKeyChecksum(key.slice(0, split)) === key.slice(split);
}

/** The base62 alphabet, for generating the random part from random bytes. */
export const API_KEY_ALPHABET = BASE62;
