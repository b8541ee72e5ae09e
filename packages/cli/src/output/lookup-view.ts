import type { IccidChecks, LookupResult, LookupWarning, OutcomeColumn, ParsedIccid } from "@iccid/core";
import { LOOKUP_ROW_COLUMNS, resultColumn, rowCells, tsvText } from "@iccid/core/grammar";
import type { Palette } from "./colour.js";
import { csvText } from "./csv.js";
import type { OutputFormat } from "./format.js";
import { outcomeJson, resultCells, type LookupOutcome } from "./lookup-columns.js";
import { renderTable } from "./table.js";

/**
 * What the verdict and the notes are read from: what the offline grammar (`validate`) and the server
 * (`lookup`) both answer. Not ParsedIccid's whole `checks`: the server's `format` is a boolean, not `true`.
 */
export type Verdict = Pick<ParsedIccid, "iccid" | "valid"> & {
  /** The grammar's and the decoder's warnings; the server's may also say something about the IMSI sent with the number. */
  warnings: ReadonlyArray<Pick<LookupWarning, "code" | "candidates">>;
  checks: Omit<IccidChecks, "format">;
};

/** "✓ valid", "? no Luhn (hex)" or "✗ bad check digit (4 would pass)". */
export function validity(result: Verdict, paint: Palette): string {
  if (result.valid) return paint.green("✓ valid");
  if (result.checks.luhn === "not_applicable") return paint.yellow("? no Luhn (hex)");
  const expected = result.checks.expected_check_digit;
  return paint.red(expected === undefined ? "✗ bad check digit" : `✗ bad check digit (${expected} would pass)`);
}

/** "AT&T (8901410, numbering rule)": the name, the prefix, and how the answer is known unless registered. */
function issuerText(issuer: NonNullable<LookupResult["issuer"]>): string {
  const how = issuer.confidence === "inferred" ? `, ${issuer.origin.replace("-", " ")}` : "";
  const registered = issuer.registered_name ? `, registered as ${issuer.registered_name}` : "";
  return `${issuer.name} (${issuer.prefix}${how}${registered})`;
}

/** The numbering's country; under an international code none, and the issuer's own country beside it. */
function countryText(result: LookupResult): string {
  if (result.country) return `${result.country.name} (${result.country.iso2}, +${result.calling_code})`;
  const issuerCountry = result.issuer?.country;
  const code = result.calling_code ? `+${result.calling_code}` : "unknown";
  return issuerCountry ? `${code}, issuer in ${issuerCountry.name} (${issuerCountry.iso2})` : code;
}

/** A warning's code; an ambiguous reading's with its candidates, "ambiguous_numbering: US AT&T or NL Blyk N.V.". */
function warningText(warning: Verdict["warnings"][number]): string {
  if (!warning.candidates?.length) return warning.code;
  const readings = warning.candidates.map((c) => `${c.country.iso2} ${c.issuer?.name ?? "(no issuer)"}`);
  return `${warning.code}: ${readings.join(" or ")}`;
}

/** The warnings, and the completed number when it looks printed without its check digit. */
export function notes(result: Verdict): string {
  const missing = result.checks.missing_check_digit;
  const hint = missing ? [`printed without its check digit? then ${result.iccid}${missing}`] : [];
  return [...result.warnings.map(warningText), ...hint].join(", ");
}

/** "Telekom (262-01, DE)", with the MVNO whose range holds the IMSI: what the IMSI sent with the ICCID says. */
function imsiText(imsi: NonNullable<LookupResult["imsi"]>, paint: Palette): string {
  const code = imsi.mnc === null ? imsi.mcc : `${imsi.mcc}-${imsi.mnc}`;
  const where = [code, imsi.country?.iso2].filter(Boolean).join(", ");
  const network = imsi.network ? `${imsi.network.name} (${where})` : `${paint.dim("unknown network")} (${where})`;
  return imsi.mvno ? `${network}, MVNO ${imsi.mvno.name}` : network;
}

/** The table's row for people: fewer, friendlier columns than LOOKUP_ROW, declared the same way; IMSI when one was sent. */
function tableColumns(paint: Palette, withImsi: boolean): OutcomeColumn[] {
  const imsi = withImsi ? [resultColumn("IMSI", (r) => (r.imsi ? imsiText(r.imsi, paint) : ""))] : [];
  return [
    { name: "ICCID", ofResult: (r) => r.iccid, ofFailure: (f) => f.input },
    { name: "Valid", ofResult: (r) => validity(r, paint), ofFailure: () => paint.red("✗ error") },
    resultColumn("Country", countryText),
    resultColumn("Issuer", (r) => (r.issuer ? issuerText(r.issuer) : paint.dim("unknown"))),
    ...imsi,
    { name: "Notes", ofResult: notes, ofFailure: (f) => `${f.error.code}: ${f.error.message}` },
  ];
}

/** Renders lookup outcomes in the chosen format; JSON of one ICCID is one object, of several an array. */
export function renderOutcomes(outcomes: readonly LookupOutcome[], format: OutputFormat, paint: Palette): string {
  switch (format) {
    case "json": {
      const json = outcomes.length === 1 ? outcomeJson(outcomes[0]!) : outcomes.map(outcomeJson);
      return JSON.stringify(json, null, 2) + "\n";
    }
    case "csv":
      return csvText([["input", ...LOOKUP_ROW_COLUMNS], ...outcomes.map((o) => [o.input, ...resultCells(o)])]);
    case "tsv":
      return tsvText(outcomes.map((o) => [o.input, ...resultCells(o)]));
    case "table": {
      const columns = tableColumns(paint, outcomes.some((o) => o.ok && o.result.imsi !== undefined));
      const head = columns.map((column) => column.name);
      return renderTable(head, outcomes.map((o) => rowCells(columns, o)), paint, undefined, { beneath: head.indexOf("Notes") });
    }
  }
}
