import type { BatchItem, BatchItemError, LookupRequest, LookupResult } from "@iccid/core";
import { withImsi, type ImsiDecoder } from "../decode/imsi-decoder.js";
import type { DecoderSource } from "../decode/live-decoder.js";
import { InvalidInput, type FieldIssue } from "../domain/refusals.js";
import type { Payer } from "../store/store.js";
import { BatchTally, type ChargedBatch } from "./batch-tally.js";
import type { ClaimedRequest } from "./idempotent-requests.js";
import type { Meter } from "./meter.js";
import type { UnknownPrefixes } from "./unknown-prefixes.js";

/** One batch input: an ICCID as written, or an ICCID with the SIM's IMSI beside it. */
export type BatchInput = string | LookupRequest;

/** Single and batch lookups: decode (the ICCID, and the IMSI sent with it), then charge what was answered. */
export class Lookups {
  constructor(
    private readonly decoders: DecoderSource,
    private readonly meter: Meter,
    private readonly imsis: ImsiDecoder,
    private readonly unknown: UnknownPrefixes,
  ) {}

  /** One ICCID, with its IMSI when one is sent: an ICCID or IMSI that cannot be read is an input error naming its field. */
  async lookup(payer: Payer, iccid: string, imsi?: string, claimed?: ClaimedRequest): Promise<LookupResult> {
    const outcome = this.decoders.current.decode(iccid);
    const imsiOutcome = imsi === undefined ? undefined : this.imsis.read(imsi);
    // Both fields are named when both fail.
    const imsiIssues: FieldIssue[] = imsiOutcome && !imsiOutcome.ok ? [{ field: ["imsi"], code: imsiOutcome.error.code, detail: imsiOutcome.error.message }] : [];
    if (!outcome.ok) throw new InvalidInput([{ field: ["iccid"], code: outcome.error.code, detail: outcome.error.message }, ...imsiIssues]);
    if (imsiIssues[0]) throw new InvalidInput([imsiIssues[0]]);
    await this.meter.charge(payer, 1, claimed);
    if (outcome.result.issuer === null) this.unknown.note(outcome.result.iccid);
    return imsiOutcome?.ok ? withImsi(outcome.result, imsiOutcome.answer) : outcome.result;
  }

  /**
   * One item per input, made when asked for, in input order, so that the answer can be written as the batch
   * is decoded and no item outlives its turn. After the last item it starts the batch's charge and returns
   * the summary with that charge under way, which the answer waits for before it goes out (a refused
   * charge, over the quota, rejects it): each distinct normalised ICCID that got a result is one lookup,
   * however often or however differently it was written; an ICCID sent with an IMSI is one lookup per
   * distinct normalised IMSI beside it. An item whose ICCID or IMSI cannot be read fails and is free. The
   * answered items whose issuer is unknown are counted once the charge is made, none if it is refused.
   */
  *batch(payer: Payer, inputs: readonly BatchInput[], claimed?: ClaimedRequest): Generator<BatchItem, ChargedBatch, undefined> {
    const decoder = this.decoders.current;
    const tally = new BatchTally();
    const unknownIccids: string[] = [];
    for (let index = 0; index < inputs.length; index++) {
      const item = inputs[index]!;
      const input = typeof item === "string" ? item : item.iccid;
      const imsi = typeof item === "string" ? undefined : item.imsi;
      const outcome = decoder.decode(input);
      if (!outcome.ok) {
        yield failedItem(tally, index, input, imsi, outcome.error);
        continue;
      }
      const imsiOutcome = imsi === undefined ? undefined : this.imsis.read(imsi);
      if (imsiOutcome && !imsiOutcome.ok) {
        yield failedItem(tally, index, input, imsi, { ...imsiOutcome.error, field: "imsi" });
        continue;
      }
      if (outcome.result.issuer === null) unknownIccids.push(outcome.result.iccid);
      if (imsiOutcome === undefined) {
        tally.answered(outcome.result.iccid, outcome.result.valid);
        yield { index, ok: true, result: outcome.result };
        continue;
      }
      tally.answered(`${outcome.result.iccid}\n${imsiOutcome.answer.imsi}`, outcome.result.valid);
      yield { index, ok: true, result: withImsi(outcome.result, imsiOutcome.answer) };
    }
    const charged = tally.charge(this.meter, payer, claimed);
    // Counted as a single lookup's are, once charged; the refusal itself reaches the answer, which waits on `charged`.
    void charged.charged.then(
      () => unknownIccids.forEach((iccid) => this.unknown.note(iccid)),
      () => undefined,
    );
    return charged;
  }
}

/** The item of an input whose ICCID or IMSI cannot be read, counted in the tally by its input and IMSI as sent. */
function failedItem(tally: BatchTally, index: number, input: string, imsi: string | undefined, error: BatchItemError): BatchItem {
  tally.failed(imsi === undefined ? input : `${input}\n${imsi}`);
  return imsi === undefined ? { index, ok: false, input, error } : { index, ok: false, input, imsi, error };
}
