import { tsvText } from "@iccid/core/grammar";
import type { AuditEvent } from "@iccid/sdk";
import type { Palette } from "./colour.js";
import { csvText } from "./csv.js";
import type { OutputFormat } from "./format.js";
import { renderTable, type TableLayout } from "./table.js";

const COLUMNS = ["at", "action", "actor", "target", "ip", "user_agent"];
// Too narrow: the User-Agent goes first, then the address and the target; when, what and who stay.
const AUDIT_LAYOUT: TableLayout = { drop: [5, 4, 3], wrap: [5] };

function actor(event: AuditEvent): string {
  return event.actor.id === undefined ? event.actor.type : `${event.actor.type} ${event.actor.id}`;
}

function cells(event: AuditEvent): string[] {
  return [event.at, event.action, actor(event), event.target ?? "", event.ip ?? "", event.user_agent ?? ""];
}

export function renderAudit(events: readonly AuditEvent[], format: OutputFormat, paint: Palette): string {
  switch (format) {
    case "json":
      return JSON.stringify(events, null, 2) + "\n";
    case "csv":
      return csvText([COLUMNS, ...events.map(cells)]);
    case "tsv":
      return tsvText(events.map(cells));
    case "table": {
      if (events.length === 0) return paint.dim("(no events)\n");
      const rows = events.map((e) => [e.at.slice(0, 19).replace("T", " "), e.action, actor(e), e.target ?? "", e.ip ?? "", e.user_agent ?? ""]);
      return renderTable(["When (UTC)", "Action", "Actor", "Target", "From", "User-Agent"], rows, paint, undefined, AUDIT_LAYOUT);
    }
  }
}
