export * from "./grammar.js";
export * from "./schemas/index.js";
