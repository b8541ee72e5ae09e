// What `npm start`, `npm test` and bin/* share: find or fetch pnpm, install when the lockfile or a
// manifest changed (compiling native modules against this Node's headers), build the packages whose
// sources are newer than their dist/. Only Node built-ins here: this runs before anything is installed.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { constants } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { configuredNodedir, nodedirFor } from "./node-headers.mjs";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TOOLS = join(ROOT, ".tools");

/** Our own progress lines: stderr, so that bin/iccid keeps stdout for data. */
export function say(line) {
  process.stderr.write(`${line}\n`);
}

/**
 * What npm's run-script sets about itself (its command, the package and lifecycle, its own paths, version
 * and user agent): none of it is a setting of the user's, and it would tell pnpm it is npm. Every other
 * npm_config_* (the user's own, from the environment or an .npmrc, as npm passes them on) reaches pnpm.
 */
const NPM_OWN = /^npm_(command|execpath|node_execpath|lifecycle_|package_|config_(user_agent|npm_version|node_gyp|local_prefix|global_prefix|prefix|globalconfig|init_module)$)/i;

/** The first `node` on `path`, resolved, or undefined. */
function nodeOnPath(path) {
  for (const dir of (path ?? "").split(delimiter)) {
    const file = join(dir || ".", process.platform === "win32" ? "node.exe" : "node");
    if (existsSync(file)) return realpathSync(file);
  }
  return undefined;
}

/**
 * The environment for our children: npm's own variables dropped, .tools/ first on the PATH, and this
 * Node's folder before the rest when the PATH would find another `node`: pnpm, npm, node-gyp and the tests
 * run on the Node that runs us (`/opt/node-22/bin/node scripts/test.mjs` tests Node 22).
 */
export function childEnv(extra = {}) {
  const env = {};
  for (const [name, value] of Object.entries(process.env)) if (!NPM_OWN.test(name)) env[name] = value;
  const own = nodeOnPath(env.PATH) === realpathSync(process.execPath) ? [] : [dirname(process.execPath)];
  env.PATH = [join(TOOLS, "node_modules", ".bin"), ...own, env.PATH].join(delimiter);
  return { ...env, ...extra };
}

let nodedir;

/**
 * childEnv with npm_config_nodedir set to headers of this Node's ABI (node-headers.mjs), for an install or
 * rebuild that may compile better-sqlite3; said once when the configured nodedir is not used. Exits with
 * the reason when no such headers can be found.
 */
export function buildEnv() {
  if (nodedir === undefined) {
    try {
      const chosen = nodedirFor({ configured: configuredNodedir(childEnv()) });
      if (chosen.note) say(`--- ${chosen.note}`);
      nodedir = chosen.nodedir ?? "";
    } catch (error) {
      say(`--- cannot build native modules: ${error.message}`);
      process.exit(1);
    }
  }
  return nodedir ? childEnv({ npm_config_nodedir: nodedir }) : childEnv();
}

export function run(command, args, { env = childEnv(), quiet = false, cwd = ROOT } = {}) {
  const result = spawnSync(command, args, { cwd, env, stdio: ["inherit", quiet ? "ignore" : process.stderr, "inherit"] });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function must(command, args, options) {
  const status = run(command, args, options);
  if (status !== 0) {
    say(`${command} ${args.join(" ")} failed (exit ${status})`);
    process.exit(status);
  }
}

let pnpmChecked = false;

/**
 * The pnpm of package.json's packageManager: the one on PATH when its major matches, else a private copy in
 * .tools/. Checked once per process, and only when pnpm is about to run: asking it costs a Node start.
 */
export function ensurePnpm() {
  if (pnpmChecked) return;
  pnpmChecked = true;
  const wanted = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).packageManager.replace(/^pnpm@/, "");
  const major = wanted.split(".")[0];
  const found = spawnSync("pnpm", ["--version"], { env: childEnv(), encoding: "utf8", shell: process.platform === "win32" });
  if (found.status === 0 && found.stdout.trim().split(".")[0] === major) return;
  say(`--- installing pnpm ${wanted} into .tools/ (no pnpm ${major} on PATH)`);
  must("npm", ["install", "--prefix", TOOLS, "--no-save", "--no-audit", "--no-fund", "--loglevel=error", `pnpm@${wanted}`]);
}

/** Runs pnpm, found or fetched first, after saying `line`; exits with its status when it fails. */
function pnpm(line, args, options) {
  ensurePnpm();
  say(line);
  must("pnpm", args, options);
}

function mtime(path) {
  return existsSync(path) ? statSync(path).mtimeMs : 0;
}

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) if (entry !== "node_modules" && entry !== "dist") latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

const PACKAGES = ["core", "sdk", "server", "cli"]; // dependency order

/**
 * Installs with the frozen lockfile, which fails when pnpm-lock.yaml is out of step with a package.json.
 * Under CI always; elsewhere when node_modules is missing or older than the lockfile or a manifest.
 */
export function ensureInstalled() {
  const manifests = [join(ROOT, "pnpm-lock.yaml"), join(ROOT, "package.json"), ...PACKAGES.map((p) => join(ROOT, "packages", p, "package.json"))];
  const installed = mtime(join(ROOT, "node_modules", ".modules.yaml"));
  if (!process.env.CI && installed && manifests.every((file) => mtime(file) <= installed)) return;
  pnpm("--- pnpm install --frozen-lockfile", ["install", "--frozen-lockfile"], { env: buildEnv() });
}

/** Builds each package whose src/ (or web/, tsconfig, manifest) is newer than its dist/; the rest stay as they are. */
export function ensureBuilt(packages = PACKAGES) {
  for (const name of PACKAGES.filter((p) => packages.includes(p))) {
    const dir = join(ROOT, "packages", name);
    const built = mtime(join(dir, "dist", "index.js"));
    const sources = Math.max(newest(join(dir, "src")), newest(join(dir, "web")), mtime(join(dir, "package.json")), mtime(join(dir, "tsconfig.build.json")));
    if (built && sources <= built) continue;
    pnpm(`--- building @iccid/${name} (${built ? "sources changed" : "no dist/ yet"})`, ["--silent", "--filter", `@iccid/${name}`, "run", "build"]);
  }
}

/** Runs a command with signals passed on; resolves to its exit status. */
export function relay(child) {
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve(code ?? 128 + (constants.signals[signal] ?? 0))));
}
