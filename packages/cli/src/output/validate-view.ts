import type { IccidParseResult } from "@iccid/core";
import { tsvText } from "@iccid/core/grammar";
import type { Palette } from "./colour.js";
import { csvText } from "./csv.js";
import type { OutputFormat } from "./format.js";
import { notes, validity } from "./lookup-view.js";
import { renderTable } from "./table.js";

export const VALIDATE_COLUMNS = ["input", "iccid", "valid", "luhn", "length", "check_digit", "warnings", "error_code", "error"];

function cells(r: IccidParseResult): string[] {
  if (!r.ok) return [r.input, "", "false", "", "", "", "", r.error.code, r.error.message];
  const warnings = r.warnings.map((w) => w.code).join(";");
  return [r.input, r.iccid, String(r.valid), r.checks.luhn, String(r.length), r.check_digit, warnings, "", ""];
}

function tableRow(r: IccidParseResult, paint: Palette): string[] {
  if (!r.ok) return [r.input, paint.red("✗ malformed"), `${r.error.code}: ${r.error.message}`];
  return [r.iccid, validity(r, paint), notes(r)];
}

export function renderValidation(results: readonly IccidParseResult[], format: OutputFormat, paint: Palette): string {
  switch (format) {
    case "json":
      return JSON.stringify(results.length === 1 ? results[0] : results, null, 2) + "\n";
    case "csv":
      return csvText([VALIDATE_COLUMNS, ...results.map(cells)]);
    case "tsv":
      return tsvText(results.map(cells));
    case "table":
      return renderTable(["ICCID", "Valid", "Notes"], results.map((r) => tableRow(r, paint)), paint, undefined, { beneath: 2 });
  }
}
