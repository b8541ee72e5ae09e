import { tsvCell, tsvText } from "@iccid/core";

/** Where a listing goes: stdout, or any stream that says whether it is a terminal. */
export interface ListingOut {
  readonly isTTY?: boolean;
  /** The terminal's width, where it has one. */
  readonly columns?: number;
  write(text: string): unknown;
}

/**
 * A list command's rows on stdout. Into a pipe or a file: tab-separated, one row a line, no header, for
 * scripts (core's tsvText, as the `iccid` CLI writes them).
 * On a terminal: under a header, each column as wide as its widest cell, for people, a line wider than the
 * terminal cut at its width and ended with "…" (as ps does) instead of wrapping into the next. A pipe or
 * `--json` gives every field.
 */
export function printListing(header: readonly string[], rows: readonly (readonly string[])[], out: ListingOut = process.stdout): void {
  if (!out.isTTY) {
    out.write(tsvText(rows));
    return;
  }
  const table = [header, ...rows.map((row) => row.map(tsvCell))];
  const width = (cell: string) => [...cell].length;
  // A reduce, not Math.max(...): a server-wide audit trail may have more rows than a call takes arguments.
  const widths = header.map((_, column) => table.reduce((widest, cells) => Math.max(widest, width(cells[column] ?? "")), 0));
  const padded = (cells: readonly string[]) =>
    cells.map((cell, column) => (column === cells.length - 1 ? cell : cell + " ".repeat(widths[column]! - width(cell)))).join("  ");
  const room = out.columns ?? Infinity;
  const fitted = (line: string) => (width(line) <= room ? line : [...line].slice(0, room - 1).join("") + "…");
  out.write(table.map((cells) => `${fitted(padded(cells))}\n`).join(""));
}

/**
 * A listing read page by page (`audit`): into a pipe or a file each page is written as it is read, so the
 * command's memory is one page whatever the length; a terminal's aligned columns need every row first.
 */
export async function printListingPages(header: readonly string[], pages: AsyncIterable<readonly (readonly string[])[]>, out: ListingOut = process.stdout): Promise<void> {
  if (out.isTTY) {
    const rows: (readonly string[])[] = [];
    for await (const page of pages) rows.push(...page);
    return printListing(header, rows, out);
  }
  for await (const page of pages) out.write(tsvText(page));
}

/** Records read page by page, as one JSON array, written as they are read. */
export async function printJsonPages(pages: AsyncIterable<readonly unknown[]>, out: ListingOut = process.stdout): Promise<void> {
  let first = true;
  out.write("[");
  for await (const page of pages) {
    for (const record of page) {
      out.write(`${first ? "\n" : ",\n"}  ${JSON.stringify(record)}`);
      first = false;
    }
  }
  out.write(first ? "]\n" : "\n]\n");
}
