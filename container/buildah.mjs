// buildah as the container test drives it: its own storage (ICCID_BUILDAH_ROOT, else ~/.cache/iccid-lookup/
// buildah), so the test's images and layer cache are neither mixed with others' on the machine nor lost
// between runs; chroot isolation, since no container daemon or user namespaces are needed for it.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const BUILDAH = process.env.ICCID_BUILDAH ?? "/usr/bin/buildah";
export const DEBOOTSTRAP = process.env.ICCID_DEBOOTSTRAP ?? "/usr/sbin/debootstrap";
export const BUILDAH_CACHE = process.env.ICCID_BUILDAH_ROOT ?? join(homedir(), ".cache/iccid-lookup/buildah");

/** The flags every buildah call takes first: where its images live. */
export const STORAGE = ["--root", join(BUILDAH_CACHE, "storage"), "--runroot", join(BUILDAH_CACHE, "run")];

/** Runs a command; its output, or an error naming the command and what it wrote to stderr. */
export function sh(command, args, { stdio = "pipe", check = true, env } = {}) {
  const result = spawnSync(command, args, { encoding: "utf8", stdio, maxBuffer: 256 * 1024 * 1024, ...(env ? { env } : {}) });
  if (result.error) throw new Error(`${command}: ${result.error.message}`);
  if (check && result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited ${result.status ?? result.signal}${result.stderr ? `:\n${result.stderr.slice(-4000)}` : ""}`);
  }
  return stdio === "pipe" ? result.stdout : "";
}

/** `buildah <args>` on the test's storage: {status, stdout, stderr}; throws unless it exits 0 or `check` is false. */
export function buildah(args, { check = true, stdio = "pipe" } = {}) {
  const result = spawnSync(BUILDAH, [...STORAGE, ...args], { encoding: "utf8", stdio, maxBuffer: 256 * 1024 * 1024 });
  if (result.error) throw new Error(`buildah: ${result.error.message}`);
  if (check && result.status !== 0) throw new Error(`buildah ${args.join(" ")} exited ${result.status}:\n${(result.stderr ?? "").slice(-4000)}`);
  return { status: result.status, stdout: result.stdout ?? "", stderr: result.stderr ?? "" };
}

/** Why the container test cannot run here, or undefined when buildah and debootstrap are both installed. */
export function missingTools() {
  const missing = [BUILDAH, DEBOOTSTRAP].filter((path) => !existsSync(path));
  return missing.length ? `no ${missing.join(" or ")} (apt-get install buildah debootstrap)` : undefined;
}
