#!/usr/bin/env node
// Turns one upstream file into the facts file of its source in data/sources/ (facts only: codes, countries,
// names, status; no code, prose, addresses or bands). Record the edition read in data/sources/editions.csv,
// then run `pnpm data:refresh` to rebuild the registry and review what changed.
// Usage: node scripts/import-source.mjs SOURCE FILE
//   mcc-mnc-list   FILE: the package's mcc-mnc-list.json (`npm pack mcc-mnc-list`)
//   python-stdnum  FILE: python-stdnum's stdnum/imsi.dat
//   e118-iin-list  FILE: the e118-iin-list repository's src/list.ts (the list literal is read as data)
import { readFileSync, writeFileSync } from "node:fs";

const [source, file] = process.argv.slice(2);
const cell = (value) => {
  const text = value == null ? "" : String(value).trim();
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};
const csv = (header, rows) => `${[header, ...rows].map((row) => row.map(cell).join(",")).join("\n")}\n`;

/** mcc-mnc-list: one row per listing, its countries as the package writes them (AU/CC/CX), verbatim repeats once. */
function mccMncList(text) {
  const seen = new Set();
  const rows = [];
  for (const r of JSON.parse(text)) {
    if (!/^\d{3}$/.test(r.mcc ?? "") || !/^\d{2,3}$/.test(r.mnc ?? "")) continue;
    const row = [r.mcc, r.mnc, r.countryCode ?? "", r.brand, r.operator, r.status];
    const key = row.map(cell).join(",");
    if (!seen.has(key)) rows.push(row);
    seen.add(key);
  }
  return csv(["mcc", "mnc", "countries", "brand", "operator", "status"], rows);
}

/** Wiki markup left in a name (O<sub>2</sub>, &amp;, &nbsp;) as the plain text it shows. */
const plain = (value) =>
  value === undefined ? undefined : value.replace(/<[^>]*>/g, "").replace(/&nbsp;/g, " ").replace(/&amp;/g, "&").replace(/\s+/g, " ");

/** python-stdnum imsi.dat: an MCC line, then one indented line per MNC with key="value" pairs; ranges (00-99) skipped. */
function pythonStdnum(text) {
  const rows = [];
  let mcc = "";
  for (const line of text.split("\n")) {
    if (/^\d{3}$/.test(line.trim()) && !line.startsWith(" ")) mcc = line.trim();
    const m = /^ (\d{2,3}) (.*)$/.exec(line);
    if (!m || !/^\d{3}$/.test(mcc)) continue;
    const fields = Object.fromEntries([...m[2].matchAll(/(\w+)="((?:[^"]|"(?! \w+=|$))*)"/g)].map((f) => [f[1], f[2]]));
    rows.push([mcc, m[1], (fields.cc ?? "").toUpperCase(), plain(fields.brand), plain(fields.operator), fields.status]);
  }
  return csv(["mcc", "mnc", "iso2", "brand", "operator", "status"], rows);
}

/** e118-iin-list list.ts: entries 'digits': [iin, number, countryCode, 'country', 'company', [urls]]; urls dropped. */
function e118IinList(text) {
  const body = text.slice(text.indexOf("export const e118IINList"));
  const rows = [];
  const entry = /'(\d+)':\s*\[\s*(\d+),\s*'(\d*)',\s*(\d+),\s*('(?:[^'\\]|\\.)*'|"[^"]*"),\s*('(?:[^'\\]|\\.)*'|"[^"]*")/g;
  const unquote = (s) => s.slice(1, -1).replace(/\\'/g, "'");
  for (const m of body.matchAll(entry)) rows.push([m[1], m[4], unquote(m[5]), unquote(m[6])]);
  return csv(["iin", "country_code", "country", "company"], rows);
}

const readers = { "mcc-mnc-list": mccMncList, "python-stdnum": pythonStdnum, "e118-iin-list": e118IinList };
const read = readers[source];
if (!read || !file) {
  process.stderr.write(`usage: import-source.mjs ${Object.keys(readers).join("|")} FILE\n`);
  process.exit(2);
}
const out = read(readFileSync(file, "utf8"));
if (out.split("\n").length <= 2) {
  process.stderr.write(`no rows of ${source} read from ${file}: is it the file named above for ${source}?\n`);
  process.exit(1);
}
const target = new URL(`../data/sources/${source}.csv`, import.meta.url);
writeFileSync(target, out);
process.stdout.write(`wrote ${out.split("\n").length - 2} rows of ${source} to ${target.pathname}\n`);
