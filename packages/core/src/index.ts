export * from "./csv-cell.js";
export * from "./grammar.js";
export * from "./lookup-row.js";
export * from "./schemas/index.js";
