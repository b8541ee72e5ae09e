import { luhnCheckDigit, parseIccid, readCsv } from "@iccid/core";

// SIM files for the page's browser tests: numbered ICCIDs, and CSVs as people have them.

const withCheckDigit = (body: string) => body + luhnCheckDigit(body);
/** The n-th ICCID of a series: distinct for every (series, n), under a few issuers' prefixes. */
export const iccidOf = (series: number, n: number) => withCheckDigit(["89441", "89314", "89014", "89490", "89330"][n % 5]! + String(series).padStart(3, "0") + String(n).padStart(10, "0"));

/**
 * A CSV as people have them: a BOM, CRLF, a header, quoted cells with commas, quotes and line breaks,
 * cells a spreadsheet would run as formulas, ragged rows, and rows whose ICCID is blank, not a number, too
 * short or fails its check; ICCIDs written with spaces and dashes.
 */
export function messyCsv(series: number, rows: number): string {
  const lines = ["customer,ICCID,note"];
  for (let n = 1; n <= rows; n++) {
    const iccid = iccidOf(series, n);
    switch (n % 20) {
      case 1:
        lines.push(`"Acme, Inc.",${iccid},"said ""hi"""`);
        break;
      case 2:
        lines.push(`Globex,${iccid.replace(/(.{4})/g, "$1 ").trim()},"two\r\nlines"`);
        break;
      case 3:
        lines.push(`Initech,${iccid}`); // short row: no note
        break;
      case 4:
        lines.push(`Umbrella,,blank iccid`);
        break;
      case 5:
        lines.push(`Hooli,not-a-number,=SUM(A1:A2)`);
        break;
      case 6:
        lines.push(`Soylent,12345,-5,extra,cells`);
        break;
      case 7:
        lines.push(`Stark,${iccid.slice(0, -1)}${(Number(iccid.at(-1)) + 1) % 10},@fails its check`);
        break;
      case 8:
        lines.push(`Wayne,${iccid.replace(/(.{5})/g, "$1-").replace(/-$/, "")},dashes`);
        break;
      default:
        lines.push(`Customer ${n},${iccid},ref ${n}`);
    }
  }
  return "\uFEFF" + lines.join("\r\n") + "\r\n";
}

/** The ICCIDs a CSV from messyCsv has answered: every well-formed cell, distinct. */
export function chargedIccids(csv: string): Set<string> {
  const set = new Set<string>();
  for (const record of readCsv(csv).records.slice(1)) {
    const parsed = parseIccid(record[1] ?? "");
    if (parsed.ok) set.add(parsed.iccid);
  }
  return set;
}
