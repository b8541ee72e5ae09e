// The pure, schema-free part of the core: the ICCID grammar, the key format and the contract's constants.
// A command-line tool that only validates imports this and skips building the zod schemas at start-up.
export * from "./api-key.js";
export * from "./grammar-codes.js";
export * from "./granularity.js";
export * from "./luhn.js";
export * from "./normalize.js";
export * from "./parse.js";
export * from "./problem-codes.js";
