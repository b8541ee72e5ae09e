import { csvLine } from "@iccid/core/grammar";

/**
 * Turns records into CSV text ("\n" line ends), every cell written by core's csvCell: neutralised against
 * spreadsheet formulas and quoted per RFC 4180, as the server's CSV batch answer writes them. One call per
 * chunk of rows keeps the cost of a write per chunk, not per row.
 */
export function csvText(records: readonly (readonly string[])[]): string {
  let text = "";
  for (const record of records) text += csvLine(record);
  return text;
}
