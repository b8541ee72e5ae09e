import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { API_KEY_ALPHABET, API_KEY_PATTERN, formatApiKey, isWellFormedApiKey } from "./api-key.js";

const random22 = fc.string({ unit: fc.constantFrom(...API_KEY_ALPHABET), minLength: 22, maxLength: 22 });

describe("API key format", () => {
  it("formats keys that pass the offline check and the published pattern", () => {
    fc.assert(
      fc.property(random22, (r) => {
        const key = formatApiKey(r);
        expect(key).toHaveLength(34);
        expect(isWellFormedApiKey(key)).toBe(true);
        expect(API_KEY_PATTERN.test(`token=${key};`)).toBe(true);
      }),
    );
  });

  it("catches any single mistyped character", () => {
    fc.assert(
      fc.property(random22, fc.integer({ min: 6, max: 33 }), fc.constantFrom(...API_KEY_ALPHABET), (r, at, ch) => {
        const key = formatApiKey(r);
        fc.pre(key[at] !== ch);
        expect(isWellFormedApiKey(key.slice(0, at) + ch + key.slice(at + 1))).toBe(false);
      }),
    );
  });

  it("rejects other shapes", () => {
    const key = formatApiKey("a".repeat(22));
    for (const bad of ["", key.slice(0, -1), `${key}x`, key.replace("iccid_", "iccid-"), ` ${key}`, key.toUpperCase()]) {
      expect(isWellFormedApiKey(bad)).toBe(false);
    }
    expect(() => formatApiKey("short")).toThrow(TypeError);
  });
});
