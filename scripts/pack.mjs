// `npm run pack:all` (`npm run pack:all -- --out DIR`): the four packages as tarballs that install anywhere.
// The rules: core, sdk, cli and server carry one version, or nothing is packed; each is packed by
// `pnpm pack` (its prepack builds what is stale), which writes each workspace: range as the version it
// points at; each tarball is checked to carry that version and to depend on @iccid/* at exactly it. The
// tarballs' paths go to stdout, one a line, dependencies first; how to install them goes to stderr.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { childEnv, ensureInstalled, ensurePnpm, ROOT, say } from "./toolchain.mjs";

export const PACKED = ["core", "sdk", "cli", "server"]; // dependencies before their dependents

const { values } = parseArgs({ options: { out: { type: "string", default: join(ROOT, "packed") } } });
const out = resolve(values.out);

function fail(line) {
  say(`pack: ${line}`);
  process.exit(1);
}

const manifests = PACKED.map((name) => JSON.parse(readFileSync(join(ROOT, "packages", name, "package.json"), "utf8")));
const versions = new Set(manifests.map((manifest) => manifest.version));
if (versions.size !== 1) fail(`the packages must carry one version, and they carry ${manifests.map((m) => `${m.name}@${m.version}`).join(", ")}: set the same "version" in each packages/*/package.json`);
const [version] = versions;

ensureInstalled();
ensurePnpm();
mkdirSync(out, { recursive: true });
const tarballs = [];
for (const [index, name] of PACKED.entries()) {
  const file = join(out, `${manifests[index].name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`);
  rmSync(file, { force: true });
  const pack = spawnSync("pnpm", ["pack", "--pack-destination", out], { cwd: join(ROOT, "packages", name), env: childEnv(), encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (pack.status !== 0) fail(`pnpm pack of ${manifests[index].name} failed (exit ${pack.status}): ${pack.stdout.trim().split("\n").slice(-5).join(" | ")}`);
  if (!existsSync(file)) fail(`pnpm pack of ${manifests[index].name} wrote no ${file}`);
  const packed = JSON.parse(spawnSync("tar", ["-xzOf", file, "package/package.json"], { encoding: "utf8" }).stdout);
  const own = Object.entries({ ...packed.dependencies, ...packed.peerDependencies, ...packed.optionalDependencies }).filter(([dep]) => dep.startsWith("@iccid/"));
  const wrong = own.filter(([, range]) => range !== version);
  if (packed.version !== version || wrong.length) fail(`${file} carries ${packed.name}@${packed.version} with ${wrong.map(([dep, range]) => `${dep}@${range}`).join(", ") || "no wrong range"}; every @iccid/* range must be ${version}`);
  tarballs.push(file);
}

for (const file of tarballs) process.stdout.write(`${file}\n`);
const at = (short) => tarballs.find((file) => file.includes(`iccid-${short}-`));
say(`--- packed @iccid/{${PACKED.join(",")}}@${version} into ${out}. In any folder, with npm:`);
say(`    the SDK:                npm install ${at("core")} ${at("sdk")}`);
say(`    the iccid command:      npm install ${at("core")} ${at("sdk")} ${at("cli")}`);
say(`    the server (iccid-server): npm install ${at("core")} ${at("server")}`);
