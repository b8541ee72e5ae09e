// Kept in step with package.json by a test (reading package.json at run time would need JSON import
// attributes, which Node 20.0–20.9 lack).
export const SDK_VERSION = "0.1.0";
