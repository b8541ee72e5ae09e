import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { formatApiKey } from "@iccid/core/grammar";
import { beforeAll, describe, expect, it } from "vitest";
import { iccid, tempDir } from "./harness.js";

// The commands that need no server (validate, the help, the version) start without loading the SDK, whose
// HTTP client and schemas cost more than the rest of the CLI's start-up. Seen through the module loader:
// a resolve hook, preloaded with NODE_OPTIONS, names every such module the built binary asks for.

const SDK_MODULES = /^loaded (@iccid\/sdk|undici|zod)$/m;
let env: Record<string, string>;

beforeAll(() => {
  const dir = tempDir("iccid-loader-");
  writeFileSync(
    join(dir, "hooks.mjs"),
    "export async function resolve(specifier, context, next) {\n" +
      "  if (/^(@iccid\\/sdk|undici|zod)$/.test(specifier)) process.stderr.write(`loaded ${specifier}\\n`);\n" +
      "  return next(specifier, context);\n" +
      "}\n",
  );
  writeFileSync(join(dir, "register.mjs"), 'import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url);\n');
  env = { NODE_OPTIONS: `--import ${pathToFileURL(join(dir, "register.mjs")).href}` };
});

describe("start-up", () => {
  it.each([[["--version"]], [["--help"]], [["batch", "--help"]], [["validate", "89441000000000000018"]]])("iccid %j loads no SDK module", async (args) => {
    const run = await iccid(args, { env });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(SDK_MODULES);
  });

  it("a command that calls the server loads the SDK (the hook sees what it should)", async () => {
    // Port 9 (discard) refuses: the lookup fails, after the SDK is loaded to make the request.
    const run = await iccid(["lookup", "89441000000000000018"], { env: { ...env, ICCID_API_KEY: formatApiKey("A".repeat(22)), ICCID_BASE_URL: "http://127.0.0.1:9", ICCID_TIMEOUT: "2" } });
    expect(run.stderr).toMatch(SDK_MODULES);
  });
});
