import { Command } from "commander";
import type { AuditEvent } from "@iccid/core";
import { Accounts } from "../../services/accounts.js";
import { AuditTrail } from "../../services/audit-trail.js";
import { systemClock } from "../../time.js";
import { auditSince } from "../audit-since.js";
import { printListing } from "../listing.js";
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
    .option("--audit-retention-days <days>", "delete events older than this first (env ICCID_AUDIT_RETENTION_DAYS, default 365)")
    .option("--json", "JSON output, one array")
    .action(async (opts: { email?: string; since?: (now: number) => number; json?: boolean }, command: Command) => {
      const { auditRetentionDays } = resolveSettings(command.optsWithGlobals());
      const events = await withStore(command, async (store) => {
        const accountId = opts.email === undefined ? undefined : (await new Accounts(store, systemClock).byEmail(opts.email)).id;
        const since = opts.since?.(systemClock.now());
        return new AuditTrail(store, systemClock, auditRetentionDays).since({
          ...(accountId === undefined ? {} : { accountId }),
          ...(since === undefined ? {} : { since }),
        });
      });
      if (opts.json) process.stdout.write(`${JSON.stringify(events, null, 2)}\n`);
      else printListing(["WHEN", "ACTION", "ACTOR", "TARGET", "FROM", "USER-AGENT"], events.map(eventRow));
    });
}
