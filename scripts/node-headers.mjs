// Which Node headers a native module (better-sqlite3) is compiled against. node-gyp takes them from npm's
// `nodedir` setting (npm_config_nodedir, or nodedir= in an .npmrc); headers of another Node build a module
// that this Node refuses to load (NODE_MODULE_VERSION 115 … requires 127), so a nodedir is used only when
// its headers are of this Node's ABI, and this Node's own headers (its install prefix's include/node, as
// Node's own packages ship them) stand in for a nodedir of another ABI. Only Node built-ins here.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The NODE_MODULE_VERSION of the headers in `dir` (dir/include/node/node_version.h), or undefined when it has none. */
export function headersAbi(dir) {
  const file = join(dir, "include", "node", "node_version.h");
  if (!existsSync(file)) return undefined;
  return /#define NODE_MODULE_VERSION (\d+)/.exec(readFileSync(file, "utf8"))?.[1];
}

/** The install prefix of the Node at `execPath` when it ships its headers (prefix/include/node) of `abi`. */
export function ownNodedir(execPath = process.execPath, abi = process.versions.modules) {
  const prefix = dirname(dirname(execPath));
  return headersAbi(prefix) === abi ? prefix : undefined;
}

/** The nodedir npm would give node-gyp: npm_config_nodedir, else `npm config get nodedir` (an .npmrc's); undefined when none is set. */
export function configuredNodedir(env = process.env) {
  const name = Object.keys(env).find((key) => key.toLowerCase() === "npm_config_nodedir");
  if (name) return env[name] || undefined;
  const npm = spawnSync("npm", ["config", "get", "nodedir"], { env, encoding: "utf8", shell: process.platform === "win32" });
  const value = npm.status === 0 ? npm.stdout.trim() : "";
  return value && value !== "undefined" && value !== "null" ? value : undefined;
}

/**
 * The nodedir that native builds for the Node at `execPath` (of ABI `abi`) must use, and why: the
 * configured one when its headers are of that ABI, else that Node's own; `nodedir` undefined when neither
 * is set nor shipped (node-gyp then fetches the headers itself). `configured` (default: configuredNodedir())
 * undefined means none is set. Throws, with the reason, when the
 * configured nodedir is of another ABI and that Node ships no headers of its own.
 */
export function nodedirFor(options = {}) {
  const { execPath = process.execPath, abi = process.versions.modules, version = process.version } = options;
  const configured = "configured" in options ? options.configured : configuredNodedir();
  const own = ownNodedir(execPath, abi);
  if (configured) {
    const found = headersAbi(configured);
    if (found === abi) return { nodedir: configured };
    const what = found ? `the headers of another Node (NODE_MODULE_VERSION ${found})` : "no Node headers (include/node/node_version.h)";
    if (own) return { nodedir: own, note: `nodedir ${configured} holds ${what}; building for Node ${version} (${abi}) with its own headers in ${own}` };
    throw new Error(
      `nodedir ${configured} holds ${what}, and Node ${version} at ${execPath} (NODE_MODULE_VERSION ${abi}) ships none beside it: ` +
        "set npm_config_nodedir to the install folder of this Node (the one holding include/node), or unset nodedir so that node-gyp fetches the headers",
    );
  }
  return { nodedir: own };
}
