import type { Middleware } from "koa";
import { HttpProblem } from "./problem.js";

/**
 * The two refusals Node would otherwise write itself, bare (no problem body, no request id): an HTTP/1.1
 * request without `Host` (RFC 9112 §3.2; the server is made with `requireHostHeader: false`), and an
 * `Expect` other than `100-continue` (the server's `checkExpectation` requests come here; RFC 9110 §10.1.1
 * lets a server refuse an expectation it cannot meet). Both are answered as `bad_request` problems, and the
 * connection is closed after the answer.
 */
export function protocolRules(): Middleware {
  return (ctx, next) => {
    const req = ctx.req;
    if (req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && req.headers.host === undefined) {
      throw refusal("An HTTP/1.1 request must carry a Host header.");
    }
    const expect = req.headers.expect;
    if (expect !== undefined && expect.toLowerCase() !== "100-continue") {
      throw refusal("Expect: the only expectation this server meets is 100-continue.");
    }
    return next();
  };
}

function refusal(detail: string): HttpProblem {
  return new HttpProblem("bad_request", detail, { headers: { Connection: "close" } });
}
