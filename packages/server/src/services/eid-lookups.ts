import type { EidBatchItem, EidResult } from "@iccid/core";
import type { EidDecoder } from "../decode/eid-decoder.js";
import { InvalidInput } from "../domain/refusals.js";
import type { Payer } from "../store/store.js";
import { BatchTally, type ChargedBatch } from "./batch-tally.js";
import type { ClaimedRequest } from "./idempotent-requests.js";
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

  async lookup(payer: Payer, eid: string, claimed?: ClaimedRequest): Promise<EidResult> {
    const outcome = this.decoder.decode(eid);
    if (!outcome.ok) throw new InvalidInput([{ field: ["eid"], code: outcome.error.code, detail: outcome.error.message }]);
    await this.meter.charge(payer, 1, claimed);
    return outcome.result;
  }

  /** One item per input, made when asked for, in input order; after the last, the summary with the batch's charge under way (as Lookups.batch). */
  *batch(payer: Payer, inputs: readonly string[], claimed?: ClaimedRequest): Generator<EidBatchItem, ChargedBatch, undefined> {
    const tally = new BatchTally();
    for (let index = 0; index < inputs.length; index++) {
      const input = inputs[index]!;
      const outcome = this.decoder.decode(input);
      if (outcome.ok) {
        tally.answered(outcome.result.eid, outcome.result.valid);
        yield { index, ok: true, result: outcome.result };
      } else {
        tally.failed(input);
        yield { index, ok: false, input, error: outcome.error };
      }
    }
    return tally.charge(this.meter, payer, claimed);
  }
}
