import type { RowOutcome } from "@iccid/core/grammar";

// What the page and the upload worker say to each other. The worker reads the input, asks the batch
// endpoint, and builds the answers file; the page only draws what it is told, so it stays responsive
// whatever the size of the file.

/** Where the ICCIDs come from: a file, or the lines pasted into the ICCIDs box. */
export type UploadSource =
  | { kind: "file"; file: File; /** A column picked by the user (1-based, as `iccid batch --column N`); else found as the CLI does. */ column?: string }
  | { kind: "lines"; lines: readonly string[] };

export type PageMessage = { type: "start"; source: UploadSource } | { type: "cancel" };

/** One row as the results table shows it. */
export interface PreviewRow {
  /** The input data row, from 1. */
  row: number;
  input: string;
  outcome: RowOutcome;
  /** For an answer: its country and issuer; for a failed row: why it is not an ICCID. */
  country: string;
  issuer: string;
  note: string;
}

/** The counts of a run, by row (the same ICCID twice counts twice). */
export interface Tally {
  rows: number;
  valid: number;
  invalid: number;
  /** Rows that were not read as ICCIDs (blank, wrong characters, too short or long). */
  failed: number;
  /** Rows read as ICCIDs whose issuer no source names. */
  unknownIssuer: number;
  /** Rows per country name ("" for none known), most first when shown. */
  byCountry: Record<string, number>;
}

/** Why a run ended before the end of its input. */
export interface Stop {
  reason: "cancelled" | "refused" | "failed";
  /** The server's words (or the reader's), for the user. */
  detail: string;
  /** The HTTP status when the call failed (0 when the server could not be reached); with `code`, the page tells a lost session by it. */
  status?: number;
  /** The problem code when the server refused (quota_exceeded, rate_limited, …). */
  code?: string;
  /** When the server says going on is worth it, in seconds from now. */
  retryAfterSeconds?: number;
}

export type WorkerMessage =
  /** After each chunk: the rows answered so far, and how much of a file is read. */
  | { type: "progress"; rows: number; bytes: number; totalBytes: number }
  | RunDone;

/**
 * The run is over: every row answered so far as the answers file, their counts, the rows for the table
 * (the first ones, and the first that are not valid, for "show only failed rows"), and why it ended
 * early, if it did.
 */
export interface RunDone {
  type: "done";
  csv: Blob;
  tally: Tally;
  rows: PreviewRow[];
  stop?: Stop;
  /** What the user should know of the input that the answers do not show (characters that were not UTF-8). */
  note?: string;
}
