import { parseEid, type EidResult, type RejectedEid } from "@iccid/core";
import { callingCodeTable, type CallingCodeTable } from "./calling-codes.js";

export type EidOutcome = { ok: true; result: EidResult } | RejectedEid;

/**
 * Reads an EID: the core's grammar (length, check digits), then for an SGP.02 EID the calling code its
 * digits carry, that code's country where the code belongs to one country, and the eUICC issuer's
 * identifier. No source the project may use names the identifiers (docs/data.md), so the name is null.
 */
export class EidDecoder {
  readonly #codes: CallingCodeTable;

  constructor(codes: CallingCodeTable = callingCodeTable()) {
    this.#codes = codes;
  }

  decode(input: string): EidOutcome {
    const parsed = parseEid(input);
    if (!parsed.ok) return parsed;
    // The grammar strips the code's leading zeros ("049" is 49); only a code E.164 assigns is answered.
    const code = parsed.country_code !== null && this.#codes.match(parsed.country_code) === parsed.country_code ? parsed.country_code : null;
    return {
      ok: true,
      result: {
        eid: parsed.eid,
        input: parsed.input,
        valid: parsed.valid,
        checks: parsed.checks,
        check_digits: parsed.check_digits,
        layout: parsed.layout,
        calling_code: code,
        country: this.#codes.soleCountry(code),
        manufacturer: parsed.issuer_id === null ? null : { id: parsed.issuer_id, name: null },
        warnings: parsed.warnings,
      },
    };
  }
}
