import type { BatchItemErrorCode } from "../imsi.js";
import type { LookupRequest, LookupResult } from "./lookup.js";

/** `POST /api/v1/iccid/batch` request body. */
export interface BatchRequest {
  /** 1 to 1,000 ICCIDs, each as written (at most 256 characters), or as `{ iccid, imsi? }` with the SIM's IMSI beside it. */
  iccids: Array<string | LookupRequest>;
}

/** Why a batch item could not be read: its ICCID, or the IMSI sent with it. */
export interface BatchItemError {
  /**
   * The grammar's verdict: `empty`, `invalid_characters`, `invalid_mii`, `too_short` or `too_long`; for an
   * IMSI also `unknown_mcc` (an MCC the network list does not have).
   */
  code: BatchItemErrorCode;
  /** The same in words, for people. */
  message: string;
  /** `imsi` when the item's IMSI failed; absent when its ICCID did. */
  field?: "imsi";
}

/** A batch item that was read and decoded. */
export interface BatchItemOk {
  /** The item's position in the request's `iccids`. */
  index: number;
  ok: true;
  /** The lookup result, as `POST /api/v1/iccid/lookup` answers it. */
  result: LookupResult;
}

/** A batch item that was not an ICCID: it is not charged. */
export interface BatchItemFailed {
  /** The item's position in the request's `iccids`. */
  index: number;
  ok: false;
  /** The item's ICCID exactly as sent. */
  input: string;
  /** The item's IMSI exactly as sent, when it had one. */
  imsi?: string;
  /** Why it was not read. */
  error: BatchItemError;
}

/** One answer of a batch, in the request's order: `ok` tells which kind. */
export type BatchItem = BatchItemOk | BatchItemFailed;

/** The batch's counts. */
export interface BatchSummary {
  /** Items sent. */
  total: number;
  /** Items read as ICCIDs (valid or not). */
  ok: number;
  /** Items that were not ICCIDs. */
  failed: number;
  /** Items whose format and Luhn check pass. */
  valid: number;
  /** Items read as ICCIDs that are not valid. */
  invalid: number;
  /** Distinct normalised ICCIDs plus distinct failed inputs; each distinct ICCID is one lookup charged. */
  unique: number;
}

/** `POST /api/v1/iccid/batch`'s answer. */
export interface BatchResult {
  /** One item per request item, in the request's order. */
  results: BatchItem[];
  /** The batch's counts. */
  summary: BatchSummary;
}
