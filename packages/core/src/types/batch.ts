import type { IccidErrorCode } from "../grammar-codes.js";
import type { LookupResult } from "./lookup.js";

/** `POST /api/v1/iccid/batch` request body. */
export interface BatchRequest {
  /** 1 to 1,000 ICCIDs, each as written (at most 256 characters). */
  iccids: string[];
}

/** Why a batch item could not be read as an ICCID. */
export interface BatchItemError {
  /** The grammar's verdict: `empty`, `invalid_characters`, `invalid_mii`, `too_short` or `too_long`. */
  code: IccidErrorCode;
  /** The same in words, for people. */
  message: string;
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
  /** The item exactly as sent. */
  input: string;
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
