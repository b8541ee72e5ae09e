// Look up one ICCID with the SDK, and turn every way it can fail into a clear message and exit code.
//
//   ICCID_API_KEY=iccid_… ICCID_BASE_URL=http://127.0.0.1:8080 \
//     node packages/sdk/scripts/run-example.mjs examples/sdk-lookup.ts "8944 1000 0000 0000 0018"
//
import {
  IccidClient,
  isAPIConnectionError,
  isAPIError,
  isAuthenticationError,
  isQuotaExceededError,
  isRateLimitError,
  isSubscriptionRequiredError,
  isUnprocessableEntityError,
  parseIccid,
} from "@iccid/sdk";

const input = process.argv[2] ?? "8944 1000 0000 0000 0018";

// Offline first: a typo is caught here and costs no request.
const offline = parseIccid(input);
if (!offline.ok) {
  console.error(`not an ICCID (${offline.error.code}): ${offline.error.message}`);
  process.exit(2);
}

// Reads ICCID_API_KEY and ICCID_BASE_URL; retries twice on connection errors, 429 rate_limited and 5xx.
const client = new IccidClient();
try {
  const result = await client.iccid.lookup(input, { deadlineMs: 15_000 });
  console.log(`ICCID    ${result.iccid} (${result.length} digits)`);
  console.log(`valid    ${result.valid} (Luhn ${result.checks.luhn})`);
  console.log(`country  ${result.country ? `${result.country.name} (${result.country.iso2})` : "unknown"}, calling code ${result.calling_code ?? "-"}`);
  console.log(`issuer   ${result.issuer ? `${result.issuer.name} (prefix ${result.issuer.prefix})` : "unknown"}`);
  for (const warning of result.warnings) console.log(`warning  ${warning.code}: ${warning.message}`);
} catch (error) {
  process.exitCode = explain(error);
} finally {
  await client.close();
}

/** Prints what went wrong and returns the exit code the `iccid` command would use. */
function explain(error: unknown): number {
  if (isAuthenticationError(error)) {
    // Also thrown before any request when the key is missing or fails its checksum (error.code says which).
    console.error(`authentication failed (${error.code}): ${error.detail}`);
    return 4;
  }
  if (isSubscriptionRequiredError(error)) {
    console.error(`the account has no active subscription: ${error.detail}`);
    return 4;
  }
  if (isQuotaExceededError(error)) {
    console.error(`the monthly lookups are used up; they reset at ${error.resetsAt?.toISOString() ?? "the period's end"}`);
    return 5;
  }
  if (isRateLimitError(error)) {
    // Only seen once the SDK's own retries ran out, or the server asked for a wait above the cap.
    console.error(`rate limited; try again in ${Math.ceil((error.retryAfterMs ?? 1000) / 1000)} s`);
    return 5;
  }
  if (isUnprocessableEntityError(error)) {
    console.error(`the server refused the input: ${error.errors.map((e) => `${e.pointer} ${e.detail}`).join("; ")}`);
    return 1;
  }
  if (isAPIConnectionError(error)) {
    // Names the host and the likely reason, e.g. "connection refused (is the server running…?)"; timeouts too.
    console.error(error.message);
    return 1;
  }
  if (isAPIError(error)) {
    console.error(`${error.message}`); // status, code, detail and request id
    return 1;
  }
  throw error;
}
