#!/usr/bin/env node
// Regenerates data/registry/network-codes.csv from the `mcc-mnc-list` npm package (MIT; its data is the
// Wikipedia "Mobile country code" lists, CC BY-SA 4.0): one row per E.212 network (MCC, MNC) with its
// country, brand, operator and status. A network the list gives to several countries (`BQ/CW/SX`) gets one
// row per country, so each country's numbering rule finds it. Usage: node scripts/refresh-network-codes.mjs [version]
// The package is fetched with `npm pack` into a temporary directory, so it is not a dependency.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const version = process.argv[2] ?? "latest";
const dir = mkdtempSync(join(tmpdir(), "mcc-mnc-list-"));
try {
  const tarball = execFileSync("npm", ["pack", `mcc-mnc-list@${version}`, "--silent"], { cwd: dir, encoding: "utf8" }).trim();
  execFileSync("tar", ["xzf", tarball], { cwd: dir });
  const pkg = JSON.parse(readFileSync(join(dir, "package", "package.json"), "utf8"));
  const rows = JSON.parse(readFileSync(join(dir, "package", "mcc-mnc-list.json"), "utf8"));
  const source = `mcc-mnc-list@${pkg.version}`;
  const cell = (value) => {
    const text = value == null ? "" : String(value).trim();
    return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const seen = new Set();
  const lines = ["mcc,mnc,iso2,brand,operator,status,source"];
  for (const r of rows) {
    if (!/^\d{3}$/.test(r.mcc ?? "") || !/^\d{2,3}$/.test(r.mnc ?? "")) continue;
    for (const iso2 of (r.countryCode ?? "").split("/")) {
      const line = [r.mcc, r.mnc, iso2, r.brand, r.operator, r.status, source].map(cell).join(",");
      if (seen.has(line)) continue; // the package repeats some rows verbatim
      seen.add(line);
      lines.push(line);
    }
  }
  const target = new URL("../data/registry/network-codes.csv", import.meta.url);
  writeFileSync(target, `${lines.join("\n")}\n`);
  process.stdout.write(`wrote ${lines.length - 1} networks from ${source} to ${target.pathname}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
