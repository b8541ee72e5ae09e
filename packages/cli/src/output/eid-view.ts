import type { OutcomeColumn } from "@iccid/core";
import { failureColumn, resultColumn, rowCells, tsvText } from "@iccid/core/grammar";
import type { EidBatchItemError, EidResult } from "@iccid/core/types";
import type { InputOutcome } from "../answer-in-order.js";
import type { Palette } from "./colour.js";
import { csvText } from "./csv.js";
import type { OutputFormat } from "./format.js";
import { renderTable } from "./table.js";

/** One EID's answer as the CLI shows it (an InputOutcome of an EID read). */
export type EidOutcome = InputOutcome<EidResult, EidBatchItemError>;

/** What a failed EID outcome carries to the row: the reason it has no result. */
type EidFailure = { error: EidBatchItemError };

/** The columns of `iccid eid --output csv` (and of tsv, without the header), after the input. */
const EID_ROW: readonly OutcomeColumn<EidResult, EidFailure>[] = [
  resultColumn("eid", (r) => r.eid),
  resultColumn("valid", (r) => String(r.valid)),
  resultColumn("mod97", (r) => r.checks.mod97),
  resultColumn("expected_check_digits", (r) => r.checks.expected_check_digits ?? ""),
  resultColumn("layout", (r) => r.layout),
  resultColumn("calling_code", (r) => r.calling_code ?? ""),
  resultColumn("country_iso2", (r) => r.country?.iso2 ?? ""),
  resultColumn("country", (r) => r.country?.name ?? ""),
  resultColumn("manufacturer_id", (r) => r.manufacturer?.id ?? ""),
  resultColumn("manufacturer", (r) => r.manufacturer?.name ?? ""),
  resultColumn("warnings", (r) => r.warnings.map((w) => w.code).join(";")),
  failureColumn("error_code", (f) => f.error.code),
  failureColumn("error", (f) => f.error.message),
];

const HEADER = ["input", ...EID_ROW.map((column) => column.name)];

/** One outcome's row: the input as typed, then EID_ROW's cells. */
function cells(o: EidOutcome): string[] {
  return [o.input, ...rowCells(EID_ROW, o)];
}

/** "✓ valid" or "✗ bad check digits (35 would pass)". */
function validity(r: EidResult, paint: Palette): string {
  return r.valid ? paint.green("✓ valid") : paint.red(`✗ bad check digits (${r.checks.expected_check_digits} would pass)`);
}

function countryText(r: EidResult, paint: Palette): string {
  if (r.country) return `${r.country.name} (${r.country.iso2}, +${r.calling_code})`;
  return r.calling_code ? `+${r.calling_code}` : paint.dim(r.layout === "sgp29" ? "none (SGP.29)" : "unknown");
}

/** The issuer's identifier, with its name where a source gives one ("Name (89049032)"). */
function manufacturerText(r: EidResult, paint: Palette): string {
  if (!r.manufacturer) return paint.dim("none (SGP.29)");
  return r.manufacturer.name ? `${r.manufacturer.name} (${r.manufacturer.id})` : r.manufacturer.id;
}

function tableRow(o: EidOutcome, paint: Palette): string[] {
  if (!o.ok) return [o.input, paint.red("✗ error"), "", "", `${o.error.code}: ${o.error.message}`];
  const r = o.result;
  return [r.eid, validity(r, paint), countryText(r, paint), manufacturerText(r, paint), r.warnings.map((w) => w.code).join(", ")];
}

/** Renders EID outcomes in the chosen format; JSON of one EID is one object, of several an array. */
export function renderEids(outcomes: readonly EidOutcome[], format: OutputFormat, paint: Palette): string {
  switch (format) {
    case "json": {
      const json = outcomes.map((o) => (o.ok ? o.result : { input: o.input, error: o.error }));
      return JSON.stringify(json.length === 1 ? json[0] : json, null, 2) + "\n";
    }
    case "csv":
      return csvText([HEADER, ...outcomes.map(cells)]);
    case "tsv":
      return tsvText(outcomes.map(cells));
    case "table":
      return renderTable(["EID", "Valid", "Country", "Issuer", "Notes"], outcomes.map((o) => tableRow(o, paint)), paint, undefined, { beneath: 4 });
  }
}
