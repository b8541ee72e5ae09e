// The test that drives a real PgBouncer, as a path from packages/server: the server-postgres project leaves
// it out when there is no pgbouncer (ICCID_SKIP_PGBOUNCER=1) and scripts/test.mjs names it when it says so;
// both take this name, so the test is neither left out unsaid nor run without its binary.
export const PGBOUNCER_TEST = "test/scale-out/pgbouncer.test.ts";

// Debian's pgbouncer (apt-get install pgbouncer), or the binary ICCID_PGBOUNCER names.
export const PGBOUNCER = process.env.ICCID_PGBOUNCER ?? "/usr/sbin/pgbouncer";
