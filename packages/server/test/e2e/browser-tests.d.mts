/** The browser tests, as paths from packages/server (`test/e2e/….test.ts`), in name order. */
export declare const BROWSER_TESTS: readonly string[];
