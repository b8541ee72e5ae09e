// Marks a package's dist/cjs as CommonJS (the package itself is "type": "module"), so that Node loads the
// .js files there with require and TypeScript reads the .d.ts files there as CommonJS declarations.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

writeFileSync(join(process.argv[2] ?? "dist/cjs", "package.json"), '{ "type": "commonjs" }\n');
