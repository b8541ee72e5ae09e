import type { BatchItem, BatchSummary, LookupResult } from "@iccid/core";
import type { DecoderSource } from "../decode/live-decoder.js";
import { InvalidInput } from "../domain/refusals.js";
import type { KeyGrant } from "../store/store.js";
import type { Meter } from "./meter.js";
import type { UnknownPrefixes } from "./unknown-prefixes.js";

/** A batch's items are done: its summary, and its charge under way. */
export interface ChargedBatch {
  summary: BatchSummary;
  charged: Promise<void>;
}

/** Single and batch lookups: decode, then charge what was answered. */
export class Lookups {
  constructor(
    private readonly decoders: DecoderSource,
    private readonly meter: Meter,
    private readonly unknown?: UnknownPrefixes,
  ) {}

  async lookup(grant: KeyGrant, iccid: string): Promise<LookupResult> {
    const outcome = this.decoders.current.decode(iccid);
    if (!outcome.ok) {
      throw new InvalidInput([{ field: ["iccid"], code: outcome.error.code, detail: outcome.error.message }]);
    }
    await this.meter.charge(grant, 1);
    if (outcome.result.issuer === null) this.unknown?.note(outcome.result.iccid);
    return outcome.result;
  }

  /**
   * One item per input, made when asked for, in input order, so that the answer can be written as the batch
   * is decoded and no item outlives its turn. After the last item it starts the batch's charge and returns
   * the summary with that charge under way, which the answer waits for before it goes out (a refused
   * charge, over the quota, rejects it): each distinct normalised ICCID that got a result is one lookup,
   * however often or however differently it was written.
   */
  *batch(grant: KeyGrant, inputs: readonly string[]): Generator<BatchItem, ChargedBatch, undefined> {
    const decoder = this.decoders.current;
    const answered = new Set<string>();
    const failedInputs = new Set<string>();
    let ok = 0;
    let valid = 0;
    for (let index = 0; index < inputs.length; index++) {
      const input = inputs[index]!;
      const outcome = decoder.decode(input);
      if (outcome.ok) {
        ok++;
        if (outcome.result.valid) valid++;
        answered.add(outcome.result.iccid);
        if (outcome.result.issuer === null) this.unknown?.note(outcome.result.iccid);
        yield { index, ok: true, result: outcome.result };
      } else {
        failedInputs.add(input);
        yield { index, ok: false, input, error: outcome.error };
      }
    }
    const summary = { total: inputs.length, ok, failed: inputs.length - ok, valid, invalid: ok - valid, unique: answered.size + failedInputs.size };
    return { summary, charged: this.meter.charge(grant, answered.size) };
  }
}
