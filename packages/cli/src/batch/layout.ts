import { CsvLayoutError, detectCsvLayout, type CsvLayout } from "@iccid/core/grammar";
import { UsageError } from "../errors.js";

/**
 * Decides the layout from the first two records, `column` being `--column`'s value (core's
 * detectCsvLayout); what it cannot decide is a usage error that says which option helps.
 */
export function detectLayout(first: string[], second: string[] | undefined, column: string | undefined): CsvLayout {
  try {
    return detectCsvLayout(first, second, column);
  } catch (error) {
    if (!(error instanceof CsvLayoutError)) throw error;
    if (error.reason === "undecided") throw new UsageError(`${error.message}; pass --column NAME or --column N`);
    throw new UsageError(`--column ${error.reason === "column_not_found" ? JSON.stringify(column) : column}: ${error.message}`);
  }
}
