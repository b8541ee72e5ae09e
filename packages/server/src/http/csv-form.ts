import { csvLine, LOOKUP_ROW_COLUMNS, lookupRowCsv, type BatchItem } from "@iccid/core";

/**
 * A batch answer's CSV form, which a route declares beside its JSON schema: the header line and the row
 * of one item, each line ending in "\n". A form of the items some batch makes, kept where the item type is
 * not known (the route table) as `CsvForm<never>`.
 */
export interface CsvForm<I> {
  header: string;
  row: (item: I) => string;
}

/** The ICCID batch's CSV: one lookup row per input, the columns of `iccid batch` (docs/api.md). */
export const LOOKUP_ROWS: CsvForm<BatchItem> = { header: csvLine(LOOKUP_ROW_COLUMNS), row: (item) => lookupRowCsv(item) + "\n" };
