import { describe, expect, it } from "vitest";
import { normalAddress } from "./client-address.js";

describe("a client's address", () => {
  it.each([
    ["203.0.113.9", "203.0.113.9"],
    ["203.000.113.009", "203.0.113.9"],
    ["::ffff:203.0.113.9", "203.0.113.9"],
    ["[::ffff:203.0.113.9]:1234", "203.0.113.9"],
    ["203.0.113.9:1234", "203.0.113.9"],
    [" 2001:0DB8:0000:0000:0000:0000:0000:0001 ", "2001:db8::1"],
    ["[2001:db8::1]:443", "2001:db8::1"],
    ["fe80::1%eth0", "fe80::1"],
  ])("%j is %s", (entry, address) => expect(normalAddress(entry)).toBe(address));

  it.each(["", "unknown", "203.0.113.256", "0xcb.0.113.9", "1.2.3", "203.0.113.9, 198.51.100.1", "x".repeat(8000), "203.0.113.9\x1b[2J", "\u0085203.0.113.9"])(
    "%j is none",
    (entry) => expect(normalAddress(entry)).toBeUndefined(),
  );
});
