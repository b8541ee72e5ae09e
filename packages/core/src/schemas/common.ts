import { z } from "zod";

/** RFC 3339 UTC timestamp as sent on the wire, e.g. `2026-11-21T04:00:00Z`. */
export const Timestamp = z.iso.datetime({ offset: false }).describe("RFC 3339 UTC timestamp");
