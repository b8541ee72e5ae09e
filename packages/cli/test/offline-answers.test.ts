import { describe, expect, it } from "vitest";
import { iccid, serverEnv } from "./harness.js";

// Inputs that are all malformed are answered offline: the server is not asked and no API key is looked
// for, so they are reported (exit 3) on a machine with no key and no config at all.

/** No API key anywhere: an empty config directory, and a server that is not there. */
const noKeyEnv = () => serverEnv("http://127.0.0.1:9");

describe("malformed inputs without an API key", () => {
  it("iccid eid 1234: the failed row, exit 3, no complaint about the key", async () => {
    const run = await iccid(["eid", "1234"], { env: noKeyEnv() });
    expect(run.stderr).not.toMatch(/API key/);
    expect(run.stdout.trimEnd().split("\t")).toEqual(["1234", "", "", "", "", "", "", "", "", "", "", "", "too_short", expect.any(String)]);
    expect(run.code).toBe(3);
  });

  it("iccid lookup 12AB: the failed row, exit 3, no complaint about the key", async () => {
    const run = await iccid(["lookup", "12AB", "--json"], { env: noKeyEnv() });
    expect(run.stderr).not.toMatch(/API key/);
    expect(JSON.parse(run.stdout)).toEqual({ input: "12AB", error: { code: "invalid_mii", message: expect.any(String) } });
    expect(run.code).toBe(3);
  });
});
