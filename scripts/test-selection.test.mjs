import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { describeSelection, projectNames, selectionLines } from "./test-selection.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

it("finds the projects of vitest.config.ts by name", () => {
  const names = projectNames(ROOT, { postgres: true });
  for (const name of ["core", "sdk", "server", "cli", "hardening", "packaging", "scripts", "server-postgres", "hardening-postgres"]) expect(names).toContain(name);
  expect(projectNames(ROOT, { postgres: false })).not.toContain("server-postgres");
});

it("says which projects ran and which were not selected, never 'every suite' for a part", () => {
  const names = ["core", "sdk", "server", "cli", "server-postgres"];
  const cli = describeSelection(["--project", "cli"], names);
  expect(cli.everything).toBe(false);
  expect(selectionLines(cli)).toEqual(["--- projects run: cli; not selected: core, sdk, server, server-postgres"]);
  const servers = describeSelection(["--project=server*", "-t", "quota"], names);
  expect(servers.selected).toEqual(["server", "server-postgres"]);
  expect(selectionLines(servers)[1]).toBe("--- only the tests that these arguments select ran: -t quota");
  const all = describeSelection([], names);
  expect(all.everything).toBe(true);
  expect(selectionLines(all)).toEqual([]);
});
