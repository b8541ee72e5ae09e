export * from "./api-key.js";
export * from "./grammar-codes.js";
export * from "./luhn.js";
export * from "./normalize.js";
export * from "./parse.js";
export * from "./problem-codes.js";
export * from "./schemas/index.js";
