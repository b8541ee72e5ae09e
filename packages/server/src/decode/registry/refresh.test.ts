import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { REGISTRY_DIR } from "./registry.js";
import { registryChanges, registryFilesFromSources } from "./refresh.js";

// `pnpm data:refresh` makes the registry's generated files from the sources' facts files; the committed
// files must be exactly what the committed sources give, so a hand edit or a stale refresh shows here.

function sourcesDir(files: Record<string, string>): URL {
  const dir = mkdtempSync(join(tmpdir(), "sources-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return pathToFileURL(`${dir}/`);
}

const editions =
  "source,key,tag,date,licence,read_from\n" +
  "e118-iin-list,e118,OB1,2024-07-01,test licence,test\n" +
  "mcc-mnc-list,mcc,1.0,2023-04-04,test licence,test\n" +
  "python-stdnum,stdnum,2026-01-04,2026-01-04,test licence,test\n";
const e118 = "iin,country_code,country,company\n4410,44,United Kingdom,Vodafone Ltd\n01010,1,Canada,Twin of a North American issuer\n88216,882,Global,Thuraya\n";
const older =
  "mcc,mnc,countries,brand,operator,status\n" +
  "425,05,IL,Jawwal,Palestine Cellular Communications Ltd.,Operational\n" +
  "425,05,PS,Jawwal,\"Palestine Cellular Communications, Ltd.\",Operational\n" +
  "310,410,US,AT&T,AT&T Mobility,Operational\n" +
  "310,410,VI,Liberty,Liberty,Operational\n" +
  "505,01,AU/CC/CX,Telstra,Telstra Corporation Limited,Operational\n" +
  "995,01,,FonePlus,Sure (Diego Garcia) Ltd,Operational\n" +
  "530,01,NZ,Vodafone,Vodafone New Zealand,Operational\n";
const newer =
  "mcc,mnc,iso2,brand,operator,status\n" +
  "425,05,PS,Jawwal,\"Palestine Cellular Communications, Ltd.\",Operational\n" +
  "310,410,US,AT&T,AT&T Mobility,Operational\n" +
  "505,01,,Telstra,Telstra,Operational\n" +
  "995,01,IO,FonePlus,Sure (Diego Garcia) Ltd,Operational\n" +
  "620,06,GH,AT Ghana,AT Ghana Ltd.,Operational\n";

describe("the refresh", () => {
  it("reproduces the committed registry from the committed sources, byte for byte", () => {
    for (const file of registryFilesFromSources()) {
      expect(file.text === readFileSync(new URL(file.name, REGISTRY_DIR), "utf8"), `${file.name} is what data/sources gives`).toBe(true);
    }
  });

  it("keys ITU issuers by 89 + their digits, without the North American twins, Global as no country", () => {
    const dir = sourcesDir({ "editions.csv": editions, "e118-iin-list.csv": e118, "mcc-mnc-list.csv": older, "python-stdnum.csv": newer });
    const itu = registryFilesFromSources(dir).find((f) => f.name === "itu-e118.csv")!;
    expect(itu.text).toBe("prefix,country_code,country,name,source\n894410,44,United Kingdom,Vodafone Ltd,e118-iin-list@OB1\n8988216,882,,Thuraya,e118-iin-list@OB1\n");
  });

  it("takes names from the newest table and the listings of the older one that name the same network", () => {
    const dir = sourcesDir({ "editions.csv": editions, "e118-iin-list.csv": e118, "mcc-mnc-list.csv": older, "python-stdnum.csv": newer });
    const rows = registryFilesFromSources(dir).find((f) => f.name === "network-codes.csv")!.text.trim().split("\n");
    expect(rows).toEqual([
      "mcc,mnc,iso2,listing,brand,operator,status,source",
      // Liberty's VI listing of 310-410 names another network than the newest table's AT&T: left out.
      "310,410,US,US,AT&T,AT&T Mobility,Operational,python-stdnum@2026-01-04; listings mcc-mnc-list@1.0",
      "425,05,IL,IL,Jawwal,\"Palestine Cellular Communications, Ltd.\",Operational,python-stdnum@2026-01-04; listings mcc-mnc-list@1.0",
      "425,05,PS,PS,Jawwal,\"Palestine Cellular Communications, Ltd.\",Operational,python-stdnum@2026-01-04; listings mcc-mnc-list@1.0",
      // The newest row of no country keeps the older listing's countries, one row each.
      "505,01,AU,AU/CC/CX,Telstra,Telstra,Operational,python-stdnum@2026-01-04; listings mcc-mnc-list@1.0",
      "505,01,CC,AU/CC/CX,Telstra,Telstra,Operational,python-stdnum@2026-01-04; listings mcc-mnc-list@1.0",
      "505,01,CX,AU/CC/CX,Telstra,Telstra,Operational,python-stdnum@2026-01-04; listings mcc-mnc-list@1.0",
      // Only the older table has it: kept as it was.
      "530,01,NZ,NZ,Vodafone,Vodafone New Zealand,Operational,mcc-mnc-list@1.0",
      "620,06,GH,GH,AT Ghana,AT Ghana Ltd.,Operational,python-stdnum@2026-01-04",
      // A listing of no country yields to the newest table's country.
      "995,01,IO,IO,FonePlus,Sure (Diego Garcia) Ltd,Operational,python-stdnum@2026-01-04; listings mcc-mnc-list@1.0",
    ]);
  });

  it("names a source whose edition is not recorded", () => {
    const dir = sourcesDir({ "editions.csv": editions.split("\n").slice(0, 3).join("\n"), "e118-iin-list.csv": e118, "mcc-mnc-list.csv": older, "python-stdnum.csv": newer });
    expect(() => registryFilesFromSources(dir)).toThrow(/no edition for the source "python-stdnum"/);
  });

  it("reports rows added, renamed and removed, by source", () => {
    const header = "prefix,country_code,country,name,source\n";
    const before = { name: "itu-e118.csv", text: `${header}894410,44,United Kingdom,Vodafone Ltd,e118@1\n894411,44,United Kingdom,Cellnet,e118@1\n` };
    const after = { name: "itu-e118.csv", text: `${header}894410,44,United Kingdom,Vodafone plc,e118@2\n893134,31,Netherlands,CleverEnable B.V.,e118@2\n` };
    expect(registryChanges(before, after)).toEqual([
      "itu-e118.csv: 1 added, 1 renamed, 1 removed",
      " e118@1 (1)",
      "  removed  894411: Cellnet",
      " e118@2 (2)",
      "  renamed  894410: Vodafone Ltd -> Vodafone plc",
      "  added    893134: CleverEnable B.V.",
    ]);
    expect(registryChanges(after, after)).toEqual(["itu-e118.csv: unchanged"]);
  });
});
