import { counted, luhnCheckDigit } from "@iccid/core";
import { Command } from "commander";
import { IccidDecoder } from "../../decode/decoder.js";
import { floorDay, rfc3339, systemClock } from "../../time.js";
import { auditSince } from "../audit-since.js";
import { printListing } from "../listing.js";
import { withStore } from "../store-access.js";

/** Whether the decoder now names an issuer for a prefix (a number under it, its other digits zeros). */
function stillUnknown(decoder: IccidDecoder, prefix: string): boolean {
  const body = prefix.padEnd(18, "0");
  const outcome = decoder.decode(body + luhnCheckDigit(body));
  return !outcome.ok || outcome.result.issuer === null;
}

/**
 * `iccid-server issuers unknown`: the prefixes (first seven digits) of lookups that named no issuer, most
 * seen first, with counts and first and last seen. A prefix that the registry or the operator's own
 * prefixes now name leaves the list.
 */
export function unknownIssuersCommand(): Command {
  return new Command("unknown")
    .description("list the prefixes (first 7 digits) of lookups that named no issuer, most seen first")
    .option("--since <when>", "only days since this RFC 3339 time or date, or this long ago (7d, 24h); default 30d", auditSince)
    .option("--json", "JSON output, one array")
    .action(async (opts: { since?: (now: number) => number; json?: boolean }, command: Command) => {
      const now = systemClock.now();
      const since = floorDay(opts.since ? opts.since(now) : now - 30 * 86_400_000);
      const rows = await withStore(command, async (store) => {
        const decoder = new IccidDecoder(await store.listCustomPrefixes());
        return (await store.unknownPrefixes(since)).filter((row) => stillUnknown(decoder, row.prefix));
      });
      const listed = rows.map((r) => ({ prefix: r.prefix, count: r.count, first_seen: rfc3339(r.first_seen), last_seen: rfc3339(r.last_seen) }));
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(listed, null, 2)}\n`);
        return;
      }
      printListing(["PREFIX", "LOOKUPS", "FIRST SEEN", "LAST SEEN"], listed.map((r) => [r.prefix, String(r.count), r.first_seen, r.last_seen]));
      process.stderr.write(`${counted(listed.length, "unknown prefix", "unknown prefixes")} since ${rfc3339(since)}\n`);
    });
}
