import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const manifest = (path) => JSON.parse(readFileSync(join(ROOT, path), "utf8"));
let checkout;

afterEach(() => rmSync(checkout, { recursive: true, force: true }));

/**
 * This checkout's bin/ and scripts/ beside its installed and built packages, with a pnpm of its own in
 * .tools/ (first on the PATH the toolchain gives its children) that records every call and does nothing else.
 * Answers `iccid(...args)`, which runs its bin/iccid outside CI (where the toolchain always installs), and
 * `calls()`, the pnpm command lines so far.
 */
function checkoutWithRecordingPnpm() {
  checkout = mkdtempSync(join(tmpdir(), "iccid-run-bin-"));
  for (const path of ["bin", "scripts", "package.json", "pnpm-lock.yaml"]) cpSync(join(ROOT, path), join(checkout, path), { recursive: true, preserveTimestamps: true });
  for (const dir of ["packages", "node_modules"]) symlinkSync(join(ROOT, dir), join(checkout, dir));
  const log = join(checkout, "pnpm-calls");
  const pnpm = join(checkout, ".tools", "node_modules", ".bin", "pnpm");
  mkdirSync(dirname(pnpm), { recursive: true });
  const version = manifest("package.json").packageManager.replace(/^pnpm@/, "");
  writeFileSync(pnpm, `#!/bin/sh\necho "$*" >> '${log}'\n[ "$1" = --version ] && echo ${version}\nexit 0\n`);
  chmodSync(pnpm, 0o755);
  const env = { ...process.env };
  delete env.CI;
  return {
    iccid: (...args) => spawnSync(join(checkout, "bin", "iccid"), args, { encoding: "utf8", env }),
    calls: () => (existsSync(log) ? readFileSync(log, "utf8") : ""),
  };
}

it("runs the built iccid without asking pnpm anything when nothing is stale", () => {
  const { iccid, calls } = checkoutWithRecordingPnpm();

  const run = iccid("--version");

  expect(run.stderr).toBe("");
  expect(run.stdout).toBe(`${manifest("packages/cli/package.json").version}\n`);
  expect(run.status).toBe(0);
  expect(calls()).toBe("");
});

it("finds pnpm, then installs, when the lockfile is newer than the install", () => {
  const { iccid, calls } = checkoutWithRecordingPnpm();
  utimesSync(join(checkout, "pnpm-lock.yaml"), new Date(), new Date());

  const run = iccid("--version");

  expect(run.stderr).toBe("--- pnpm install --frozen-lockfile\n");
  expect(run.status).toBe(0);
  expect(calls()).toBe("--version\ninstall --frozen-lockfile\n");
});
