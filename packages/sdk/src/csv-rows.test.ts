import { csvLine, LOOKUP_ROW_COLUMNS, lookupRowCsv, type BatchItem, type LookupResult } from "@iccid/core";
import { describe, expect, it } from "vitest";
import { CsvRows, csvRowsOf } from "./csv-rows.js";
import { ResponseValidationError } from "./errors.js";
import { full } from "../test/lookup-answers.js";

const CALL = { method: "POST", path: "/iccid/batch" };
const HEADER = csvLine(LOOKUP_ROW_COLUMNS);

// The contract's fullest answer (test/lookup-answers.ts), made valid, varied per item below.
const result = (over: Partial<LookupResult> = {}): LookupResult => ({ ...(full() as LookupResult), valid: true, checks: { format: true, luhn: "valid" }, ...over });

const failed = (index: number, input: string): BatchItem => ({ index, ok: false, input, error: { code: "invalid_mii", message: `"${input}", not 89,\nsee docs` } });
const ITEMS: BatchItem[] = [
  { index: 0, ok: true, result: result() },
  { index: 1, ok: true, result: result({ valid: false, checks: { format: true, luhn: "invalid", expected_check_digit: "7" } }) },
  { index: 2, ok: true, result: result({ issuer: { prefix: "8944", name: 'Ümlaut, "Quoted"\nCo', source: "custom", origin: "custom", confidence: "registered", country: null } }) },
  failed(3, "=12,AB"),
  { index: 4, ok: true, result: result({ valid: false, checks: { format: true, luhn: "not_applicable" } }) },
];

const csvAnswer = (body: string, contentType = "text/csv; charset=utf-8; header=present") => ({ status: 200, headers: { "content-type": contentType }, body: Buffer.from(body) });
const rowsOf = (items: readonly BatchItem[]) => items.map((item) => lookupRowCsv(item) + "\n").join("");
const texts = (rows: CsvRows) => Array.from({ length: rows.length }, (_, i) => rows.text(i));
const outcomes = (rows: CsvRows) => Array.from({ length: rows.length }, (_, i) => rows.outcome(i));
const everyOffset = (n: number) => Array.from({ length: n }, (_, i) => i);

describe("the CSV batch answer's rows", () => {
  it("finds every row and its outcome, quoted cells with commas, quotes and line breaks included", () => {
    const rows = csvRowsOf(CALL, 5000, new Array(5), everyOffset(5), csvAnswer(HEADER + rowsOf(ITEMS)));
    expect(rows.start).toBe(5000);
    expect(texts(rows)).toEqual(ITEMS.map(lookupRowCsv));
    expect(outcomes(rows)).toEqual(["valid", "invalid", "valid", "failed", "invalid"]);
    expect(rows.ok).toBe(4);
    expect(rows.row(1).toString()).toBe(lookupRowCsv(ITEMS[1]!));
  });

  it("puts the rows of items refused before sending in their places, after the answer's bytes", () => {
    const items: (BatchItem | undefined)[] = [failed(0, "x"), undefined, undefined, failed(3, "=y"), undefined];
    const answered = [ITEMS[0]!, ITEMS[1]!, ITEMS[4]!];
    const rows = csvRowsOf(CALL, 0, items, [1, 2, 4], csvAnswer(HEADER + rowsOf(answered)));
    expect(texts(rows)).toEqual([lookupRowCsv(items[0]!), ...answered.slice(0, 2).map(lookupRowCsv), lookupRowCsv(items[3]!), lookupRowCsv(answered[2]!)]);
    expect(outcomes(rows)).toEqual(["failed", "valid", "invalid", "failed", "invalid"]);
  });

  it("cuts off the columns a newer server adds after the last it knows", () => {
    const body = HEADER.replace("\n", ",new_column,another\n") + ITEMS.map((item) => `${lookupRowCsv(item)},"1,\n""2""",x\n`).join("");
    const rows = csvRowsOf(CALL, 0, new Array(5), everyOffset(5), csvAnswer(body));
    expect(texts(rows)).toEqual(ITEMS.map(lookupRowCsv));
    expect(outcomes(rows)).toEqual(["valid", "invalid", "valid", "failed", "invalid"]);
  });

  it("writes decoded items as the same rows (what a JSON answer from an older server becomes)", () => {
    const rows = CsvRows.fromItems(7, ITEMS);
    expect(rows.start).toBe(7);
    expect(texts(rows)).toEqual(ITEMS.map(lookupRowCsv));
    expect(outcomes(rows)).toEqual(["valid", "invalid", "valid", "failed", "invalid"]);
  });

  it("refuses an answer off the contract: another type, another header, too few or too many rows", () => {
    const refused = (body: string, contentType?: string, sent = 5) => {
      try {
        csvRowsOf(CALL, 0, new Array(sent), everyOffset(sent), csvAnswer(body, contentType));
      } catch (error) {
        expect(error).toBeInstanceOf(ResponseValidationError);
        return (error as ResponseValidationError).message;
      }
      throw new Error("accepted");
    };
    expect(refused(HEADER + rowsOf(ITEMS), "text/html")).toMatch(/POST \/api\/v1\/iccid\/batch.*expected text\/csv/s);
    expect(refused("iccid,valid\n" + rowsOf(ITEMS))).toMatch(/expected the columns iccid,valid,luhn/);
    expect(refused(HEADER.replace(",missing_check_digit", ",missing") + rowsOf(ITEMS))).toMatch(/expected the columns/);
    expect(refused(HEADER + rowsOf(ITEMS.slice(0, 4)))).toMatch(/expected 5 rows, got 4/);
    expect(refused(HEADER + rowsOf(ITEMS), undefined, 4)).toMatch(/expected 4 rows, got more/);
  });
});
