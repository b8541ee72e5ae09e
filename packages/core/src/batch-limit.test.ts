import { describe, expect, it } from "vitest";
import { wireInput } from "./batch-limit.js";
import { parseIccid } from "./parse.js";

describe("wireInput", () => {
  it("sends an ICCID as written up to 64 characters, and its digits past that", () => {
    const digits = "89441000000000000018";
    const spaced = (width: number) => {
      const input = digits.padEnd(width, " ");
      const parsed = parseIccid(input);
      if (!parsed.ok) throw new Error(`${JSON.stringify(input)} did not parse`);
      return wireInput(parsed);
    };
    expect(spaced(64)).toBe(digits.padEnd(64, " "));
    expect(spaced(65)).toBe(digits);
  });
});
