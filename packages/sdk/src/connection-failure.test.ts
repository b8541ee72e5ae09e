import { describe, expect, it } from "vitest";
import { connectionFailure } from "./connection-failure.js";

const withCode = (code: string) => Object.assign(new Error(`raw ${code}`), { code });

describe("connectionFailure", () => {
  it.each([
    ["ECONNREFUSED", "is the server running"],
    ["ENOTFOUND", "does not resolve (check the base URL or DNS)"],
    ["ECONNRESET", "connection was reset"],
    ["UND_ERR_SOCKET", "closed before a full answer"],
    ["UND_ERR_CONNECT_TIMEOUT", "connecting timed out"],
    ["ERR_SSL_WRONG_VERSION_NUMBER", "https on a plain-http server"],
    ["CERT_HAS_EXPIRED", "certificate has expired"],
  ])("explains %s and names the host", (code, reason) => {
    const error = connectionFailure(withCode(code), "api.example.com:8443");
    expect(error.message).toContain("could not reach api.example.com:8443");
    expect(error.message).toContain(reason);
    expect(error.errno).toBe(code);
    expect(error.host).toBe("api.example.com:8443");
  });

  it("finds the code inside a happy-eyeballs AggregateError and in a cause", () => {
    const aggregate = new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")], "");
    expect(connectionFailure(aggregate, "localhost:1").errno).toBe("ECONNREFUSED");
    const wrapped = new TypeError("fetch failed", { cause: withCode("ENOTFOUND") });
    expect(connectionFailure(wrapped, "x:1").message).toContain("does not resolve");
  });

  it("keeps the original message when the code is unknown", () => {
    expect(connectionFailure(new Error("something odd"), "h:1").message).toBe("could not reach h:1: something odd");
  });
});
