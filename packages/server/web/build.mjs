// Builds the account page into dist/web, where the server reads it (and where a published package has it,
// since dist/ ships): its two entry modules bundled by esbuild, the page's and the upload worker's, each
// with the parts of @iccid/core it uses (the CSV reader, the column rule, the lookup row), so the browser
// reads a file and writes a row with the same code as `iccid batch`; then its HTML and CSS beside them.
// `tsc -p web/tsconfig.json` type-checks the same sources first.
import { copyFileSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const from = new URL("./", import.meta.url);
const to = new URL("../dist/web/", import.meta.url);
mkdirSync(to, { recursive: true });
await build({
  entryPoints: ["main.ts", "upload-worker.ts"].map((name) => fileURLToPath(new URL(`src/${name}`, from))),
  outdir: fileURLToPath(to),
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  charset: "utf8",
  logLevel: "warning",
});
for (const file of ["account.html", "account.css"]) copyFileSync(new URL(file, from), new URL(file, to));
