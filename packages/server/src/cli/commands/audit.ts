import { Command } from "commander";
import type { AuditEvent } from "@iccid/core";
import { Accounts } from "../../services/accounts.js";
import { AuditTrail } from "../../services/audit-trail.js";
import { systemClock } from "../../time.js";
import { auditSince } from "../audit-since.js";
import { UsageError } from "../input.js";
import { printJsonPages, printListingPages } from "../listing.js";
import { resolveSettings } from "../settings.js";
import { withStore } from "../store-access.js";

/** An event's row: when, action, actor, target (or the attempts a throttled sign-in stands for), address, User-Agent ("-" for none). */
function eventRow(e: AuditEvent): string[] {
  const actor = e.actor.id === undefined ? e.actor.type : `${e.actor.type}:${e.actor.id}`;
  const target = e.target ?? (e.attempts === undefined ? "-" : `${e.attempts} attempts`);
  return [e.at, e.action, actor, target, e.ip ?? "-", e.user_agent ?? "-"];
}

export function auditCommand(): Command {
  return new Command("audit")
    .description("show the audit trail, newest first: an account's (--email) or every event, server-wide ones included")
    .option("--email <email>", "only this account's events")
    .option("--since <when>", "only events since this RFC 3339 time or date, or this long ago (7d, 24h)", auditSince)
    .option("--limit <n>", "only the newest n events", eventCount)
    .option("--audit-retention-days <days>", "delete events older than this first (env ICCID_AUDIT_RETENTION_DAYS, default 365)")
    .option("--json", "JSON output, one array")
    .action(async (opts: { email?: string; since?: (now: number) => number; limit?: number; json?: boolean }, command: Command) => {
      const { auditRetentionDays } = resolveSettings(command.optsWithGlobals());
      await withStore(command, async (store) => {
        const accountId = opts.email === undefined ? undefined : (await new Accounts(store, systemClock).byEmail(opts.email)).id;
        const since = opts.since?.(systemClock.now());
        const pages = new AuditTrail(store, systemClock, auditRetentionDays).since({
          ...(accountId === undefined ? {} : { accountId }),
          ...(since === undefined ? {} : { since }),
          ...(opts.limit === undefined ? {} : { limit: opts.limit }),
        });
        if (opts.json) await printJsonPages(pages);
        else await printListingPages(["WHEN", "ACTION", "ACTOR", "TARGET", "FROM", "USER-AGENT"], rowsOf(pages));
      });
    });
}

async function* rowsOf(pages: AsyncIterable<AuditEvent[]>): AsyncGenerator<string[][]> {
  for await (const page of pages) yield page.map(eventRow);
}

/** `--limit`: a whole number of events, 1 or more. */
function eventCount(value: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= 1 && Number.isSafeInteger(n))) throw new UsageError(`--limit must be a whole number of events, 1 or more (got "${value}")`);
  return n;
}
