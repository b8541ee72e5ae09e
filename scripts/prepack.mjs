// A package's `prepack` (`pnpm pack`, `npm pack`, publish): build whatever is stale, so a tarball never
// carries an old dist/, and put the repository's LICENSE beside the package's manifest, so the tarball
// carries it (pack takes a LICENSE from the package's own folder only).
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBuilt, ROOT } from "./toolchain.mjs";

ensureBuilt();
copyFileSync(join(ROOT, "LICENSE"), join(process.cwd(), "LICENSE"));
