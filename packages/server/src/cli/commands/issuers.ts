import { text } from "node:stream/consumers";
import { Command } from "commander";
import { counted, wasOrWere } from "@iccid/core";
import { CUSTOM_PREFIX_RECHECK_MS } from "../../decode/live-decoder.js";
import { checkPrefix, issuerCsv, parseIssuerCsv } from "../issuer-csv.js";
import { openInput } from "../input.js";
import { printListing } from "../listing.js";
import { recordServerWideChange } from "../operator-origin.js";
import { withStore } from "../store-access.js";
import { unknownIssuersCommand } from "./issuers-unknown.js";

const APPLIES = `running servers use the change within ${CUSTOM_PREFIX_RECHECK_MS / 1000} s`;

export function issuersCommand(): Command {
  const issuers = new Command("issuers").description("manage the operator's own issuer prefixes");
  issuers
    .command("import <file>")
    .description("import prefix,name[,country_iso2] rows (they win over the built-in registry at equal length)")
    .option("--replace", "replace all imported prefixes instead of adding to them")
    .action(async (file: string, opts: { replace?: boolean }, command: Command) => {
      const prefixes = parseIssuerCsv(await text(openInput(file)));
      await withStore(command, async (store) => {
        await (opts.replace ? store.replaceCustomPrefixes(prefixes) : store.upsertCustomPrefixes(prefixes));
        await recordServerWideChange(store, "prefixes.imported");
      });
      process.stderr.write(`imported ${counted(prefixes.length, "prefix", "prefixes")}; ${APPLIES}\n`);
    });
  issuers
    .command("list")
    .description("show the imported prefixes")
    .action(async (_opts, command: Command) => {
      const prefixes = await withStore(command, (store) => store.listCustomPrefixes());
      printListing(["PREFIX", "COUNTRY", "NAME"], prefixes.map((p) => [p.prefix, p.country_iso2 ?? "-", p.name]));
      process.stderr.write(`${counted(prefixes.length, "custom prefix", "custom prefixes")}\n`);
    });
  issuers
    .command("export")
    .description("write the imported prefixes as CSV that `issuers import` reads back")
    .action(async (_opts, command: Command) => {
      process.stdout.write(issuerCsv(await withStore(command, (store) => store.listCustomPrefixes())));
    });
  issuers
    .command("remove <prefix...>")
    .description("remove imported prefixes (the built-in registry answers for them again)")
    .action(async (prefixes: string[], _opts, command: Command) => {
      for (const prefix of prefixes) checkPrefix(prefix);
      const removed = await withStore(command, async (store) => {
        const count = await store.removeCustomPrefixes([...new Set(prefixes)]);
        // A removal that found nothing changed nothing, and is not recorded.
        if (count > 0) await recordServerWideChange(store, "prefixes.removed");
        return count;
      });
      const missing = new Set(prefixes).size - removed;
      process.stderr.write(`removed ${counted(removed, "prefix", "prefixes")}${missing > 0 ? ` (${missing} ${wasOrWere(missing)} not imported)` : ""}; ${APPLIES}\n`);
    });
  issuers.addCommand(unknownIssuersCommand());
  return issuers;
}
