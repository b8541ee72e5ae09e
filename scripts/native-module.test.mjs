import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, expect, it, vi } from "vitest";
import { locate } from "./native-module.mjs";
import { fetchNode } from "./node-fetch.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const WANTED_PNPM = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).packageManager.replace(/^pnpm@/, "");
const real = locate(ROOT); // this checkout's better-sqlite3, built for the Node running the tests (npm test sees to it)
let node22;
let checkout;
vi.setConfig({ testTimeout: 60_000 }); // each test starts Node a few times, on a busy machine

beforeAll(() => {
  node22 = fetchNode(22);
}, 300_000);
afterEach(() => rmSync(checkout, { recursive: true, force: true }));

/**
 * A checkout of its own: scripts/ and package.json copied, a packages/server that resolves a copy of the
 * real better-sqlite3 (manifest, lib/ and the build file), and in .tools/ a pnpm that records its calls
 * (with the nodedir it was given) and builds nothing. Answers `check(execPath)`, which runs
 * scripts/native-module.mjs there on that Node, and its paths.
 */
function checkoutWithModule() {
  checkout = mkdtempSync(join(tmpdir(), "iccid-native-"));
  for (const path of ["scripts", "package.json"]) cpSync(join(ROOT, path), join(checkout, path), { recursive: true });
  mkdirSync(join(checkout, "packages", "server"), { recursive: true });
  writeFileSync(join(checkout, "packages", "server", "package.json"), '{ "name": "server", "private": true }\n');
  const dir = join(checkout, "node_modules", "better-sqlite3");
  cpSync(join(real.dir, "lib"), join(dir, "lib"), { recursive: true });
  copyFileSync(join(real.dir, "package.json"), join(dir, "package.json"));
  mkdirSync(join(dir, "build", "Release"), { recursive: true });
  const file = join(dir, "build", "Release", "better_sqlite3.node");
  copyFileSync(real.file, file);
  const log = join(checkout, "pnpm-calls");
  const pnpm = join(checkout, ".tools", "node_modules", ".bin", "pnpm");
  mkdirSync(join(pnpm, ".."), { recursive: true });
  writeFileSync(pnpm, `#!/bin/sh\n[ "$1" = --version ] && echo ${WANTED_PNPM} && exit 0\necho "$* nodedir=$npm_config_nodedir" >> '${log}'\n`);
  chmodSync(pnpm, 0o755);
  const record = join(checkout, "node_modules", ".iccid-native.json");
  const check = (execPath) => spawnSync(execPath, [join(checkout, "scripts", "native-module.mjs")], { encoding: "utf8" });
  return { check, file, record, calls: () => (existsSync(log) ? readFileSync(log, "utf8") : "") };
}

it("records the ABI of a build that loads, and while the build file is the one recorded checks nothing more", () => {
  const { check, file, record, calls } = checkoutWithModule();

  const first = check(process.execPath);

  expect(first.stderr).toBe("");
  expect(first.status).toBe(0);
  expect(JSON.parse(readFileSync(record, "utf8"))["better-sqlite3"]).toMatchObject({ abi: process.versions.modules, node: process.version });
  // The same file (size, time, inode) with unloadable bytes: no probe, so nothing is found wrong.
  const { size, atime, mtime } = statSync(file);
  writeFileSync(file, Buffer.alloc(size));
  utimesSync(file, atime, mtime);
  const second = check(process.execPath);
  expect(second.stderr).toBe("");
  expect(second.status).toBe(0);
  expect(calls()).toBe("");
});

it("after a switch of Node says what it was built for and rebuilds it against the new Node's own headers, with pnpm's cache bypassed", () => {
  const { check, calls } = checkoutWithModule();
  expect(check(process.execPath).status).toBe(0);

  const run = check(node22.bin);

  expect(run.stderr).toContain(`--- better-sqlite3 was built for Node ${process.version} (NODE_MODULE_VERSION ${process.versions.modules}); this is Node v${node22.version} (${node22.abi}): rebuilding it`);
  expect(calls()).toBe(`rebuild better-sqlite3 --config.side-effects-cache=false nodedir=${node22.dir}\n`);
  // This pnpm built nothing: the build still is the old Node's, and that is the reason given.
  expect(run.stderr).toContain(`--- rebuilding better-sqlite3 for Node v${node22.version} (${node22.abi}) failed (pnpm exit 0; the build is built for NODE_MODULE_VERSION ${process.versions.modules})`);
  expect(run.status).toBe(1);
});

it("names pnpm's cache when a fresh install brings a build for another Node", () => {
  const { check } = checkoutWithModule(); // no record: as a new install leaves it

  const run = check(node22.bin);

  expect(run.stderr).toContain(`--- better-sqlite3 as installed is built for NODE_MODULE_VERSION ${process.versions.modules} (pnpm's cache of built packages can hold a build made with another Node's headers); this is Node v${node22.version} (${node22.abi}): rebuilding it`);
  expect(run.status).toBe(1);
});

it("puts back the build kept for this Node's ABI instead of rebuilding, never writing through the installed file", () => {
  const { check, file, record, calls } = checkoutWithModule();
  const kept = join(checkout, ".tools", "native", `better-sqlite3@${real.version}-${process.platform}-${process.arch}-abi${process.versions.modules}.node`);
  mkdirSync(join(kept, ".."), { recursive: true });
  copyFileSync(file, kept);
  writeFileSync(file, "not a shared object"); // the installed build does not load: "file too short"
  const store = join(checkout, "store-link");
  linkSync(file, store); // as pnpm's store holds it

  const run = check(process.execPath);

  expect(run.stderr).toMatch(/^--- better-sqlite3 as installed cannot be loaded \(file too short\); this is Node v\S+ \(\d+\): using its build for \d+ kept in \.tools\/native\/\n$/);
  expect(run.status).toBe(0);
  expect(calls()).toBe("");
  expect(readFileSync(store, "utf8")).toBe("not a shared object");
  expect(readFileSync(file)).toEqual(readFileSync(kept));
  expect(JSON.parse(readFileSync(record, "utf8"))["better-sqlite3"].abi).toBe(process.versions.modules);
});
