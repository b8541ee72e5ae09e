#!/usr/bin/env node
// The command's entry in the package manifest. It lives outside dist/ so that a workspace install can
// link it before anything is built; the command itself is the compiled dist/bin.js.
import { existsSync } from "node:fs";

const compiled = new URL("../dist/bin.js", import.meta.url);
if (!existsSync(compiled)) {
  process.stderr.write("iccid-server: not built yet (no dist/bin.js); run `pnpm build` in the repository\n");
  process.exit(1);
}
await import(compiled.href);
