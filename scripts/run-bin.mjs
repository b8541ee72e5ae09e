// bin/iccid and bin/iccid-server: the repository's built commands with stdout and exit codes untouched
// (no package-manager banner, no ELIFECYCLE line). Anything the toolchain has to do first goes to stderr.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ensureNative } from "./native-module.mjs";
import { ensureBuilt, ensureInstalled, ROOT } from "./toolchain.mjs";

const [pkg, ...args] = process.argv.slice(2);
ensureInstalled();
if (pkg === "server") ensureNative();
ensureBuilt(pkg === "cli" ? ["core", "sdk", "cli"] : ["core", "server"]);
const bin = join(ROOT, "packages", pkg, "dist", "bin.js");
process.argv = [process.argv[0], bin, ...args];
await import(pathToFileURL(bin).href);
