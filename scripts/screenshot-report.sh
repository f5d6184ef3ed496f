#!/bin/sh
# screenshot-report.sh: draws a recorded GPU trace as the HTML report and saves a screenshot of
# the page (the README's picture). Uses the headless Chromium and playwright-core that
# scripts/setup.sh installs for tests/html.
#
# usage: scripts/screenshot-report.sh [TRACE [OUT.png]]
#   TRACE    a trace of `syncscope run --trace` (default tests/data/sample_pipeline_naive.sstrace,
#            samples/pipeline/naive.cu recorded on an NVIDIA H200)
#   OUT.png  the picture (default docs/report-run.png)
# environment: SYNCSCOPE (the command; default build/release/cli/syncscope, else the first
#   build/*/cli/syncscope), SS_TOOLS_DIR (default build/tools), SS_CHROMIUM (default
#   /usr/bin/chromium), SS_SCREENSHOT_WIDTH (default 1280).
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
trace=${1:-$repo/tests/data/sample_pipeline_naive.sstrace}
out=${2:-$repo/docs/report-run.png}
tools=${SS_TOOLS_DIR:-$repo/build/tools}
chromium=${SS_CHROMIUM:-/usr/bin/chromium}
width=${SS_SCREENSHOT_WIDTH:-1280}

syncscope=${SYNCSCOPE:-}
if [ -z "$syncscope" ]; then
    for candidate in "$repo/build/release/cli/syncscope" "$repo"/build/*/cli/syncscope; do
        if [ -x "$candidate" ]; then
            syncscope=$candidate
            break
        fi
    done
fi
if [ -z "$syncscope" ] || [ ! -x "$syncscope" ]; then
    echo "screenshot-report: no syncscope command (build it, or set SYNCSCOPE)" >&2
    exit 2
fi
if [ ! -d "$tools/node_modules/playwright-core" ] || [ ! -x "$chromium" ]; then
    echo "screenshot-report: needs playwright-core in $tools and Chromium at $chromium" \
        "(scripts/setup.sh installs both)" >&2
    exit 2
fi

# Absolute paths: the command runs from the checkout.
trace=$(cd "$(dirname "$trace")" && pwd)/$(basename "$trace")
syncscope=$(cd "$(dirname "$syncscope")" && pwd)/$(basename "$syncscope")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The trace's paths are those of the machine it was recorded on; excerpts come from this
# checkout (the root) when they match. A trace inside the checkout is named relative to it
# in the page's header.
case $trace in
"$repo"/*) trace=${trace#"$repo"/} ;;
esac
(cd "$repo" && "$syncscope" report "$trace" --title "$(basename "$trace" .sstrace)" \
    -o "$work/report.html")

SS_PAGE="$work/report.html" SS_OUT="$out" SS_TOOLS_DIR="$tools" SS_CHROMIUM="$chromium" \
    SS_WIDTH="$width" SS_PROFILE="$work/profile" node - <<'EOF'
'use strict';
const path = require('path');
const { chromium } = require(path.join(process.env.SS_TOOLS_DIR, 'node_modules', 'playwright-core'));
(async () => {
  const ctx = await chromium.launchPersistentContext(process.env.SS_PROFILE, {
    executablePath: process.env.SS_CHROMIUM,
    headless: true,
    viewport: { width: Number(process.env.SS_WIDTH), height: 900 },
    deviceScaleFactor: 1,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync']
  });
  const page = await ctx.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  await page.goto('file://' + process.env.SS_PAGE);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
  /* The call sites listed under the timeline, as a reader who opens them sees them. */
  await page.$eval('#ss-findings', (d) => { d.open = true; });
  await page.screenshot({ path: process.env.SS_OUT, fullPage: true });
  await ctx.close();
  if (problems.length) {
    console.error('screenshot-report: the page reported: ' + problems.join('; '));
    process.exit(1);
  }
})().catch((e) => { console.error('screenshot-report: ' + (e && e.stack || e)); process.exit(1); });
EOF
echo "screenshot-report: wrote $out"
