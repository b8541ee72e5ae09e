import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { CuratedRow } from "./curated.js";
import type { RegistryEntry } from "./entry.js";
import { mergeRegistry } from "./merge.js";
import { issuerKey, sameIssuer } from "./names.js";
import { buildRegistry, RegistryConflictError } from "./registry.js";

const itu = (prefix: string, name: string): RegistryEntry => ({
  prefix,
  name,
  registeredName: null,
  origin: "itu-e118",
  confidence: "registered",
  iso2: null,
  countryName: "Somewhere",
  mcc: null,
  mnc: null,
  source: "test ITU",
});
const rule = (prefix: string, name: string, mnc: string): RegistryEntry => ({
  ...itu(prefix, name),
  origin: "numbering-rule",
  confidence: "inferred",
  iso2: "XX",
  countryName: null,
  mcc: "999",
  mnc,
  source: "test rule",
});
const curated = (prefix: string, name: string, over: Partial<CuratedRow> = {}): CuratedRow => ({
  prefix,
  country: "GB",
  name,
  registeredName: null,
  mcc: null,
  mnc: null,
  source: "test evidence",
  note: "",
  line: 2,
  ...over,
});

describe("mergeRegistry", () => {
  it("adds a rule's home network to the ITU registration of the same issuer", () => {
    const { entries, conflicts } = mergeRegistry([itu("894410", "Vodafone Ltd")], [rule("894410", "Vodafone UK", "15")], []);
    expect(conflicts).toEqual([]);
    expect(entries).toEqual([expect.objectContaining({ prefix: "894410", name: "Vodafone Ltd", origin: "itu-e118", mcc: "999", mnc: "15" })]);
  });

  it("fails on a rule that names another issuer at an ITU prefix, unless a curated row decides", () => {
    const clash = mergeRegistry([itu("898600", "China Telecom")], [rule("898600", "China Mobile", "00")], []);
    expect(clash.conflicts).toEqual([expect.objectContaining({ prefix: "898600", issuers: [expect.stringMatching(/China Telecom/), expect.stringMatching(/China Mobile/)] })]);
    const decided = mergeRegistry([itu("898600", "China Telecom")], [rule("898600", "China Mobile", "00")], [
      curated("898600", "China Mobile", { note: "operator documentation: 898600 is China Mobile's range" }),
    ]);
    expect(decided.conflicts).toEqual([]);
    expect(decided.entries).toEqual([expect.objectContaining({ name: "China Mobile", origin: "curated", confidence: "inferred" })]);
  });

  it("fails on two rules giving one prefix two issuers", () => {
    const { conflicts } = mergeRegistry([], [rule("8937001", "Alpha", "01"), rule("8937001", "Beta", "01")], []);
    expect(conflicts).toHaveLength(1);
  });

  it("renames an ITU entry when the row's registered_name is the ITU name, keeping the registration", () => {
    const { entries } = mergeRegistry([itu("894411", "Telecom Securicor Cellular Radio Ltd")], [], [
      curated("894411", "O2 UK", { registeredName: "Telecom Securicor Cellular Radio Ltd" }),
    ]);
    expect(entries).toEqual([
      expect.objectContaining({ name: "O2 UK", registeredName: "Telecom Securicor Cellular Radio Ltd", origin: "itu-e118", iso2: "GB" }),
    ]);
  });

  it("refuses a curated row that replaces another issuer without saying why", () => {
    const { conflicts } = mergeRegistry([itu("894430", "Mercury Personal Communications")], [], [curated("894430", "Someone Else")]);
    expect(conflicts).toEqual([expect.objectContaining({ prefix: "894430", reason: expect.stringMatching(/without a note/) })]);
  });
});

describe("issuer names", () => {
  it("compare without case, punctuation, accents or legal forms", () => {
    expect(issuerKey("Telefónica Móviles España, S.A.U.")).toBe("telefonica moviles espana");
    expect(sameIssuer("AT&T Mobility LLC", "AT&T")).toBe(true);
    expect(sameIssuer("Cable and wireless (Seychelles) Ltd", "Cable & Wireless Seychelles")).toBe(true);
    expect(sameIssuer("China Mobile", "China Telecom")).toBe(false);
    expect(sameIssuer("Bahrain Telecommunications Company (BATELCO)", "Batelco")).toBe(true);
    expect(sameIssuer("A1 Telekom Austria AG", "A1")).toBe(true);
    expect(sameIssuer("", "")).toBe(false);
  });
});

describe("buildRegistry", () => {
  function dataDir(files: Record<string, string>): URL {
    const dir = mkdtempSync(join(tmpdir(), "registry-"));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return pathToFileURL(`${dir}/`);
  }
  const networks = "mcc,mnc,iso2,brand,operator,status,source\n310,410,US,AT&T,AT&T Mobility,Operational,test\n311,410,US,Chat Mobility,Iowa RSA No. 2 LP,Operational,test\n";
  const numbering = "country,calling_code,scheme,source,note,national_digits\nUS,1,us-network-code,test,\n";
  const curatedHeader = "prefix,country,name,registered_name,mcc,mnc,source,note\n";

  it("reads the US network code under MCC 310 first", () => {
    const registry = buildRegistry(dataDir({ "network-codes.csv": networks, "numbering.csv": numbering, "curated.csv": curatedHeader }));
    expect(registry.entries.filter((e) => e.prefix === "8901410")).toEqual([expect.objectContaining({ name: "AT&T", mcc: "310", mnc: "410", iso2: "US" })]);
    expect(registry.edition).toMatch(/^registry\.\d+\.[0-9a-f]{10}(\.[a-z0-9]+-\d{4}-\d{2}-\d{2})+$/);
  });

  it("throws naming the prefix and both issuers when a conflict stays", () => {
    const clash = `${curatedHeader}8901410,US,Someone Else,,,,test evidence,\n`;
    const build = () => buildRegistry(dataDir({ "network-codes.csv": networks, "numbering.csv": numbering, "curated.csv": clash }));
    expect(build).toThrow(RegistryConflictError);
    expect(build).toThrow(/8901410: AT&T .* vs Someone Else/);
  });

  it("names the file, line and field of a bad row", () => {
    const bad = (files: Record<string, string>) => () =>
      buildRegistry(dataDir({ "network-codes.csv": networks, "numbering.csv": numbering, "curated.csv": curatedHeader, ...files }));
    expect(bad({ "numbering.csv": "country,calling_code,scheme,source,note,national_digits\nUS,1,guess,test,\n" })).toThrow(/numbering\.csv line 2: scheme/);
    expect(bad({ "curated.csv": `${curatedHeader}8944,GB,X,,234,,test,\n` })).toThrow(/curated\.csv line 2: mcc and mnc/);
    expect(bad({ "curated.csv": "prefix,name\n" })).toThrow(/curated\.csv: the header has no column "country"/);
  });
});
