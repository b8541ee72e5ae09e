import type { BatchItem, BatchResult, LookupResult } from "@iccid/core";
import type { DecodeOutcome } from "../decode/decoder.js";
import type { DecoderSource } from "../decode/live-decoder.js";
import { InvalidInput } from "../domain/refusals.js";
import type { KeyGrant } from "../store/store.js";
import type { Meter } from "./meter.js";

/** A batch decoded but not charged yet: its answer, and how many lookups it is to be charged. */
export interface DecodedBatch {
  answer: BatchResult;
  lookups: number;
}

/** Single and batch lookups: decode, then charge what was answered. */
export class Lookups {
  constructor(
    private readonly decoders: DecoderSource,
    private readonly meter: Meter,
  ) {}

  async lookup(grant: KeyGrant, iccid: string): Promise<LookupResult> {
    const outcome = this.decoders.current.decode(iccid);
    if (!outcome.ok) {
      throw new InvalidInput([{ field: ["iccid"], code: outcome.error.code, detail: outcome.error.message }]);
    }
    await this.meter.charge(grant, 1);
    return outcome.result;
  }

  /**
   * One entry per input in input order. Each distinct input is decoded once; each distinct normalised
   * ICCID that got a result is one lookup, however often or however differently it was written. Charge it
   * with `chargeBatch` before the answer goes out.
   */
  decodeBatch(inputs: readonly string[]): DecodedBatch {
    const decoder = this.decoders.current;
    const decoded = new Map<string, DecodeOutcome>();
    const answered = new Set<string>();
    const failedInputs = new Set<string>();
    const results: BatchItem[] = new Array(inputs.length);
    let ok = 0;
    let valid = 0;
    for (let index = 0; index < inputs.length; index++) {
      const input = inputs[index]!;
      let outcome = decoded.get(input);
      if (!outcome) {
        outcome = decoder.decode(input);
        decoded.set(input, outcome);
      }
      if (outcome.ok) {
        ok++;
        if (outcome.result.valid) valid++;
        answered.add(outcome.result.iccid);
        results[index] = { index, ok: true, result: outcome.result };
      } else {
        failedInputs.add(input);
        results[index] = { index, ok: false, input, error: outcome.error };
      }
    }
    const summary = { total: inputs.length, ok, failed: inputs.length - ok, valid, invalid: ok - valid, unique: answered.size + failedInputs.size };
    return { answer: { results, summary }, lookups: answered.size };
  }

  async chargeBatch(grant: KeyGrant, lookups: number): Promise<void> {
    await this.meter.charge(grant, lookups);
  }
}
