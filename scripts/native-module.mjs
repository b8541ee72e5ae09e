// better-sqlite3, the one native module, built for the Node that runs us. The rules:
// - node_modules/.iccid-native.json remembers the NODE_MODULE_VERSION (process.versions.modules) the
//   installed build was made for, with the build file's size, time and inode; while they all still hold,
//   a start checks nothing more (one stat).
// - Otherwise (another Node, a new install, no record) the build is loaded in a child of this Node; one
//   that loads is recorded as it is. One that does not is replaced, saying why: by the build for this ABI
//   kept in .tools/native/ from an earlier rebuild, else by `pnpm rebuild` against this Node's headers
//   (see node-headers.mjs), which is then kept there. pnpm's cache of built packages is bypassed for that
//   rebuild: it can hold a build made with another Node's headers, which a fresh install brings back.
// - The build file is never written in place: pnpm hard-links it into its store and other checkouts.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildEnv, ensurePnpm, ROOT, say } from "./toolchain.mjs";

const RECORD = join(ROOT, "node_modules", ".iccid-native.json");
const KEPT = join(ROOT, ".tools", "native");

/** better-sqlite3 as the server resolves it: its folder, version and build file; undefined when not installed. */
export function locate(root = ROOT) {
  let entry;
  try {
    entry = createRequire(join(root, "packages", "server", "package.json")).resolve("better-sqlite3");
  } catch {
    return undefined;
  }
  const dir = dirname(dirname(entry)); // …/better-sqlite3/lib/index.js
  const { name, version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  return { name, version, dir, file: join(dir, "build", "Release", "better_sqlite3.node") };
}

function fingerprint(file) {
  if (!existsSync(file)) return undefined;
  const { size, mtimeMs, ino } = statSync(file);
  return { size, mtimeMs: Math.round(mtimeMs), ino };
}

function recorded(name) {
  try {
    return JSON.parse(readFileSync(RECORD, "utf8"))[name];
  } catch {
    return undefined;
  }
}

function record(module) {
  const entry = { abi: process.versions.modules, node: process.version, ...fingerprint(module.file) };
  writeFileSync(RECORD, `${JSON.stringify({ [module.name]: entry }, null, 2)}\n`);
}

/**
 * Loads the build file in a child of this Node: `{ ok: true }`, or `{ ok: false, abi, reason }` with the
 * NODE_MODULE_VERSION it was built for when that is why it failed; `reason` reads after "the build".
 */
export function probe(file, execPath = process.execPath) {
  if (!existsSync(file)) return { ok: false, reason: `is missing (no ${file})` };
  const child = spawnSync(execPath, ["-e", `require(${JSON.stringify(file)})`], { encoding: "utf8" });
  if (child.status === 0) return { ok: true };
  const abi = /NODE_MODULE_VERSION (\d+)\. This version/.exec(child.stderr)?.[1];
  if (abi) return { ok: false, abi, reason: `is built for NODE_MODULE_VERSION ${abi}` };
  const line = child.stderr.split("\n").find((l) => /Error/.test(l)) ?? `exit ${child.status}`;
  return { ok: false, reason: `cannot be loaded (${line.replace(/^\w*Error: /, "").replace(`${file}: `, "")})` };
}

const keptFile = (module, abi) => join(KEPT, `${module.name}@${module.version}-${process.platform}-${process.arch}-abi${abi}.node`);

/** Puts `source` where the build file is as a file of its own (never through the store's hard link). */
function replace(module, source) {
  rmSync(module.file, { force: true });
  copyFileSync(source, module.file);
}

/** Makes sure the installed better-sqlite3 loads in this Node, rebuilding it (saying so) when it does not; exits when it cannot. */
export function ensureNative() {
  const module = locate();
  if (!module) return;
  const abi = process.versions.modules;
  const known = recorded(module.name);
  const now = fingerprint(module.file);
  const same = Boolean(known && now && ["size", "mtimeMs", "ino"].every((key) => known[key] === now[key]));
  if (same && known.abi === abi) return;
  const found = probe(module.file);
  if (found.ok) return record(module);

  const was = same ? `was built for Node ${known.node} (NODE_MODULE_VERSION ${known.abi})` : `as installed ${found.reason}`;
  const cause = !same && found.abi ? " (pnpm's cache of built packages can hold a build made with another Node's headers)" : "";
  const kept = keptFile(module, abi);
  if (existsSync(kept)) {
    say(`--- ${module.name} ${was}${cause}; this is Node ${process.version} (${abi}): using its build for ${abi} kept in .tools/native/`);
    replace(module, kept);
    if (probe(module.file).ok) return record(module);
    rmSync(kept, { force: true });
  }
  say(`--- ${module.name} ${was}${cause}; this is Node ${process.version} (${abi}): rebuilding it (a minute or two)`);
  ensurePnpm();
  const rebuild = spawnSync("pnpm", ["rebuild", module.name, "--config.side-effects-cache=false"], { cwd: ROOT, env: buildEnv(), encoding: "utf8" });
  const after = probe(module.file);
  if (rebuild.status !== 0 || !after.ok) {
    const output = `${rebuild.stdout ?? ""}${rebuild.stderr ?? ""}`.trim().split("\n").slice(-30).join("\n");
    say(`${output}\n--- rebuilding ${module.name} for Node ${process.version} (${abi}) failed (pnpm exit ${rebuild.status}${after.ok ? "" : `; the build ${after.reason}`})`);
    process.exit(1);
  }
  mkdirSync(KEPT, { recursive: true });
  rmSync(kept, { force: true });
  copyFileSync(module.file, kept);
  record(module);
}

// `node scripts/native-module.mjs`: the check (and rebuild) for the Node that runs it, as the matrix does.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) ensureNative();
