// Which of the server's tests drive Chromium: the files here that call launchChromium. The server's vitest
// project leaves them out when there is no Chromium (ICCID_SKIP_BROWSER=1) and scripts/test.mjs names them
// when it says so; both take this list, so a new browser test is neither run without Chromium nor left unsaid.
import { readdirSync, readFileSync } from "node:fs";

const HERE = new URL("./", import.meta.url);

/** The browser tests, as paths from packages/server (`test/e2e/….test.ts`), in name order. */
export const BROWSER_TESTS = readdirSync(HERE)
  .filter((name) => name.endsWith(".test.ts") && readFileSync(new URL(name, HERE), "utf8").includes("launchChromium("))
  .sort()
  .map((name) => `test/e2e/${name}`);
