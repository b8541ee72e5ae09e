import type { BatchSummary } from "@iccid/core";
import type { Payer } from "../store/store.js";
import type { ClaimedRequest } from "./idempotent-requests.js";
import type { Meter } from "./meter.js";

/** A batch's items are done: its summary, and its charge under way. */
export interface ChargedBatch {
  summary: BatchSummary;
  charged: Promise<void>;
}

/**
 * The count of a batch, ICCIDs or EIDs, as its items are made, and its charge: each distinct number
 * answered (by its key: the normalised number, with its IMSI where one was sent) is one lookup however
 * often or however differently it was written; a failed item is free, and each distinct failed input
 * counts once in `unique` (docs/api.md, "Batch").
 */
export class BatchTally {
  readonly #answered = new Set<string>();
  readonly #failed = new Set<string>();
  #ok = 0;
  #failedItems = 0;
  #valid = 0;

  answered(key: string, valid: boolean): void {
    this.#ok++;
    if (valid) this.#valid++;
    this.#answered.add(key);
  }

  failed(input: string): void {
    this.#failedItems++;
    this.#failed.add(input);
  }

  /** The summary of the items counted, and the charge of what was answered, started now. */
  charge(meter: Meter, payer: Payer, claimed?: ClaimedRequest): ChargedBatch {
    const ok = this.#ok;
    const failed = this.#failedItems;
    const summary = { total: ok + failed, ok, failed, valid: this.#valid, invalid: ok - this.#valid, unique: this.#answered.size + this.#failed.size };
    return { summary, charged: meter.charge(payer, this.#answered.size, claimed) };
  }
}
