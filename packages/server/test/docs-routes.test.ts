import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ROUTE_TABLE } from "../src/routes/table.js";

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");

// The section of a Markdown file from a heading to the next heading of the same level.
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const level = heading.slice(0, heading.indexOf(" ") + 1);
  const end = markdown.indexOf(`\n${level}`, start + heading.length + 2);
  return markdown.slice(start, end === -1 ? undefined : end);
}

const apiRoutes = ROUTE_TABLE.filter((route) => route.path.startsWith("/api/"));

// People read the API from the written contract and the README's one-page table, not from the route
// table: a route added to the server and left out of either is an endpoint nobody finds.
describe("the written contract", () => {
  it("lists every route of the server, with its method, in docs/api.md's endpoint table", () => {
    const table = section(read("docs/api.md"), "## Endpoints");
    for (const route of ROUTE_TABLE) {
      expect(table, `${route.method} ${route.path}`).toContain(`\`${route.method.toUpperCase()} ${route.path}\``);
    }
  });

  it("names every API path in the README's one-page table", () => {
    const table = section(read("README.md"), "## The API in one page");
    for (const route of apiRoutes) expect(table, route.path).toMatch(new RegExp(`[\` ]${route.path}[\`,]`));
  });
});
