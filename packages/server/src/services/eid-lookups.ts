import type { BatchSummary, EidBatchItem, EidResult } from "@iccid/core";
import type { EidDecoder } from "../decode/eid-decoder.js";
import { InvalidInput } from "../domain/refusals.js";
import type { Payer } from "../store/store.js";
import type { ChargedBatch } from "./lookups.js";
import type { Meter } from "./meter.js";

/**
 * EID lookups, metered as ICCID lookups are: one EID read (valid or not) is one lookup; a batch charges
 * each distinct normalised EID it read once, and nothing for an item that is not an EID.
 */
export class EidLookups {
  constructor(
    private readonly decoder: EidDecoder,
    private readonly meter: Meter,
  ) {}

  async lookup(grant: Payer, eid: string): Promise<EidResult> {
    const outcome = this.decoder.decode(eid);
    if (!outcome.ok) throw new InvalidInput([{ field: ["eid"], code: outcome.error.code, detail: outcome.error.message }]);
    await this.meter.charge(grant, 1);
    return outcome.result;
  }

  /** One item per input, made when asked for, in input order; after the last, the summary with the batch's charge under way (as Lookups.batch). */
  *batch(grant: Payer, inputs: readonly string[]): Generator<EidBatchItem, ChargedBatch, undefined> {
    const answered = new Set<string>();
    const failedInputs = new Set<string>();
    let ok = 0;
    let valid = 0;
    for (let index = 0; index < inputs.length; index++) {
      const input = inputs[index]!;
      const outcome = this.decoder.decode(input);
      if (outcome.ok) {
        ok++;
        if (outcome.result.valid) valid++;
        answered.add(outcome.result.eid);
        yield { index, ok: true, result: outcome.result };
      } else {
        failedInputs.add(input);
        yield { index, ok: false, input, error: outcome.error };
      }
    }
    const summary: BatchSummary = { total: inputs.length, ok, failed: inputs.length - ok, valid, invalid: ok - valid, unique: answered.size + failedInputs.size };
    return { summary, charged: this.meter.charge(grant, answered.size) };
  }
}
