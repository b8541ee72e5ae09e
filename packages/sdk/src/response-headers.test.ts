import { describe, expect, it } from "vitest";
import { answerHeaders } from "./response-headers.js";

const raw = (...pairs: string[]) => pairs.map((p) => Buffer.from(p, "latin1"));

describe("answerHeaders", () => {
  it("lower-cases names, joins a repeated field with \", \" and keeps each Set-Cookie apart", () => {
    const { headers, setCookie } = answerHeaders(
      raw("Content-Type", "application/json", "X-Thing", "a", "x-thing", "b", "Set-Cookie", "s=1; Path=/", "set-cookie", "t=2"),
    );
    expect(headers).toEqual({ "content-type": "application/json", "x-thing": "a, b", "set-cookie": "s=1; Path=/, t=2" });
    expect(setCookie).toEqual(["s=1; Path=/", "t=2"]);
  });

  it("reads latin1 bytes, string fields from a mock dispatcher, array values, and names like Object members", () => {
    const { headers, setCookie } = answerHeaders([Buffer.from("X-Name", "latin1"), Buffer.from("Caf\xe9", "latin1"), "Constructor", "c", "set-cookie", ["a=1", Buffer.from("b=2")]]);
    expect(headers).toEqual({ "x-name": "Café", constructor: "c", "set-cookie": "a=1, b=2" });
    expect(setCookie).toEqual(["a=1", "b=2"]);
  });
});
