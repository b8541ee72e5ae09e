import { describe, expect, it } from "vitest";
import { FileTextDecoder, fileTextOf, notUtf8Note, UnreadableFileText, unreadableFileText } from "./file-text.js";

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

  it("gives the decoder of a file that can be read, and refuses one that cannot, saying why", () => {
    expect(FileTextDecoder.of(utf8("\uFEFFiccid\n8944"), "sims.csv").decode(utf8("\n8945"))).toBe("\n8945");
    expect(FileTextDecoder.of(bytes(0xff, 0xfe, 0x4b, 0x00), "sims.txt").decode(bytes(0x4b, 0x00))).toBe("K");
    expect(() => FileTextDecoder.of(bytes(0x4d, 0xfc, 0x6c), "export.csv")).toThrow(new UnreadableFileText(unreadableFileText("export.csv", "not-utf-8")));
    expect(() => FileTextDecoder.of(bytes(0x50, 0x4b, 0x03, 0x00), "sims.xlsx")).toThrow(UnreadableFileText);
  });
});

/** The count of a file's characters that were not UTF-8, read in two blocks cut at `cut`. */
function countCut(file: Uint8Array, cut: number): number {
  const decoder = new FileTextDecoder("utf-8");
  for (const block of [file.subarray(0, cut), file.subarray(cut)]) decoder.decode(block);
  decoder.decode();
  return decoder.notUtf8;
}

describe("the characters past a file's first block that were not UTF-8", () => {
  it("are counted however the blocks cut the file, and a U+FFFD written as UTF-8 is not", () => {
    const file = new Uint8Array([...utf8("Kunde;ICCID\nB\uFFFD;8944\nM"), 0xfc, ...utf8("ller;8944\n\uFFFD\uFFFD"), 0xe2, 0x82]);
    // The 0xFC of "Müller" in Windows-1252, and the cut "€" (E2 82 AC) at the end: two.
    for (let cut = 0; cut <= file.length; cut++) expect(countCut(file, cut)).toBe(2);
    for (let cut = 0; cut <= 20; cut++) expect(countCut(utf8("\uFFFD\uFFFDa\uFFFD;8944\n"), cut)).toBe(0);
    const byteByByte = new FileTextDecoder("utf-8"); // blocks of one byte: a U+FFFD over three of them
    for (const byte of utf8("a\uFFFDb")) byteByByte.decode(Uint8Array.of(byte));
    expect(byteByByte.notUtf8).toBe(0);
  });

  it("are said with the file's name, and how to keep them", () => {
    expect(notUtf8Note("late.csv", 3)).toBe('3 characters of late.csv past its start were not UTF-8 and were read as "\uFFFD"; save it as UTF-8 (in Excel: "CSV UTF-8") to keep them');
    expect(notUtf8Note("late.csv", 1)).toBe('1 character of late.csv past its start was not UTF-8 and was read as "\uFFFD"; save it as UTF-8 (in Excel: "CSV UTF-8") to keep them');
  });
});
