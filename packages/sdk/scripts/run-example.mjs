#!/usr/bin/env node
// Runs a TypeScript example of this repo with plain Node 20 and no build step:
//   node packages/sdk/scripts/run-example.mjs examples/sdk-lookup.ts [args…]
// A loader hook (typescript-hooks.mjs) strips the types and resolves workspace packages to their sources.
import { register } from "node:module";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const file = process.argv[2];
if (!file) {
  console.error("usage: node packages/sdk/scripts/run-example.mjs FILE.ts [args…]");
  process.exit(2);
}
register("./typescript-hooks.mjs", import.meta.url);
process.argv.splice(1, 1); // the example sees its own arguments from argv[2] on, as if run directly
await import(pathToFileURL(resolve(file)).href);
