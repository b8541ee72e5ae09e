import { describe, expect, it } from "vitest";
import { fileTextOf, unreadableFileText } from "./file-text.js";

const bytes = (...values: number[]) => Uint8Array.from(values);
const utf8 = (text: string) => new TextEncoder().encode(text);

describe("a file's text, from its first block", () => {
  it("is UTF-8 with or without a byte order mark, even with a character cut at the block's end", () => {
    expect(fileTextOf(utf8("iccid\n8944"))).toBe("utf-8");
    expect(fileTextOf(utf8("\uFEFFKunde;ICCID\nMüller;8944"))).toBe("utf-8");
    expect(fileTextOf(utf8("Müller").subarray(0, 2))).toBe("utf-8");
  });

  it("is UTF-16 by its byte order mark, NUL bytes and all", () => {
    expect(fileTextOf(bytes(0xff, 0xfe, 0x4b, 0x00, 0x09, 0x00))).toBe("utf-16le");
  });

  it("is not text with a NUL byte, and text in another encoding with bytes that are not UTF-8", () => {
    expect(fileTextOf(bytes(0x50, 0x4b, 0x03, 0x04, 0x14, 0x00))).toBe("binary");
    expect(fileTextOf(bytes(0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72, 0x3b, 0x38))).toBe("not-utf-8"); // "Müller;8" in Windows-1252
  });

  it("says why a file cannot be read, and nothing for one that can", () => {
    expect(unreadableFileText("sims.xlsx", "binary")).toMatch(/^sims\.xlsx is not a text file/);
    expect(unreadableFileText("export.csv", "not-utf-8")).toBe('export.csv is not UTF-8 text; save it as UTF-8 (in Excel: "CSV UTF-8") and try again');
    expect(unreadableFileText("sims.csv", "utf-8")).toBeUndefined();
    expect(unreadableFileText("sims.txt", "utf-16le")).toBeUndefined();
  });
});
