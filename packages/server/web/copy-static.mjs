// The build step tsc cannot do: put the page's HTML and CSS beside its compiled modules in dist/web,
// where the server reads them (and where a published package has them, since dist/ ships).
import { copyFileSync, mkdirSync } from "node:fs";

const from = new URL("./", import.meta.url);
const to = new URL("../dist/web/", import.meta.url);
mkdirSync(to, { recursive: true });
for (const file of ["account.html", "account.css"]) copyFileSync(new URL(file, from), new URL(file, to));
