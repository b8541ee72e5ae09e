import type { LookupWarning, NumberingCandidate } from "@iccid/core";
import type { CallingCodeTable } from "./calling-codes.js";
import { countryObject } from "./country-names.js";
import { issuerAnswer, type IssuerAnswer } from "./issuer-answer.js";
import { PrefixIndex } from "./prefix-index.js";
import type { RegistryEntry } from "./registry/entry.js";

/** A US reading of 8931…: its answer, and whether public evidence names a US issuer at its digits. */
interface UsReading extends IssuerAnswer {
  evidenced: boolean;
}

/** What weighing the two readings of a number gave: the answer, and the warning when both stand. */
export interface Weighed {
  answer: IssuerAnswer | undefined;
  warning: LookupWarning | null;
}

const US_MCC_DIGITS = /^8931[0-6]/;

/** Whether a registry entry is a US reading of digits that also read as the Netherlands' 31 (89 + MCC 310–316 + MNC). */
export function isUsMccReading(entry: RegistryEntry): boolean {
  return entry.iso2 === "US" && entry.origin !== "custom" && US_MCC_DIGITS.test(entry.prefix);
}

/**
 * Cards of US networks are also written 89 + MCC + MNC (AT&T 310-410 as 89310410…), and those digits read
 * as the Netherlands' calling code 31 and a Dutch issuer too. Both readings are kept apart from the main
 * index, and a number under 8931[0-6] is weighed by these rules:
 * - a US reading with public evidence at its digits (a curated row) is the answer; a Dutch issuer there
 *   makes it ambiguous;
 * - a US reading from the network list alone (an operating network) yields to a Dutch issuer, and is the
 *   answer where none is registered; both ways it is ambiguous.
 * An ambiguous answer carries an `ambiguous_numbering` warning naming both candidates, the answer first.
 */
export class UsMccReadings {
  readonly #index: PrefixIndex<UsReading>;
  readonly #netherlands = countryObject("NL");
  readonly #warnings = new Map<string, LookupWarning>();

  constructor(entries: readonly RegistryEntry[], codes: CallingCodeTable) {
    const evidence = entries.filter((entry) => entry.origin === "curated").map((entry) => entry.prefix);
    this.#index = new PrefixIndex(
      entries.map((entry) => ({ ...issuerAnswer(entry, codes), evidenced: evidence.some((prefix) => entry.prefix.startsWith(prefix)) })),
    );
  }

  /**
   * Weighs the US reading of `iccid` against `dutch`, the main index's answer; undefined when there is no US
   * reading. The index holds only prefixes under 8931[0-6], so any other number leaves its trie within
   * five digits (most at the third): cheap for every lookup.
   */
  weigh(iccid: string, dutch: IssuerAnswer | undefined): Weighed | undefined {
    const us = this.#index.longestMatch(iccid);
    if (us === undefined || dutch?.custom) return undefined;
    if (us.evidenced && dutch === undefined) return { answer: us, warning: null };
    const first = us.evidenced || dutch === undefined ? us : dutch;
    return { answer: first, warning: this.#warning(first, first === us ? dutch : us) };
  }

  /** The shared warning of one pair of readings, made once. */
  #warning(first: IssuerAnswer, second: IssuerAnswer | undefined): LookupWarning {
    const key = `${first.prefix} ${second?.prefix ?? "31"}`;
    let warning = this.#warnings.get(key);
    if (!warning) {
      const candidates = [this.#candidate(first), this.#candidate(second)];
      const [a, b] = candidates.map((c) => `${c.country.name}${c.issuer ? ` (${c.issuer.name})` : ""}`);
      warning = Object.freeze({
        code: "ambiguous_numbering" as const,
        message: `the digits read both as ${a} and as ${b}; the answer is the first reading`,
        candidates: Object.freeze(candidates) as NumberingCandidate[],
      });
      this.#warnings.set(key, warning);
    }
    return warning;
  }

  /** A reading as a candidate: its country, issuer and network; the Dutch reading without an issuer is NL alone. */
  #candidate(answer: IssuerAnswer | undefined): NumberingCandidate {
    if (!answer) return Object.freeze({ country: this.#netherlands, issuer: null, home_network: null });
    return Object.freeze({ country: answer.country ?? this.#netherlands, issuer: answer.issuer, home_network: answer.homeNetwork });
  }
}
