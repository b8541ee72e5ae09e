// The pure, schema-free part of the core: the ICCID and EID grammars, the key format and scopes, the
// contract's constants, durations, the flat lookup row, CSV (reading records, writing cells) and tab-separated rows. A
// command-line tool that only validates imports this and skips building the zod schemas at start-up; the SDK's public declarations import only
// this and `./types`, so that its users' compilers never load zod.
export * from "./api-key.js";
export * from "./batch-limit.js";
export * from "./counted.js";
export * from "./csv-cell.js";
export * from "./csv-layout.js";
export * from "./csv-records.js";
export { CsvSeparatorError, isCsvSeparator, SEPARATORS } from "./csv-separator.js";
export * from "./duration.js";
export * from "./eid.js";
export * from "./file-text.js";
export * from "./imsi.js";
export * from "./key-scopes.js";
export * from "./grammar-codes.js";
export * from "./granularity.js";
export * from "./lookup-row.js";
export * from "./luhn.js";
export * from "./normalize.js";
export * from "./parse.js";
export * from "./problem-codes.js";
export * from "./tsv-line.js";
export * from "./visible-text.js";
