/** One issuer prefix as the index holds it. */
export interface IssuerEntry {
  /** Full prefix, including the leading 89. */
  prefix: string;
  name: string;
  source: "itu-e118" | "custom";
  /** ISO 3166-1 alpha-2 of the issuer's country, when known. */
  iso2: string | null;
  /** The issuer's country as named by its source (used to resolve shared calling codes). */
  countryName: string | null;
}

/**
 * Longest-prefix index over issuer prefixes. Prefixes are 4–9 characters, so a lookup is at most a handful
 * of Map probes from the longest length down; custom entries replace ITU ones with the same prefix, which
 * is what "custom wins at equal length" means for prefixes of one ICCID.
 */
export class PrefixIndex {
  readonly #byPrefix = new Map<string, IssuerEntry>();
  #minLength = Number.POSITIVE_INFINITY;
  #maxLength = 0;

  constructor(entries: Iterable<IssuerEntry>) {
    for (const entry of entries) {
      const existing = this.#byPrefix.get(entry.prefix);
      if (existing?.source === "custom" && entry.source !== "custom") continue;
      this.#byPrefix.set(entry.prefix, entry);
      this.#minLength = Math.min(this.#minLength, entry.prefix.length);
      this.#maxLength = Math.max(this.#maxLength, entry.prefix.length);
    }
  }

  get size(): number {
    return this.#byPrefix.size;
  }

  /** The entry with the longest prefix of `iccid`, or undefined. */
  longestMatch(iccid: string): IssuerEntry | undefined {
    for (let length = Math.min(this.#maxLength, iccid.length - 1); length >= this.#minLength; length--) {
      const hit = this.#byPrefix.get(iccid.slice(0, length));
      if (hit) return hit;
    }
    return undefined;
  }
}
