#!/usr/bin/env bash
# The e2e sandbox: a fresh data dir, extra accounts for the sign-in tests and the accessibility
# spec (which runs beside the others: docs/testing.md), then `npm start`.
set -euo pipefail
export NEXT_TELEMETRY_DISABLED=1
rm -rf "${DATA_DIR:?}"
USER_PASSWORD="lockout-test-pass" npm run --silent users -- add lockout-victim --role staff
USER_PASSWORD="trusted-test-pass" npm run --silent users -- add trusted-victim --role manager
for role in manager supervisor staff; do
  USER_PASSWORD="a11y-${role}-pass" npm run --silent users -- add "a11y-${role}" --role "$role"
done
exec npm start
