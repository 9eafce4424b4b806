#!/usr/bin/env bash
# Retakes docs/img/explorer.png, the README's picture of `nqueens explore`:
# the browser test opens the 6-queens page in headless Chromium (check and fc
# side by side at step 14) and, with CSP_UPDATE_SCREENSHOT=1, saves its
# screenshot there. Needs the chromium and chromium-driver packages.
#
#   scripts/explorer-screenshot.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromedriver >/dev/null 2>&1; then
  echo "error: chromedriver not found (apt-get install chromium chromium-driver)" >&2
  exit 2
fi
CSP_UPDATE_SCREENSHOT=1 cargo test -q -p nqueens --test explore_browser \
  the_page_replays_the_trace_in_a_real_browser
echo "wrote docs/img/explorer.png"
