import { parseImsi, type Country, type ImsiAnswer, type ImsiErrorCode, type ImsiNetwork, type LookupResult } from "@iccid/core";
import { countryObject } from "./country-names.js";
import { mncLength, networkPlaces } from "./network-country.js";
import { PrefixIndex, type Prefixed } from "./prefix-index.js";
import { csvRecords, readDataFile, type CsvFile } from "./registry/csv.js";
import type { Network } from "./registry/network-codes.js";
import { defaultRegistry, REGISTRY_DIR } from "./registry/registry.js";

/** Why an IMSI sent with an ICCID was not read. */
export interface ImsiError {
  code: ImsiErrorCode;
  message: string;
}

export type ImsiOutcome = { ok: true; answer: ImsiAnswer } | { ok: false; error: ImsiError };

/** One MCC-MNC of the network list: the network it names, and its country. */
interface NamedNetwork {
  /** The network the code names; null for a code the list holds but names nobody for. */
  network: ImsiNetwork | null;
  country: Country | null;
}

/** The networks of one MCC, by MNC, and what the list says about the MCC as a whole. */
interface MccNetworks {
  byMnc: Map<string, NamedNetwork>;
  /** The MNC length the MCC's operating networks share, or null when the list numbers them with both lengths. */
  mncLength: 2 | 3 | null;
  /** The country most of the MCC's networks are in (310: US, beside PR, VI, GU …), or null on a tie or none. */
  country: Country | null;
}

interface MvnoRange extends Prefixed {
  name: string;
}

/** An ISO 3166-1 country of the network list's code (subdivisions such as GE-AB and international codes name none). */
function countryOf(iso2: string): Country | null {
  return iso2.length === 2 ? countryObject(iso2) : null;
}

/**
 * The MCCs of the network list. Where the list names one MCC-MNC several times, the operating network
 * names it, and its country is the one its listings give (network-country.ts).
 */
function mccNetworks(networks: readonly Network[]): Map<string, MccNetworks> {
  const { rows, homes, countries } = networkPlaces(networks);
  const mccs = new Map<string, MccNetworks>();
  for (const [mcc, byMnc] of rows) {
    const home = homes.get(mcc)!;
    const named = new Map<string, NamedNetwork>();
    for (const [mnc, same] of byMnc) {
      const network = same.find((n) => n.operational && n.name !== "") ?? same.find((n) => n.name !== "");
      const answer = network ? Object.freeze({ name: network.name, operator: network.operator }) : null;
      named.set(mnc, { network: answer, country: countryOf(countries.get(`${mcc}-${mnc}`)!) });
    }
    const all = [...byMnc.values()].flat();
    mccs.set(mcc, { byMnc: named, mncLength: mncLength(all), country: home.country === null ? null : countryOf(home.country) });
  }
  return mccs;
}

/** The MVNO ranges file (`imsi-ranges.csv`): IMSI prefixes a source gives to an MVNO under its host network. */
function readMvnoRanges(file: CsvFile): MvnoRange[] {
  return csvRecords(file, ["imsi_prefix", "name", "source"] as const).map((row) => ({ prefix: row.imsi_prefix, name: row.name, custom: false }));
}

/**
 * Reads the IMSI sent beside an ICCID: its MCC, its MNC at the length the network list numbers the MCC's
 * networks with, the network and country they name, and the MVNO whose range holds it. Built once from
 * the network list and the MVNO ranges; a read is a parse, two Map probes and a walk of the range trie.
 */
export class ImsiDecoder {
  readonly #mccs: Map<string, MccNetworks>;
  readonly #mvnos: PrefixIndex<MvnoRange>;

  constructor(networks: readonly Network[], mvnoRanges: readonly MvnoRange[]) {
    this.#mccs = mccNetworks(networks);
    this.#mvnos = new PrefixIndex(mvnoRanges);
  }

  /** The decoder over the default registry's network list (parsed once, when the registry was built) and the MVNO ranges of its folder. */
  static fromRegistry(): ImsiDecoder {
    return new ImsiDecoder(defaultRegistry().networks, readMvnoRanges(readDataFile(REGISTRY_DIR, "imsi-ranges.csv")));
  }

  read(input: string): ImsiOutcome {
    const parsed = parseImsi(input);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const { imsi, mcc } = parsed;
    const networks = this.#mccs.get(mcc);
    if (!networks) return { ok: false, error: { code: "unknown_mcc", message: `the IMSI's MCC ${mcc} is not in the network list` } };
    // A three-digit MNC the list has wins over a two-digit one: the list numbers most MCCs one way only.
    const long = networks.byMnc.get(imsi.slice(3, 6));
    const named = long ?? networks.byMnc.get(imsi.slice(3, 5));
    const mncLength = long ? 3 : named ? 2 : networks.mncLength;
    const mvno = this.#mvnos.longestMatch(imsi);
    return {
      ok: true,
      answer: {
        imsi,
        mcc,
        mnc: mncLength === null ? null : imsi.slice(3, 3 + mncLength),
        country: named ? named.country : networks.country,
        network: named ? named.network : null,
        mvno: mvno ? { name: mvno.name, imsi_prefix: mvno.prefix } : null,
      },
    };
  }
}

/**
 * A lookup result with the IMSI's answer beside it, warned when the IMSI's country is not the ICCID's: a
 * SIM with several IMSIs, or one whose IMSI belongs to a roaming partner. A country either side does not
 * know is no mismatch.
 */
export function withImsi(result: LookupResult, answer: ImsiAnswer): LookupResult {
  const iccidCountry = result.country?.iso2;
  const imsiCountry = answer.country?.iso2;
  if (iccidCountry === undefined || imsiCountry === undefined || iccidCountry === imsiCountry) return { ...result, imsi: answer };
  const warning = {
    code: "imsi_country_mismatch" as const,
    message: `the IMSI's country (${imsiCountry}) is not the ICCID's (${iccidCountry}): a multi-IMSI or roaming SIM`,
  };
  return { ...result, warnings: [...result.warnings, warning], imsi: answer };
}

let shared: ImsiDecoder | undefined;

/** The decoder over the package's data files, built once per process. */
export function imsiDecoder(): ImsiDecoder {
  shared ??= ImsiDecoder.fromRegistry();
  return shared;
}
