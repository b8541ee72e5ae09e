import type { LookupResult } from "@iccid/core";
import type { Palette } from "./colour.js";
import { csvText } from "./csv.js";
import type { OutputFormat } from "./format.js";
import { outcomeJson, RESULT_COLUMNS, resultCells, type LookupOutcome } from "./lookup-columns.js";
import { renderTable } from "./table.js";
import { tsvText } from "./tsv.js";

const TABLE_HEAD = ["ICCID", "Valid", "Country", "Issuer", "Notes"];

function validity(result: LookupResult, paint: Palette): string {
  if (result.valid) return paint.green("✓ valid");
  if (result.checks.luhn === "not_applicable") return paint.yellow("? no Luhn (hex)");
  return paint.red(`✗ bad check digit (${result.checks.expected_check_digit} would pass)`);
}

/** "AT&T (8901410, numbering rule)": the name, the prefix, and how the answer is known unless registered. */
function issuerText(issuer: NonNullable<LookupResult["issuer"]>): string {
  const how = issuer.confidence === "inferred" ? `, ${issuer.origin.replace("-", " ")}` : "";
  const registered = issuer.registered_name ? `, registered as ${issuer.registered_name}` : "";
  return `${issuer.name} (${issuer.prefix}${how}${registered})`;
}

function tableRow(outcome: LookupOutcome, paint: Palette): string[] {
  if (!outcome.ok) return [outcome.input, paint.red("✗ error"), "", "", `${outcome.error.code}: ${outcome.error.message}`];
  const r = outcome.result;
  const country = r.country
    ? `${r.country.name} (${r.country.iso2}, +${r.calling_code})`
    : r.calling_code
      ? `+${r.calling_code}`
      : "unknown";
  const issuer = r.issuer ? issuerText(r.issuer) : paint.dim("unknown");
  const missing = r.checks.missing_check_digit;
  const notes = [...r.warnings.map((w) => w.code), ...(missing ? [`printed without its check digit? then ${r.iccid}${missing}`] : [])].join(", ");
  return [r.iccid, validity(r, paint), country, issuer, notes];
}

/** Renders lookup outcomes in the chosen format; JSON of one ICCID is one object, of several an array. */
export function renderOutcomes(outcomes: readonly LookupOutcome[], format: OutputFormat, paint: Palette): string {
  switch (format) {
    case "json": {
      const json = outcomes.length === 1 ? outcomeJson(outcomes[0]!) : outcomes.map(outcomeJson);
      return JSON.stringify(json, null, 2) + "\n";
    }
    case "csv":
      return csvText([["input", ...RESULT_COLUMNS], ...outcomes.map((o) => [o.input, ...resultCells(o)])]);
    case "tsv":
      return tsvText(outcomes.map((o) => [o.input, ...resultCells(o)]));
    case "table":
      return renderTable(TABLE_HEAD, outcomes.map((o) => tableRow(o, paint)), paint);
  }
}
