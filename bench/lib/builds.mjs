// The builds a run measures: the head (the checkout the bench runs from, which must be built already) and,
// with --base REF, REF installed and built in a temporary git worktree that is removed at the end, also
// when the run fails or is interrupted. A build is measured only through what it ships: the server's
// binary, the SDK's and the CLI's dist.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { undoOnInterrupt } from "./interrupt.mjs";
import { runCommand } from "./processes.mjs";

const HEAD_ROOT = fileURLToPath(new URL("../..", import.meta.url));

const git = (...args) => execFileSync("git", ["-C", HEAD_ROOT, ...args], { encoding: "utf8" }).trim();

function build(name, root, sha) {
  const files = {
    server: join(root, "packages/server/dist/bin.js"),
    sdk: join(root, "packages/sdk/dist/index.js"),
    cli: join(root, "packages/cli/dist/bin.js"),
  };
  const missing = Object.values(files).filter((file) => !existsSync(file));
  if (missing.length) throw new Error(`${name} is not built (no ${missing.join(", ")}): run pnpm build in ${root}`);
  return { name, root, sha, ...files };
}

/** The checkout the bench runs from, as built now (its sha, marked when the tree has changes). */
export function headBuild() {
  const dirty = git("status", "--porcelain", "--untracked-files=no") !== "";
  return build("head", HEAD_ROOT, `${git("rev-parse", "--short", "HEAD")}${dirty ? "+changes" : ""}`);
}

async function step(dir, what, cmd, args) {
  const run = await runCommand(cmd, args, { cwd: dir });
  if (run.code !== 0) throw new Error(`base: ${what} failed (${run.code}):\n${(run.stdout + run.stderr).slice(-2000)}`);
}

/**
 * `ref` (any commit-ish) checked out in a temporary worktree, installed (offline from the store when it can)
 * and built; `remove()` takes the worktree away again.
 */
export async function baseBuild(ref) {
  const sha = git("rev-parse", "--verify", "--short", `${ref}^{commit}`);
  const dir = mkdtempSync(join(tmpdir(), "iccid-bench-base-"));
  let removed = false;
  const remove = async () => {
    if (removed) return;
    removed = true;
    await runCommand("git", ["-C", HEAD_ROOT, "worktree", "remove", "--force", dir]);
    rmSync(dir, { recursive: true, force: true });
  };
  const forget = undoOnInterrupt(remove);
  try {
    await step(dir, "git worktree add", "git", ["-C", HEAD_ROOT, "worktree", "add", "--detach", dir, sha]);
    process.stderr.write(`bench: base ${ref} (${sha}) in ${dir}: install…`);
    const offline = await runCommand("pnpm", ["install", "--frozen-lockfile", "--offline"], { cwd: dir });
    if (offline.code !== 0) await step(dir, "pnpm install", "pnpm", ["install", "--frozen-lockfile"]);
    process.stderr.write(" build…");
    await step(dir, "pnpm build", "pnpm", ["build"]);
    process.stderr.write(" done\n");
    return {
      ...build("base", dir, sha),
      async remove() {
        await remove();
        forget();
      },
    };
  } catch (error) {
    await remove();
    forget();
    throw error;
  }
}
