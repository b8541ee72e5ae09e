import { formatApiKey } from "@iccid/core";
import { describe, expect, it } from "vitest";
import { ConfigFieldError, parseConfig } from "./config-schema.js";

const KEY = formatApiKey("A".repeat(22));

describe("config schema", () => {
  it("accepts the known settings and a session", () => {
    const config = { api_key: KEY, base_url: "https://x.example", session: { cookie: "c", base_url: "https://x.example", email: "a@b.c" } };
    expect(parseConfig(config)).toEqual(config);
    expect(parseConfig({})).toEqual({});
  });

  it("names the field that is wrong", () => {
    const field = (value: unknown) => {
      try {
        parseConfig(value);
      } catch (error) {
        return (error as ConfigFieldError).field;
      }
      return undefined;
    };
    expect(field([])).toBe("(root)");
    expect(field({ api_key: "iccid_short" })).toBe("api_key");
    expect(field({ base_url: "ftp://x" })).toBe("base_url");
    expect(field({ session: { cookie: "", base_url: "http://x" } })).toBe("session.cookie");
    expect(field({ colour: true })).toBe("colour");
  });
});
