import type { BatchItem, BatchResult, LookupResult } from "@iccid/core";
import type { DecodeOutcome, IccidDecoder } from "../decode/decoder.js";
import { HttpProblem } from "../http/problem.js";
import type { KeyGrant } from "../store/store.js";
import type { Meter } from "./meter.js";

/** Single and batch lookups: decode, then charge what was answered. */
export class Lookups {
  constructor(
    private readonly decoder: IccidDecoder,
    private readonly meter: Meter,
  ) {}

  async lookup(grant: KeyGrant, iccid: string): Promise<LookupResult> {
    const outcome = this.decoder.decode(iccid);
    if (!outcome.ok) {
      throw new HttpProblem("invalid_input", `iccid: ${outcome.error.message}`, {
        errors: [{ pointer: "/iccid", code: outcome.error.code, detail: outcome.error.message }],
      });
    }
    await this.meter.charge(grant, 1);
    return outcome.result;
  }

  /**
   * One entry per input in input order. Each distinct input is decoded once; each distinct normalised
   * ICCID that got a result is one lookup, however often or however differently it was written.
   */
  async batch(grant: KeyGrant, inputs: readonly string[]): Promise<BatchResult> {
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
        outcome = this.decoder.decode(input);
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
    await this.meter.charge(grant, answered.size);
    return {
      results,
      summary: {
        total: inputs.length,
        ok,
        failed: inputs.length - ok,
        valid,
        invalid: ok - valid,
        unique: answered.size + failedInputs.size,
      },
    };
  }
}
