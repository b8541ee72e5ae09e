import type { EidBatchItemError, EidResult } from "@iccid/core/types";
import type { InputOutcome } from "../answer-in-order.js";
import type { Palette } from "./colour.js";
import { csvText } from "./csv.js";
import type { OutputFormat } from "./format.js";
import { renderTable } from "./table.js";
import { tsvText } from "./tsv.js";

/** One EID's answer as the CLI shows it: the input as typed, and a result or the reason it has none. */
export type EidOutcome = InputOutcome<EidResult, EidBatchItemError>;

/** The columns of `iccid eid --output csv` (and of tsv, without the header), after the input. */
export const EID_COLUMNS = [
  "eid",
  "valid",
  "mod97",
  "expected_check_digits",
  "layout",
  "calling_code",
  "country_iso2",
  "country",
  "manufacturer_id",
  "manufacturer",
  "warnings",
  "error_code",
  "error",
];

function cells(o: EidOutcome): string[] {
  if (!o.ok) return [o.input, "", "", "", "", "", "", "", "", "", "", "", o.error.code, o.error.message];
  const r = o.result;
  return [
    o.input,
    r.eid,
    String(r.valid),
    r.checks.mod97,
    r.checks.expected_check_digits ?? "",
    r.layout,
    r.calling_code ?? "",
    r.country?.iso2 ?? "",
    r.country?.name ?? "",
    r.manufacturer?.id ?? "",
    r.manufacturer?.name ?? "",
    r.warnings.map((w) => w.code).join(";"),
    "",
    "",
  ];
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
      return csvText([["input", ...EID_COLUMNS], ...outcomes.map(cells)]);
    case "tsv":
      return tsvText(outcomes.map(cells));
    case "table":
      return renderTable(["EID", "Valid", "Country", "Issuer", "Notes"], outcomes.map((o) => tableRow(o, paint)), paint);
  }
}
