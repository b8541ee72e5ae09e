import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const manifest = (path) => JSON.parse(readFileSync(join(ROOT, path), "utf8"));
let checkout;

afterEach(() => rmSync(checkout, { recursive: true, force: true }));

it("runs the built iccid without asking pnpm anything when nothing is stale", () => {
  // This checkout's bin/ and scripts/ beside its installed and built packages, with a pnpm of its own in
  // .tools/ (first on the PATH the toolchain gives its children) that records every call.
  checkout = mkdtempSync(join(tmpdir(), "iccid-run-bin-"));
  for (const path of ["bin", "scripts", "package.json", "pnpm-lock.yaml"]) cpSync(join(ROOT, path), join(checkout, path), { recursive: true, preserveTimestamps: true });
  for (const dir of ["packages", "node_modules"]) symlinkSync(join(ROOT, dir), join(checkout, dir));
  const calls = join(checkout, "pnpm-calls");
  const pnpm = join(checkout, ".tools", "node_modules", ".bin", "pnpm");
  mkdirSync(dirname(pnpm), { recursive: true });
  writeFileSync(pnpm, `#!/bin/sh\necho "$*" >> '${calls}'\necho ${manifest("package.json").packageManager.replace(/^pnpm@/, "")}\n`);
  chmodSync(pnpm, 0o755);
  const env = { ...process.env };
  delete env.CI; // under CI the toolchain always installs

  const run = spawnSync(join(checkout, "bin", "iccid"), ["--version"], { encoding: "utf8", env });

  expect(run.stderr).toBe("");
  expect(run.stdout).toBe(`${manifest("packages/cli/package.json").version}\n`);
  expect(run.status).toBe(0);
  expect(existsSync(calls) ? readFileSync(calls, "utf8") : "").toBe("");
});
