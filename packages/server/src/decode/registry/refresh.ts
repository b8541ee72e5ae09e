import { csvRecords, readDataFile, type CsvFile } from "./csv.js";
import { editionOf, readEditions, SOURCES_DIR } from "./editions.js";
import { ituListText } from "./itu.js";
import { networkCodesText } from "./network-sources.js";

/** A registry file the refresh writes, with its text. */
export interface RegistryFile {
  name: string;
  text: string;
}

/** The registry files made from the sources' facts files in `sources` (data/sources): the same sources give the same bytes. */
export function registryFilesFromSources(sources: URL = SOURCES_DIR): RegistryFile[] {
  const read = (name: string) => readDataFile(sources, name);
  const editions = readEditions(read("editions.csv"));
  return [
    { name: "itu-e118.csv", text: ituListText(read("e118-iin-list.csv"), editionOf(editions, "e118-iin-list")) },
    {
      name: "network-codes.csv",
      text: networkCodesText(read("mcc-mnc-list.csv"), read("python-stdnum.csv"), editionOf(editions, "mcc-mnc-list"), editionOf(editions, "python-stdnum")),
    },
  ];
}

/** One row of a registry file as the change report sees it: its key, the name it answers, and its source. */
interface Keyed {
  name: string;
  source: string;
}

function keyedRows(file: CsvFile): Map<string, Keyed> {
  const rows = new Map<string, Keyed>();
  if (file.name === "itu-e118.csv") {
    for (const row of csvRecords(file, ["prefix", "name", "source"] as const)) rows.set(row.prefix, { name: row.name, source: row.source });
  } else {
    for (const row of csvRecords(file, ["mcc", "mnc", "iso2", "brand", "operator", "source"] as const)) {
      rows.set(`${row.mcc}-${row.mnc} ${row.iso2 || "(no country)"}`, { name: row.brand || row.operator || "(no name)", source: row.source });
    }
  }
  return rows;
}

/**
 * What a refresh changes in one registry file, for an operator to review: the rows added, renamed (the
 * same key, another name) and removed, grouped by the source of the row (the new row's; a removed row's
 * own). An unchanged file reports "unchanged".
 */
export function registryChanges(before: CsvFile, after: CsvFile): string[] {
  if (before.text === after.text) return [`${after.name}: unchanged`];
  const old = before.text === "" ? new Map<string, Keyed>() : keyedRows(before);
  const now = keyedRows(after);
  const bySource = new Map<string, string[]>();
  const note = (source: string, line: string) => (bySource.get(source) ?? bySource.set(source, []).get(source)!).push(line);
  const counts = { added: 0, renamed: 0, removed: 0 };
  for (const [key, row] of now) {
    const was = old.get(key);
    if (!was) {
      counts.added++;
      note(row.source, `  added    ${key}: ${row.name}`);
    } else if (was.name !== row.name) {
      counts.renamed++;
      note(row.source, `  renamed  ${key}: ${was.name} -> ${row.name}`);
    }
  }
  for (const [key, row] of old) {
    if (!now.has(key)) {
      counts.removed++;
      note(row.source, `  removed  ${key}: ${row.name}`);
    }
  }
  const lines = [`${after.name}: ${counts.added} added, ${counts.renamed} renamed, ${counts.removed} removed`];
  for (const [source, changes] of [...bySource].sort((a, b) => (a[0] < b[0] ? -1 : 1))) lines.push(` ${source} (${changes.length})`, ...changes);
  return lines;
}
