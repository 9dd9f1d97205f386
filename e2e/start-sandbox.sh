#!/usr/bin/env bash
# The e2e sandbox: a fresh data dir, extra accounts for the sign-in tests and the accessibility
# spec (which runs beside the others: docs/testing.md), then `npm start`.
set -euo pipefail
export NEXT_TELEMETRY_DISABLED=1
rm -rf "${DATA_DIR:?}"
node_modules/.bin/tsx --conditions=react-server e2e/add-accounts.ts
exec npm start
