// `pnpm data:refresh`: rebuilds the registry's generated files (itu-e118.csv, network-codes.csv) from the
// sources' facts files in data/sources, writes them, and prints what changed by source for an operator to
// review; then `pnpm build` checks the merge for conflicts. `--check` writes nothing and fails when a file
// would change (the committed registry is what its committed sources give).
import { existsSync, writeFileSync } from "node:fs";
import { readDataFile, RegistryDataError } from "./csv.js";
import { registryChanges, registryFilesFromSources } from "./refresh.js";
import { REGISTRY_DIR } from "./registry.js";

const check = process.argv.includes("--check");
try {
  let changed = 0;
  for (const file of registryFilesFromSources()) {
    const before = existsSync(new URL(file.name, REGISTRY_DIR)) ? readDataFile(REGISTRY_DIR, file.name) : { name: file.name, text: "" };
    if (before.text !== file.text) changed++;
    process.stdout.write(`${registryChanges(before, file).join("\n")}\n`);
    if (!check) writeFileSync(new URL(file.name, REGISTRY_DIR), file.text);
  }
  if (check && changed > 0) {
    process.stderr.write(`${changed} registry file(s) differ from what data/sources gives: run pnpm data:refresh\n`);
    process.exit(1);
  }
} catch (error) {
  if (!(error instanceof RegistryDataError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
