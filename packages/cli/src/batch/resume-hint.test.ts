import { expect, it } from "vitest";
import { resumeCommand, resumeKeyNote } from "./resume-hint.js";

it("repeats the user's arguments with --resume, quoted for a shell", () => {
  expect(resumeCommand(["batch", "my sims.csv", "--out", "out.csv"])).toBe("iccid batch 'my sims.csv' --out out.csv --resume");
  expect(resumeCommand(["batch", "a.csv", "--out", "o.csv", "--resume"])).toBe("iccid batch a.csv --out o.csv --resume");
  expect(resumeCommand(["batch", "it's.csv"])).toBe(`iccid batch 'it'\\''s.csv' --resume`);
});

it("never prints the API key, and says to pass the same one", () => {
  const key = "iccid_FC9VQ8L2XK7M3N4P5R6S7T8V9W0Y";
  for (const args of [["--api-key", key, "batch", "a.csv", "--out", "o.csv"], ["batch", "a.csv", `--api-key=${key}`, "--out", "o.csv"]]) {
    expect(resumeCommand(args)).toBe("iccid batch a.csv --out o.csv --resume");
    expect(resumeKeyNote(args)).toBe("Pass the same API key again (--api-key or ICCID_API_KEY); it is not shown here.");
  }
  expect(resumeKeyNote(["batch", "a.csv", "--out", "o.csv"])).toBeUndefined();
});
