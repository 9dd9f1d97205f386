#!/usr/bin/env bash
# The e2e sandbox: a fresh data dir, one extra account for the lockout test, then `npm start`.
set -euo pipefail
rm -rf "${DATA_DIR:?}"
USER_PASSWORD="lockout-test-pass" npm run --silent users -- add lockout-victim --role staff
exec npm start
