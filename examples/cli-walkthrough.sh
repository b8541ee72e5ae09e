#!/usr/bin/env bash
# A first session with the `iccid` command, as a newcomer would type it.
#
# Before: `pnpm install && pnpm build` in the repository, and a server running in another terminal
# (`pnpm start` prints an owner account and an API key on its first start). Then either
#   export ICCID_API_KEY=iccid_…        or        iccid config set api_key iccid_…
# and, for a server that is not on http://127.0.0.1:8080, ICCID_BASE_URL (or `iccid config set base_url …`).
#
# Run from anywhere: bash examples/cli-walkthrough.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Use an installed `iccid` when there is one, else the one built in this repository.
if command -v iccid >/dev/null 2>&1; then ICCID_BIN=(iccid); else ICCID_BIN=(node "$ROOT/packages/cli/dist/bin.js"); fi
iccid() { "${ICCID_BIN[@]}" "$@"; }
step() { printf '\n$ iccid %s\n' "$*" >&2; }

OUT="$(mktemp -d "${TMPDIR:-/tmp}/iccid-walkthrough.XXXXXX")"

step --version
iccid --version

# Offline: grammar and check digit only, no key, no quota. Exit status 1 means "not valid".
step validate 89441000000000000018
iccid validate 89441000000000000018

# One lookup: country, issuer, account number. A table on a terminal, tab-separated in a pipe.
step lookup 89441000000000000018
iccid lookup 89441000000000000018

step lookup 89441000000000000018 --json
iccid lookup 89441000000000000018 --json

# A whole CSV: one output row per input row, in order. The sample holds malformed ICCIDs on purpose,
# so the command ends with status 3 ("some rows failed"); those rows are also in failed.csv.
step batch examples/sims.csv --out "$OUT/results.csv" --errors "$OUT/failed.csv"
iccid batch "$ROOT/examples/sims.csv" --out "$OUT/results.csv" --errors "$OUT/failed.csv" || test $? -eq 3
head -n 3 "$OUT/results.csv"

# What that cost: quota used and left, and a chart of lookups per day.
step usage
iccid usage

printf '\nResults are in %s\n' "$OUT" >&2
