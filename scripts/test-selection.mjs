// What a `npm test -- …` run covers: which vitest projects the arguments select and whether they narrow
// it further, so that the closing line of scripts/test.mjs never says "every suite ran" when not.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The projects of vitest.config.ts, by name: each package's vitest.config.ts (and hardening's and
 * packaging's) names its project with `name: "…"`, and so does every project written in vitest.config.ts
 * itself; of those, the PostgreSQL ones (`…-postgres`) exist only when their services do.
 */
export function projectNames(root, { postgres }) {
  const packages = readdirSync(join(root, "packages")).map((name) => join(root, "packages", name, "vitest.config.ts"));
  const configs = [...packages, join(root, "hardening", "vitest.config.ts"), join(root, "packaging", "vitest.config.ts")];
  const named = configs.filter(existsSync).map((file) => /\bname:\s*"([^"]+)"/.exec(readFileSync(file, "utf8"))?.[1]);
  const inline = [...readFileSync(join(root, "vitest.config.ts"), "utf8").matchAll(/\bname:\s*"([^"]+)"/g)].map((match) => match[1]);
  return [...named.filter(Boolean), ...inline.filter((name) => postgres || !name.endsWith("-postgres"))];
}

/** A --project pattern as vitest reads it: the name, with * matching anything. */
const matcher = (pattern) => new RegExp(`^${pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);

/**
 * Splits vitest's arguments into the --project patterns (`--project x`, `--project=x`) and the rest, and
 * says what the run covers: the projects selected and not, and whether other arguments (test files, -t)
 * may select fewer tests still.
 */
export function describeSelection(args, names) {
  const patterns = [];
  const rest = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--project") patterns.push(args[++i] ?? "");
    else if (args[i].startsWith("--project=")) patterns.push(args[i].slice("--project=".length));
    else rest.push(args[i]);
  }
  const selected = patterns.length === 0 ? names : names.filter((name) => patterns.some((pattern) => matcher(pattern).test(name)));
  const notSelected = names.filter((name) => !selected.includes(name));
  return { selected, notSelected, narrowedBy: rest, everything: notSelected.length === 0 && rest.length === 0 };
}

/** The lines that say what ran, for the end of the run. */
export function selectionLines({ selected, notSelected, narrowedBy }) {
  const lines = [];
  if (notSelected.length > 0) lines.push(`--- projects run: ${selected.join(", ") || "none"}; not selected: ${notSelected.join(", ")}`);
  if (narrowedBy.length > 0) lines.push(`--- only the tests that these arguments select ran: ${narrowedBy.join(" ")}`);
  return lines;
}
