import { describe, expect, it } from "vitest";
import { responseHeaders } from "./response-headers.js";

describe("responseHeaders", () => {
  it("joins a repeated field with \", \" and keeps each Set-Cookie apart", () => {
    const { headers, setCookie } = responseHeaders({
      "content-type": "application/json",
      "x-thing": ["a", "b"],
      "set-cookie": ["s=1; Path=/", "t=2"],
    });
    expect(headers).toEqual({ "content-type": "application/json", "x-thing": "a, b", "set-cookie": "s=1; Path=/, t=2" });
    expect(setCookie).toEqual(["s=1; Path=/", "t=2"]);
  });

  it("keeps a single Set-Cookie, fields named like Object members, and skips absent values", () => {
    const { headers, setCookie } = responseHeaders({ constructor: "c", "set-cookie": ["a=1"], age: undefined });
    expect(headers).toEqual({ constructor: "c", "set-cookie": "a=1" });
    expect(setCookie).toEqual(["a=1"]);
  });
});
