import { expect, it } from "vitest";
import { resumeCommand } from "./resume-hint.js";

it("repeats the user's arguments with --resume, quoted for a shell", () => {
  expect(resumeCommand(["batch", "my sims.csv", "--out", "out.csv"])).toBe("iccid batch 'my sims.csv' --out out.csv --resume");
  expect(resumeCommand(["batch", "a.csv", "--out", "o.csv", "--resume"])).toBe("iccid batch a.csv --out o.csv --resume");
  expect(resumeCommand(["batch", "it's.csv"])).toBe(`iccid batch 'it'\\''s.csv' --resume`);
});
