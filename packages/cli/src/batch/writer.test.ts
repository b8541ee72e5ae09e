import { PassThrough } from "node:stream";
import { CsvRows, rowOutcome, type BatchAllItem } from "@iccid/sdk";
import { describe, expect, it } from "vitest";
import { csvText } from "../output/csv.js";
import { resultCells } from "../output/lookup-columns.js";
import { TextSink } from "./sink.js";
import { BatchWriter } from "./writer.js";

const result = (over: Record<string, unknown> = {}) =>
  ({
    iccid: "89441000000000000018",
    input: "89441000000000000018",
    valid: true,
    length: 20,
    checks: { format: true, luhn: "valid" },
    check_digit: "8",
    mii: "89",
    calling_code: "44",
    country: { iso2: "GB", name: "United Kingdom" },
    issuer: { prefix: "894410", name: "Vodafone plc", source: "itu-e118", origin: "itu-e118", confidence: "registered" },
    home_network: { mcc: "234", mnc: "15" },
    account_number: "0000000000001",
    warnings: [],
    data_version: "v1",
    ...over,
  }) as never;

const ITEMS: BatchAllItem[] = [
  { index: 0, ok: true, result: result() },
  { index: 1, ok: true, result: result({ valid: false, country: null, issuer: null, calling_code: null, account_number: null, checks: { format: true, luhn: "invalid", expected_check_digit: "7", missing_check_digit: "2" } }) },
  { index: 2, ok: true, result: result({ issuer: { prefix: "8944", name: 'Ümlaut, "Quoted" =Co', source: "custom", registered_name: "=Old, name", origin: "custom", confidence: "registered" }, warnings: [{ code: "hex_digits", message: "m" }, { code: "non_standard_length", message: "m" }] }) },
  { index: 3, ok: false, input: "12AB", error: { code: "invalid_mii", message: "an ICCID starts with 89, not \"12\"" } },
];
const INPUT_ROWS = [["Acme, Inc.", "89441000000000000018"], ["=cmd", "x"], ["Ωmega", "\"q\"", "extra"], ["short"]];

async function written(format: "csv" | "jsonl") {
  const stream = new PassThrough();
  const errStream = new PassThrough();
  let text = "";
  let errText = "";
  stream.on("data", (d: Buffer) => (text += d.toString("utf8")));
  errStream.on("data", (d: Buffer) => (errText += d.toString("utf8")));
  const out = new TextSink(stream, false);
  const errors = new TextSink(errStream, false);
  const writer = new BatchWriter(format, ["customer", "iccid"], out, errors);
  const rows = CsvRows.fromItems(0, ITEMS);
  ITEMS.forEach((item, i) => (format === "csv" ? writer.addCsv(INPUT_ROWS[i]!, rows, i, rowOutcome(item)) : writer.addJson(i + 1, INPUT_ROWS[i]!, item)));
  await writer.flush();
  return { text, errText };
}

describe("the batch writer", () => {
  it("writes each CSV row as csvText would write its cells, byte for byte", async () => {
    const { text, errText } = await written("csv");
    const expected = ITEMS.map((item, i) => {
      const outcome = item.ok ? { input: "", ok: true as const, result: item.result } : { input: item.input, ok: false as const, error: item.error };
      const cells = INPUT_ROWS[i]!;
      return csvText([[cells[0] ?? "", cells[1] ?? "", ...resultCells(outcome)]]);
    });
    expect(text).toBe(expected.join(""));
    expect(errText).toBe(expected[3]);
  });

  it("writes JSONL, one object per row", async () => {
    const { text } = await written("jsonl");
    const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l) as { row: number; input: Record<string, string>; ok: boolean });
    expect(lines.map((l) => [l.row, l.ok])).toEqual([[1, true], [2, true], [3, true], [4, false]]);
    expect(lines[2]!.input).toEqual({ customer: "Ωmega", iccid: '"q"' });
  });
});
