import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const manifest = (path) => JSON.parse(readFileSync(join(ROOT, path), "utf8"));
const WANTED_PNPM = manifest("package.json").packageManager.replace(/^pnpm@/, "");
let checkout;

afterEach(() => rmSync(checkout, { recursive: true, force: true }));

/** A shell script at `path` that appends its arguments to `log`, prints `version` when asked for it, and exits `status`. */
function recordingCommand(path, log, version, status = 0) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `#!/bin/sh\necho "$*" >> '${log}'\n[ "$1" = --version ] && echo ${version}\nexit ${status}\n`);
  chmodSync(path, 0o755);
}

/**
 * This checkout's bin/ and scripts/ beside its installed and built packages, with a pnpm of its own in
 * .tools/ (first on the PATH the toolchain gives its children) that records every call and does nothing else;
 * its version is package.json's unless `pnpmVersion` is given. Answers `iccid(...args)`, which runs its
 * bin/iccid outside CI (where the toolchain always installs) with the checkout's `first/` ahead of the PATH,
 * `first`, and `calls()`, the pnpm command lines so far.
 */
function checkoutWithRecordingPnpm({ pnpmVersion } = {}) {
  checkout = mkdtempSync(join(tmpdir(), "iccid-run-bin-"));
  for (const path of ["bin", "scripts", "package.json", "pnpm-lock.yaml"]) cpSync(join(ROOT, path), join(checkout, path), { recursive: true, preserveTimestamps: true });
  for (const dir of ["packages", "node_modules"]) symlinkSync(join(ROOT, dir), join(checkout, dir));
  const log = join(checkout, "pnpm-calls");
  recordingCommand(join(checkout, ".tools", "node_modules", ".bin", "pnpm"), log, pnpmVersion ?? WANTED_PNPM);
  const first = join(checkout, "first");
  const env = { ...process.env, PATH: `${first}${delimiter}${process.env.PATH}` };
  delete env.CI;
  return {
    iccid: (...args) => spawnSync(join(checkout, "bin", "iccid"), args, { encoding: "utf8", env }),
    first,
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

it("says it fetches pnpm before the install that needs it, when the pnpm found is of another major", () => {
  const { iccid, first, calls } = checkoutWithRecordingPnpm({ pnpmVersion: "1.0.0" });
  const npmCalls = join(checkout, "npm-calls");
  recordingCommand(join(first, "npm"), npmCalls, "0.0.0", 1); // npm fails: nothing is fetched
  utimesSync(join(checkout, "pnpm-lock.yaml"), new Date(), new Date());

  const run = iccid("--version");

  const major = WANTED_PNPM.split(".")[0];
  expect(run.stderr.split("\n")[0]).toBe(`--- installing pnpm ${WANTED_PNPM} into .tools/ (no pnpm ${major} on PATH)`);
  expect(run.stderr).not.toContain("--- pnpm install");
  expect(run.status).toBe(1);
  expect(calls()).toBe("--version\n");
  expect(readFileSync(npmCalls, "utf8")).toMatch(new RegExp(`^install --prefix .*pnpm@${WANTED_PNPM.replaceAll(".", "\\.")}\n$`));
});
