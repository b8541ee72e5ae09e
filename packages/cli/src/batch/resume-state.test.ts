import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CsvRows } from "@iccid/sdk";
import { describe, expect, it } from "vitest";
import { readResumeState, resumeStatePath, writeResumeState } from "./resume-state.js";

const out = () => join(mkdtempSync(join(tmpdir(), "iccid-state-")), "out.csv");

describe("the resume state beside the output", () => {
  it("keeps CSV answers whole, in input order, and goes away when nothing is left", async () => {
    const path = out();
    const rows = CsvRows.fromTexts(0, ["89441000000000000018,true,valid", "x,false,,\"a, b\""], ["valid", "failed"]);
    await writeResumeState(path, [
      { start: 9, iccids: ["c"], answers: { kind: "csv", rows: CsvRows.fromTexts(9, ["c-row"], ["invalid"]) } },
      { start: 3, iccids: ["a", "b"], answers: { kind: "csv", rows } },
    ]);
    const [first, second] = await readResumeState(path, "csv");
    expect(first!.start).toBe(3);
    expect(first!.iccids).toEqual(["a", "b"]);
    const back = first!.answers.kind === "csv" ? first!.answers.rows : undefined;
    expect([back!.text(0), back!.text(1), back!.outcome(1)]).toEqual(["89441000000000000018,true,valid", 'x,false,,"a, b"', "failed"]);
    expect(second!.start).toBe(9);

    await writeResumeState(path, []);
    expect(existsSync(resumeStatePath(path))).toBe(false);
    expect(await readResumeState(path, "csv")).toEqual([]);
  });

  it("names the file when it is damaged or of the other format", async () => {
    const path = out();
    await writeResumeState(path, [{ start: 0, iccids: ["a"], answers: { kind: "jsonl", items: [{ index: 0, ok: false, input: "a", error: { code: "invalid_mii", message: "m" } }] } }]);
    await expect(readResumeState(path, "csv")).rejects.toThrow(/out\.csv\.resume\.jsonl holds jsonl answers; resume with --format jsonl/);
    writeFileSync(resumeStatePath(path), '{"format":"csv","start":0,"iccids":["a"]\n');
    await expect(readResumeState(path, "csv")).rejects.toThrow(/out\.csv\.resume\.jsonl is damaged .*delete it/);
  });
});
