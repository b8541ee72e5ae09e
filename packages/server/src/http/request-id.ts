import { randomFillSync } from "node:crypto";

/** A request id a client may choose itself: short, and of characters safe in a log line and a header. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

// Random bytes drawn 4 KB at a time, 16 of them per id.
const entropy = Buffer.alloc(4096);
let drawn = entropy.length;

/** A new request id: `req_` and 128 random bits in hex. */
export function newRequestId(): string {
  if (drawn === entropy.length) {
    randomFillSync(entropy);
    drawn = 0;
  }
  drawn += 16;
  return `req_${entropy.toString("hex", drawn - 16, drawn)}`;
}

/** The id of a request: the client's own X-Request-Id when it is sane, else a new one. */
export function requestIdOf(sent: string): string {
  return SANE_REQUEST_ID.test(sent) ? sent : newRequestId();
}
