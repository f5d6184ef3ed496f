// test_report.js: loads the HTML reports written by gen_html (and by `syncscope report`) in
// headless Chromium and asserts through the DOM. Usage: node test_report.js PAGES_DIR
// Environment: SS_TOOLS_DIR (where scripts/setup.sh installed playwright-core), SS_SYNCSCOPE
// (the syncscope executable), SS_FIXTURES (tests/html/fixtures), SS_CHROMIUM (optional).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const pagesDir = path.resolve(process.argv[2] || '.');
const toolsDir = process.env.SS_TOOLS_DIR || path.join(__dirname, '../../build/tools');
const chromiumPath = process.env.SS_CHROMIUM || '/usr/bin/chromium';
const fixtures = process.env.SS_FIXTURES || path.join(__dirname, 'fixtures');

let chromium;
try {
  ({ chromium } = require(path.join(toolsDir, 'node_modules', 'playwright-core')));
} catch (e) {
  console.error('test_report: playwright-core is not installed in ' + toolsDir +
    ' (scripts/setup.sh installs it)');
  process.exit(process.env.SYNCSCOPE_NO_BROWSER === '1' ? 77 : 1);
}
if (!fs.existsSync(chromiumPath)) {
  console.error('test_report: no Chromium at ' + chromiumPath + ' (scripts/setup.sh installs the Debian package chromium)');
  process.exit(process.env.SYNCSCOPE_NO_BROWSER === '1' ? 77 : 1);
}

let passed = 0, failed = 0;
const failures = [];
function check(cond, what) {
  if (cond) { passed++; return; }
  failed++;
  failures.push(what);
  console.log('FAIL: ' + what);
}
function eq(actual, expected, what) {
  const ok = JSON.stringify(actual) === JSON.stringify(expected);
  check(ok, what + ': expected ' + JSON.stringify(expected) + ', got ' + JSON.stringify(actual));
}

async function open(ctx, file) {
  const page = await ctx.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.type() + ': ' + m.text()); });
  page.on('pageerror', (e) => problems.push('pageerror: ' + e.message));
  const requests = [];
  page.on('request', (r) => { if (!r.url().startsWith('file://')) requests.push(r.url()); });
  const t0 = Date.now();
  await page.goto('file://' + path.join(pagesDir, file));
  await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
  const wall = Date.now() - t0;
  return { page, problems, requests, wall };
}

function rowsOf(page) {
  return page.$$eval('#ss-table tr.ss-row', (trs) => trs.map((tr) => ({
    group: Number(tr.dataset.group),
    cells: Array.from(tr.cells).map((td) => td.textContent)
  })));
}
async function shownCount(page) {
  return Number(await page.$eval('#ss-count', (e) => e.dataset.shown));
}
async function pageData(page) {
  return page.evaluate(() => JSON.parse(document.getElementById('ss-data').textContent));
}
async function select(page, id, value) {
  await page.selectOption('#' + id, value);
}
function colIndex(headers, name) { return headers.indexOf(name); }
async function headers(page) {
  return page.$$eval('#ss-thead th', (ths) => ths.map((t) => t.textContent));
}
// Opens the findings table (collapsed under the timeline on run pages).
async function openTable(page) {
  await page.$eval('#ss-findings', (d) => { d.open = true; });
}
// Whether the timeline section comes before the findings table in the document.
async function timelineFirst(page) {
  return page.evaluate(() => Boolean(document.getElementById('ss-timeline-section')
    .compareDocumentPosition(document.getElementById('ss-table')) & Node.DOCUMENT_POSITION_FOLLOWING));
}
function finish(r, name) {
  eq(r.problems, [], name + ': no console errors or warnings');
  eq(r.requests, [], name + ': no network request');
}

async function testLint(ctx) {
  const r = await open(ctx, 'lint.html');
  const { page } = r;
  finish(r, 'lint');
  const data = await pageData(page);
  eq(data.findings.length, 5, 'lint: findings in the data');
  const rows = await rowsOf(page);
  eq(rows.length, data.findings.length, 'lint: rows shown equal the findings');
  eq(await shownCount(page), 5, 'lint: count label');
  const h = await headers(page);
  const rule = colIndex(h, 'Rule'), loc = colIndex(h, 'Location');
  eq(rows.map((x) => x.cells[loc].replace(/[a-z_]+$/, '')), ['app.cu:12', 'app.cu:20', 'app.cu:32', 'app.cu:41', 'app.cu:45'],
    'lint: ordered by file and line');
  eq(await page.$eval('#ss-timeline-section', (e) => e.hidden), true, 'lint: no timeline without a run');
  eq(await page.$eval('#ss-findings', (d) => d.open), true, 'lint: without a timeline the table is open');
  // Filters.
  await select(page, 'ss-f-rule', 'SYNC201');
  eq((await rowsOf(page)).length, 1, 'lint: rule filter');
  eq(await shownCount(page), 1, 'lint: rule filter count');
  await select(page, 'ss-f-rule', '');
  await select(page, 'ss-f-sev', '0');
  eq((await rowsOf(page)).map((x) => x.cells[rule].slice(0, 7)), ['SYNC103', 'SYNC401'], 'lint: severity filter (notes)');
  await select(page, 'ss-f-sev', '');
  await select(page, 'ss-f-file', 'app.cu');
  eq((await rowsOf(page)).length, 5, 'lint: file filter');
  await page.fill('#ss-search', 'READBACK');
  await page.waitForFunction(() => document.getElementById('ss-count').dataset.shown === '1');
  eq((await rowsOf(page)).map((x) => x.cells[rule].slice(0, 7)), ['SYNC301'], 'lint: text search');
  await page.fill('#ss-search', 'no such text anywhere');
  await page.waitForFunction(() => document.getElementById('ss-count').dataset.shown === '0');
  eq(await page.$eval('#ss-empty', (e) => e.hidden), false, 'lint: empty message');
  await page.click('#ss-f-clear');
  eq(await shownCount(page), 5, 'lint: clear');
  // Sorting.
  await page.click('#ss-thead th[data-key="rule"]');
  eq((await rowsOf(page)).map((x) => x.cells[rule].slice(0, 7)), ['SYNC101', 'SYNC103', 'SYNC201', 'SYNC301', 'SYNC401'], 'lint: sort by rule');
  await page.click('#ss-thead th[data-key="rule"]');
  eq((await rowsOf(page)).map((x) => x.cells[rule].slice(0, 7)), ['SYNC401', 'SYNC301', 'SYNC201', 'SYNC103', 'SYNC101'], 'lint: sort by rule, descending');
  await page.click('#ss-thead th[data-key="sev"]');
  eq((await rowsOf(page)).map((x) => x.cells[rule].slice(0, 7)).slice(3), ['SYNC103', 'SYNC401'], 'lint: sort by severity puts notes last');
  // Expanding a row: the excerpt with the line highlighted, and the catalog's explanation.
  await page.click('#ss-thead th[data-key="loc"]');
  await page.click('#ss-table tr.ss-row >> nth=0');
  const src = fs.readFileSync(path.join(fixtures, 'app.cu'), 'utf8').split('\n');
  const detail = await page.$eval('tr.ss-detail', (d) => ({
    lines: Array.from(d.querySelectorAll('.ss-src span')).map((s) => [s.querySelector('b').textContent, s.textContent.slice(s.querySelector('b').textContent.length), s.className]),
    text: d.textContent
  }));
  eq(detail.lines.map((l) => Number(l[0])), [9, 10, 11, 12, 13, 14, 15], 'lint: excerpt line numbers');
  eq(detail.lines.map((l) => l[1]), src.slice(8, 15), 'lint: excerpt text is the source');
  eq(detail.lines.filter((l) => l[2] === 'hl').map((l) => Number(l[0])), [12], 'lint: the finding line is highlighted');
  check(detail.text.includes('Fix: allocate the host buffer with cudaMallocHost'), 'lint: the rule fix from the catalog is shown');
  await page.click('#ss-table tr.ss-row >> nth=0');
  eq(await page.$$eval('tr.ss-detail', (d) => d.length), 0, 'lint: a second click closes the row');
  // CSP: only hashed inline script and style.
  const csp = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content);
  check(/script-src 'sha256-[A-Za-z0-9+/]+=*';/.test(csp) && !csp.includes('unsafe-inline') && csp.includes("default-src 'none'"),
    'lint: CSP allows only the hashed inline script: ' + csp);
  await page.close();
}

async function testRun(ctx) {
  const r = await open(ctx, 'run.html');
  const { page } = r;
  finish(r, 'run');
  const data = await pageData(page);
  eq(await timelineFirst(page), true, 'run: the timeline comes before the table');
  eq(await page.$eval('#ss-findings', (d) => d.open), true, 'run: the call sites are open from the start');
  eq(await page.$eval('#ss-sites-count', (e) => e.textContent), '(5)', 'run: the table says how many');
  await page.click('#ss-findings > summary');
  eq(await page.$eval('#ss-findings', (d) => d.open), false, 'run: the summary folds the table');
  await page.click('#ss-findings > summary');
  eq(await page.$eval('#ss-findings', (d) => d.open), true, 'run: and opens it again');
  const rows = await rowsOf(page);
  eq(rows.length, data.findings.length, 'run: rows shown equal the findings');
  eq(rows.length, 5, 'run: five findings');
  const h = await headers(page);
  const rule = colIndex(h, 'Rule');
  eq(rows.map((x) => x.cells[rule].slice(0, 7)), ['SYNC201', 'SYNC101', 'SYNC301', 'SYNC402', 'SYNC102'], 'run: ordered by cost');
  eq(rows.map((x) => x.cells[colIndex(h, 'Time')]), ['30.0 ms', '8.00 ms', '4.50 ms', '2.50 ms', '100 µs'], 'run: time column');
  eq(await page.$$eval('#ss-table tr.ss-row td.n[class*="cost-"]', (t) => t.map((x) => x.className.split(' ').pop())),
    ['cost-host', 'cost-gpu-held', 'cost-host', 'cost-host', 'cost-gpu-held'], 'run: each time is marked with its rule\'s cost');
  const meta = await page.$$eval('#ss-meta div', (ds) => Object.fromEntries(ds.map((d) => [d.querySelector('dt').textContent, d.querySelector('dd').textContent])));
  eq([meta.GPU, meta.Driver, meta.CUDA], ['NVIDIA H200', '580.65.06', '13.0 (runtime 12.8)'], 'run: GPU, driver and CUDA versions in the header');
  const summary = await page.$eval('#ss-summary', (e) => e.textContent);
  // Host blocked: SYNC201 30 ms + SYNC301 4.5 ms + SYNC402 2.5 ms (cost 'host'), not the result's
  // 83 ms; SYNC101 and SYNC102 held GPU work back 8.1 ms.
  eq(await page.$eval('#ss-summary [data-cost="host"] .v', (e) => e.textContent), '37.0 ms', 'run: host blocked, from the host-cost findings');
  check(summary.includes('14.8 % of wall time'), 'run: host blocked share of wall');
  eq(await page.$eval('#ss-summary [data-cost="gpu-held"] .v', (e) => e.textContent), '8.10 ms', 'run: GPU held back');
  check(summary.includes('48.0 %'), 'run: GPU busy share');
  // Sorting by count ascending.
  await page.click('#ss-thead th[data-key="count"]');
  await page.click('#ss-thead th[data-key="count"]');
  eq((await rowsOf(page)).map((x) => x.cells[colIndex(h, 'Count')]), ['10', '100', '100', '400', '1000'], 'run: sort by count ascending');
  // The timeline: one lane per host thread and stream.
  eq(await page.$eval('#ss-timeline-section', (e) => e.hidden), false, 'run: timeline shown');
  eq(await page.$eval('#ss-tl', (c) => Number(c.dataset.lanes)), 5, 'run: five lanes drawn');
  eq(await page.$$eval('.ss-lane-label', (ls) => ls.map((l) => l.textContent)),
    ['host thread 1', 'host thread 2', 'stream 7 (legacy default) · GPU 0', 'stream 13 · GPU 0', 'stream 14 (non-blocking) · GPU 0'],
    'run: lane labels');
  // Stream 21 was created and never used: its lane is left out until the toggle shows it.
  eq(data.timeline.lanes.map((l) => l.n === 0 ? l.id : null).filter((x) => x !== null), [21], 'run: the data keeps the empty lane');
  eq(await page.$eval('#ss-tl-empty', (b) => [b.hidden, b.textContent, b.getAttribute('aria-pressed')]), [false, 'Show 1 empty lane', 'false'], 'run: the empty-lanes toggle');
  const tallBefore = await page.$eval('#ss-tl', (c) => c.clientHeight);
  await page.click('#ss-tl-empty');
  eq(await page.$eval('#ss-tl', (c) => Number(c.dataset.lanes)), 6, 'run: six lanes with the empty one');
  eq(await page.$$eval('.ss-lane-label.empty', (ls) => ls.map((l) => l.textContent)), ['stream 21 (non-blocking) · GPU 0'], 'run: the empty lane, marked');
  eq(await page.$eval('#ss-tl', (c) => c.clientHeight) - tallBefore, 20, 'run: the canvas grows by one lane');
  eq(await page.$eval('#ss-tl-empty', (b) => [b.textContent, b.getAttribute('aria-pressed')]), ['Hide 1 empty lane', 'true'], 'run: the toggle says it hides them now');
  await page.click('#ss-tl-empty');
  eq(await page.$eval('#ss-tl', (c) => Number(c.dataset.lanes)), 5, 'run: hidden again');
  eq(await page.$$eval('.ss-lane-label.empty', (ls) => ls.length), 0, 'run: no empty lane label');
  const rects = await page.$eval('#ss-tl', (c) => Number(c.dataset.rects));
  check(rects > 0, 'run: operations drawn (' + rects + ')');
  // A finding clicked to its moment zooms the timeline onto it.
  const full = await page.evaluate(() => window.ssTimeline.view());
  await page.click('#ss-thead th[data-key="cost"]');
  await page.click('#ss-table tr.ss-row >> nth=0');
  await page.click('tr.ss-detail button.ss-link');
  const v = await page.evaluate(() => window.ssTimeline.view());
  const occ = data.findings.find((f) => data.rules[f.r].id === 'SYNC201').occ;
  eq(occ.length, 50, 'run: moments kept for SYNC201 (the longest 50)');
  check(v[1] - v[0] < (full[1] - full[0]) / 100, 'run: focusing a finding zooms in');
  check(occ.some((o) => o[0] >= v[0] && o[1] <= v[1]), 'run: the focused moment is in view');
  // Zoom with the wheel, then pan.
  await page.click('#ss-tl-reset');
  await page.$eval('#ss-tl', (c) => c.scrollIntoView());
  const box = await page.$eval('#ss-tl', (c) => { const b = c.getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width }; });
  await page.mouse.move(box.x + box.w / 2, box.y + 60);
  await page.mouse.wheel(0, -600);
  await page.waitForTimeout(100);
  const z = await page.evaluate(() => window.ssTimeline.view());
  check(z[1] - z[0] < (full[1] - full[0]) * 0.6, 'run: the wheel zooms in');
  await page.mouse.down();
  await page.mouse.move(box.x + box.w / 2 - 200, box.y + 60);
  await page.mouse.up();
  await page.waitForTimeout(50);
  const p = await page.evaluate(() => window.ssTimeline.view());
  check(p[0] > z[0] && Math.abs((p[1] - p[0]) - (z[1] - z[0])) < 1, 'run: dragging pans');
  // Kernel and function names shortened as in the text report, the full name on hover.
  await page.$$eval('tr.ss-detail', (ds) => ds.forEach((d) => d.previousElementSibling.click()));
  await page.click('#ss-table tr.ss-row:has(td:text-is("SYNC301"))');
  const dd = await page.$$eval('tr.ss-detail dl.ss-ev dt', (dts) => dts.filter((t) => t.textContent === 'Waited for')
    .map((t) => [t.nextElementSibling.textContent, Array.from(t.nextElementSibling.querySelectorAll('.ss-kname')).map((s) => [s.textContent, s.title])]));
  eq(dd, [["kernel 'scale' on stream 7 (400 times, 8.00 ms), kernel 'sum' on stream 7 (4.0 us)",
    [['scale', 'void scale<float, 4>(float*, int)']]]], 'run: waited for, kernel names shortened with the full one on hover');
  eq(await page.$$eval('tr.ss-detail ol.ss-stack li', (ls) => ls.map((l) => [l.textContent, l.title])),
    [['cudaMemcpy  (/usr/local/cuda/lib64/libcudart.so.13)', ''], ['readback  /builds/ci/proj/app.cu:32', 'readback(float const*, unsigned long)'], ['step  train.py:9', '']],
    'run: stack function names shortened, the full one on hover, no interpreter frame');
  eq(await page.$$eval('tr.ss-detail ol.ss-stack + p.ss-note', (ps) => ps.map((p) => p.textContent)),
    ["1 frame of the Python interpreter or the C library's start not shown"], 'run: the interpreter frame counted');
  eq((await pageData(page)).findings.filter((f) => f.st && f.st.some((fr) => fr[6] === 1)).map((f) => f.st.map((fr) => fr[6])),
    [[0, 0, 0, 1]], 'run: the data keeps every frame, the interpreter\'s marked');
  await page.close();
}

async function testJoined(ctx, file, label) {
  const r = await open(ctx, file);
  const { page } = r;
  finish(r, label);
  const data = await pageData(page);
  await openTable(page);
  const lintN = data.findings.filter((f) => f.o === 1).length, runN = data.findings.filter((f) => f.o === 2).length;
  eq([lintN, runN], [5, 5], label + ': inputs');
  const rows = await rowsOf(page);
  const h = await headers(page);
  const rule = colIndex(h, 'Rule'), loc = colIndex(h, 'Location');
  const site = (x) => x.cells[rule].slice(0, 7) + ' ' + x.cells[loc].replace(/[a-z_]+$/, '');
  eq(rows.filter((x) => x.group === 3).map(site).sort(), ['SYNC101 app.cu:20', 'SYNC201 app.cu:12', 'SYNC301 app.cu:32'],
    label + ': exactly the call sites in both inputs are predicted and observed');
  eq(rows.filter((x) => x.group === 2).map(site).sort(), ['SYNC102 app.cu:12', 'SYNC402 app.cu:51'], label + ': observed only');
  eq(rows.filter((x) => x.group === 1).map(site).sort(), ['SYNC103 app.cu:41', 'SYNC401 app.cu:45'], label + ': predicted only');
  eq(rows.length, lintN + runN - 3, label + ': a joined call site is shown once');
  eq(await page.$$eval('#ss-table tr.ss-group th .grp', (g) => g.map((x) => x.textContent)),
    ['Predicted and observed', 'Observed only', 'Predicted only'], label + ': group order');
  const costs = rows.filter((x) => x.group === 3).map((x) => x.cells[colIndex(h, 'Time')]);
  eq(costs, ['30.0 ms', '8.00 ms', '4.50 ms'], label + ': joined rows carry the runtime cost, by cost');
  await select(page, 'ss-f-group', '3');
  eq((await rowsOf(page)).length, 3, label + ': group filter');
  await select(page, 'ss-f-group', '2');
  await select(page, 'ss-f-rule', 'SYNC402');
  eq((await rowsOf(page)).length, 1, label + ': group and rule filters together');
  await page.click('#ss-f-clear');
  // The joined row shows both the prediction and the observation.
  await page.click('#ss-table tr.ss-row >> nth=0');
  const origins = await page.$$eval('tr.ss-detail .ss-origin', (o) => o.map((x) => x.textContent));
  eq(origins, ['Predicted by lint', 'Observed at run time'], label + ': joined detail lists both');
  eq(await page.$eval('#ss-tl', (c) => Number(c.dataset.lanes)), 5, label + ': five lanes');
  await page.close();
}

// Two GPUs in one process, both with a CUPTI stream 13: one lane per device.
async function testTwoDevices(ctx) {
  const r = await open(ctx, 'twodev.html');
  finish(r, 'twodev');
  eq(await r.page.$eval('#ss-tl', (c) => Number(c.dataset.lanes)), 3, 'twodev: host thread + stream 13 of each device');
  await r.page.close();
}

async function testMulti(ctx) {
  const r = await open(ctx, 'multi.html');
  const { page } = r;
  finish(r, 'multi');
  const data = await pageData(page);
  await openTable(page);
  eq(data.findings.length, 15, 'multi: findings');
  const rows = await rowsOf(page);
  const h = await headers(page);
  const proc = colIndex(h, 'Process'), rule = colIndex(h, 'Rule');
  check(proc >= 0, 'multi: a process column');
  eq(rows.length, 3 + 4 + 2, 'multi: rows (joined once across ranks, runtime-only per rank)');
  eq(rows.filter((x) => x.group === 3).map((x) => x.cells[proc]), ['rank 0, rank 1', 'rank 0, rank 1', 'rank 0, rank 1'], 'multi: joined rows name both ranks');
  eq(rows.filter((x) => x.group === 3).map((x) => x.cells[colIndex(h, 'Time')]), ['90.0 ms', '24.0 ms', '13.5 ms'], 'multi: joined cost sums the ranks');
  eq(rows.filter((x) => x.group === 2).map((x) => x.cells[proc]).sort(), ['rank 0', 'rank 0', 'rank 1', 'rank 1'], 'multi: observed-only rows name their rank');
  eq(await page.$$eval('table.ss-procs tbody tr', (trs) => trs.map((tr) => tr.cells[0].textContent)), ['rank 0', 'rank 1'], 'multi: one summary row per rank');
  eq(await page.$$eval('table.ss-procs tbody tr', (trs) => trs.map((tr) => [tr.cells[3].textContent, tr.cells[4].textContent, tr.cells[5].textContent])),
    [['NVIDIA H200', '580.65.06', '13.0 (runtime 12.8)'], ['NVIDIA H200', '580.65.06', '13.0']], 'multi: GPU, driver and CUDA of each rank');
  await select(page, 'ss-f-proc', '2');
  eq((await rowsOf(page)).map((x) => x.cells[rule].slice(0, 7)).sort(), ['SYNC101', 'SYNC102', 'SYNC201', 'SYNC301', 'SYNC402'], 'multi: process filter');
  eq(await page.$eval('#ss-tl', (c) => Number(c.dataset.lanes)), 10, 'multi: ten lanes');
  eq(await page.$$eval('.ss-lane-group', (g) => g.map((x) => x.textContent)),
    ['rank 0: ./app — NVIDIA H200', 'rank 1: ./app — NVIDIA H200'], 'multi: a lane group per process');
  await page.close();
}

async function testAdversarial(ctx) {
  const r = await open(ctx, 'adversarial.html');
  const { page } = r;
  finish(r, 'adversarial');
  await openTable(page);
  const rows = await rowsOf(page);
  eq(rows.length, 2, 'adversarial: rows');
  // Open every row, hover the timeline, and make the tooltip show a hostile kernel name.
  for (let i = 0; i < rows.length; i++) await page.click('#ss-table tr.ss-row >> nth=' + i);
  await page.$eval('#ss-tl', (c) => c.scrollIntoView());
  const box = await page.$eval('#ss-tl', (c) => { const b = c.getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width }; });
  // Lane 'stream 14' (the sixth row below the axis and the group header) runs the hostile kernel.
  let tip = '';
  for (let x = 0; x < box.w && !tip.includes('<script>'); x += 3) {
    await page.mouse.move(box.x + x, box.y + 24 + 20 + 20 * 4 + 10);
    tip = await page.$eval('#ss-tip', (t) => (t.hidden ? '' : t.textContent));
  }
  check(tip.startsWith('<script>window.__pwned=1</script>\nkernel'), 'adversarial: the hostile kernel name is tooltip text: ' + JSON.stringify(tip.slice(0, 60)));
  const state = await page.evaluate(() => ({
    pwned: window.__pwned,
    scripts: document.scripts.length,
    imgs: document.querySelectorAll('img').length,
    hrefs: Array.from(document.querySelectorAll('[href],[src],[onerror],[onclick],[style*="javascript"]')).map((e) => e.outerHTML.slice(0, 80)),
    title: document.title,
    text: document.body.textContent,
    selects: Array.from(document.querySelectorAll('option')).map((o) => o.textContent).join('\n')
  }));
  eq(state.pwned, undefined, 'adversarial: no payload ran');
  eq(state.scripts, 3, 'adversarial: only the page\'s own three script elements');
  eq(state.imgs, 0, 'adversarial: no element was created from data');
  eq(state.hrefs, [], 'adversarial: no URL or handler attributes');
  eq(state.title, '</title><script>window.__pwned=1</script> "javascript:x"', 'adversarial: the title is text');
  for (const s of ['<script>window.__pwned=1</script>', '"><img src=x onerror="window.__pwned=1">',
    '</style><script>window.__pwned=1</script><style>', 'javascript:window.__pwned=1',
    '</script><script>window.__pwned=1</script>', '\u2028\u2029 line separators \u2028', 'invalid \ufffd\ufffd utf-8 \ufffd']) {
    check(state.text.includes(s), 'adversarial: shown as text: ' + JSON.stringify(s));
  }
  check(state.text.includes('</script><script>window.__pwned=1</script>\n') || state.text.includes('</script><script>window.__pwned=1</script>'),
    'adversarial: the hostile source line is shown as text');
  check(state.text.includes('\ud835\udd4a\u00ff\u0301'.repeat(100)), 'adversarial: long unicode is kept');
  check(state.selects.includes('<script>'), 'adversarial: hostile file names are text in the file filter');
  await page.fill('#ss-search', '<script>');
  await page.waitForFunction(() => document.getElementById('ss-count').dataset.shown === '2');
  const after = await page.evaluate(() => window.__pwned);
  eq(after, undefined, 'adversarial: still nothing ran');
  await page.close();
}

// A SYNC101 finding of 5 ms and a SYNC301 finding of 2 ms: by the rules' cost column, 2 ms of
// host blocked and 5 ms of GPU held back (the result's own blocked_ns says 7 ms); a latent
// SYNC202 note of 0.5 ms is counted in no total. The trace
// begins with a 150 ms cudaMalloc before any GPU work: context creation.
async function testCost(ctx) {
  const r = await open(ctx, 'cost.html');
  const { page } = r;
  finish(r, 'cost');
  const data = await pageData(page);
  // Every rule of the catalog once, in ID order, with one of the five costs; one rule of each
  // cost as rules.def states it (a rule added to the catalog needs no edit here).
  const ids = data.rules.map((x) => x.id);
  eq(ids, [...new Set(ids)].sort(), 'cost: the rules in the page data, each once, in ID order');
  check(data.rules.every((x) => ['none', 'host', 'host-explicit', 'gpu-held', 'saving'].includes(x.cost)),
    'cost: each rule\'s cost in the page data is one of the five');
  const costOf = (id) => (data.rules.find((x) => x.id === id) || {}).cost;
  eq(['SYNC101', 'SYNC201', 'SYNC401', 'SYNC501', 'SYNC502'].map(costOf),
    ['gpu-held', 'host', 'host-explicit', 'none', 'saving'], 'cost: one rule of each cost in the page data');
  const cards = await page.$$eval('#ss-summary .ss-card[data-cost]', (cs) => cs.map((c) => [c.dataset.cost, c.querySelector('.v').textContent]));
  eq(cards, [['host', '2.00 ms'], ['gpu-held', '5.00 ms']], 'cost: host blocked 2 ms, GPU held back 5 ms, no other kind');
  const hostNote = await page.$eval('#ss-summary [data-cost="host"] .s', (e) => e.textContent);
  eq(hostNote, '1.0 % of wall time, in implicit syncs; context creation (150 ms) not counted', 'cost: host share, context creation left out');
  const byRule = await page.$$eval('table.ss-rules tbody tr', (trs) => trs.map((tr) => [tr.dataset.cost].concat(Array.from(tr.cells).slice(2).map((c) => c.textContent))));
  eq(byRule, [['gpu-held', '1', '10', '5.00 ms', 'GPU held back', '\u2013'], ['host', '1', '10', '2.00 ms', 'host blocked', '1.0 %'],
    ['host', '1', '5', '0', 'host blocked', '0.0 %']],
    'cost: per rule, the time is counted as its cost says; only host time has a share of wall');
  eq(await page.$$eval('table.ss-rules thead th', (t) => t.map((x) => x.textContent)),
    ['Rule', 'Summary', 'Run', 'Occurrences', 'Time', 'Counted as', 'Share of wall'], 'cost: per rule columns');
  // Structure: the timeline at the top, the call sites open below it.
  eq(await timelineFirst(page), true, 'cost: the timeline comes before the table');
  eq(await page.$eval('#ss-findings', (d) => d.open), true, 'cost: the call sites are open');
  // Context creation: its own kind, drawn neutral and named on the timeline, not host blocked.
  eq(await page.evaluate(() => window.ssTimeline.kinds()),
    { 'context creation': 1, 'API call': 11, 'host blocked': 11, 'kernel': 11, 'copy DtoH': 10 }, 'cost: operations by kind');
  eq(await page.$$eval('.ss-ctx', (m) => m.map((x) => [x.textContent, x.hidden])), [['context creation', false]], 'cost: the context creation is marked');
  eq(data.procs[0].context_ns, 150000000, 'cost: the context creation time in the data');
  check(await page.$$eval('.ss-legend span', (ls) => ls.some((l) => l.textContent === 'context creation')), 'cost: the legend names context creation');
  // The opened row labels its time by cost.
  await page.click('#ss-table tr.ss-row >> nth=0');
  const ev = await page.$eval('tr.ss-detail .ss-ev', (dl) => Array.from(dl.querySelectorAll('dt')).map((d) => d.textContent));
  check(ev.includes('GPU held back') && !ev.includes('Host blocked'), 'cost: SYNC101 evidence says GPU held back: ' + JSON.stringify(ev));
  // Tick labels are distinct at every zoom: the whole run, 1 ms, and the narrowest view (1 us).
  const views = [null, [150000000, 151000000], [150456700, 150457700]];
  for (const v of views) {
    const ticks = await page.evaluate((w) => {
      if (w) window.ssTimeline.setView(w[0], w[1]); else window.ssTimeline.setView(0, 1e12);
      return window.ssTimeline.ticks();
    }, v);
    const what = 'cost: ticks at ' + (v ? (v[1] - v[0]) + ' ns' : 'the whole run') + ' ' + JSON.stringify(ticks);
    check(ticks.length >= 3, what + ' are several');
    eq(new Set(ticks).size, ticks.length, what + ' are distinct');
  }
  const deep = await page.evaluate(() => window.ssTimeline.ticks());
  check(deep.every((t) => /^150\.45[67]\d ms$/.test(t)), 'cost: at 1 us, ticks to a tenth of a microsecond: ' + JSON.stringify(deep));
  await page.close();
}

async function testBig(ctx) {
  if (!fs.existsSync(path.join(pagesDir, 'big.html'))) return null;
  const size = fs.statSync(path.join(pagesDir, 'big.html')).size;
  const r = await open(ctx, 'big.html');
  const { page } = r;
  finish(r, 'big');
  const timing = await page.evaluate(() => window.ssTiming);
  const data = await pageData(page);
  eq(data.findings.length, 10000, 'big: 10,000 findings');
  eq(data.timeline.ops, 1000000, 'big: 1,000,000 operations');
  eq(await shownCount(page), 8000, 'big: call sites (2,000 joined)');
  eq(await page.$$eval('#ss-table tbody', (b) => b.map((x) => Number(x.dataset.matches))), [2000, 4000, 2000], 'big: per group');
  eq((await rowsOf(page)).length, 750, 'big: the first 250 rows of each group are in the page');
  await openTable(page);
  await page.click('#ss-table tbody[data-group="1"] tr.ss-more button >> nth=1');
  eq((await rowsOf(page)).length, 2500, 'big: show all of one group');
  eq(await page.$eval('#ss-tl', (c) => Number(c.dataset.lanes)), 6, 'big: six lanes');
  await page.click('#ss-tl-reset');
  await page.waitForTimeout(50);
  const drawFull = await page.evaluate(() => { const t = performance.now(); window.ssTimeline.draw(); return performance.now() - t; });
  const rectsFull = await page.$eval('#ss-tl', (c) => Number(c.dataset.rects));
  const zoomed = await page.evaluate(() => {
    const v = window.ssTimeline.view();
    const t = performance.now();
    window.ssTimeline.setView(v[0] + (v[1] - v[0]) * 0.5, v[0] + (v[1] - v[0]) * 0.5 + 200000);
    return performance.now() - t;
  });
  const rectsZoomed = await page.$eval('#ss-tl', (c) => Number(c.dataset.rects));
  check(rectsFull < 20000, 'big: zoomed out, operations are aggregated (' + rectsFull + ' rectangles)');
  check(rectsZoomed > 0, 'big: zoomed in, operations are drawn one by one (' + rectsZoomed + ')');
  check(timing.sinceNavigation < 10000, 'big: interactive in ' + Math.round(timing.sinceNavigation) + ' ms');
  await page.close();
  return { size, timing, wall: r.wall, drawFull, drawZoomed: zoomed, rectsFull, rectsZoomed };
}

async function testCli(ctx) {
  const exe = process.env.SS_SYNCSCOPE;
  if (!exe) return;
  const run = (args) => spawnSync(exe, args, { cwd: pagesDir, encoding: 'utf8' });
  let res = run(['report', 'cli-lint.json', 'cli-run.json', '-o', 'cli.html', '--root', fixtures, '--title', 'app: lint and run']);
  eq(res.status, 0, 'cli: report exits 0 (' + res.stderr + ')');
  await testJoined(ctx, 'cli.html', 'cli');
  res = run(['report', 'cli-lint.json', 'cli-run.json', '--no-trace', '-o', 'cli-notrace.html']);
  eq(res.status, 0, 'cli: --no-trace exits 0');
  const r = await open(ctx, 'cli-notrace.html');
  finish(r, 'cli-notrace');
  eq(await r.page.$eval('#ss-timeline-section', (e) => e.hidden), true, 'cli: --no-trace draws no timeline');
  await r.page.close();
  res = run(['report', 'cli-run.sstrace', '-o', 'cli-trace.html']);
  eq(res.status, 0, 'cli: a trace alone is analyzed (' + res.stderr + ')');
  const t = await open(ctx, 'cli-trace.html');
  finish(t, 'cli-trace');
  eq(await t.page.$eval('#ss-tl', (c) => Number(c.dataset.lanes)), 5, 'cli: trace input draws its lanes');
  // The trace names no GPU and no driver: the header says which device ran the work instead.
  const meta = await t.page.$$eval('#ss-meta div', (ds) => Object.fromEntries(ds.map((d) => [d.querySelector('dt').textContent, d.querySelector('dd').textContent])));
  eq([meta.GPU, meta.Driver, meta.CUDA], ['GPU 0 (name not recorded)', 'not recorded', 'not recorded'], 'cli: GPU and driver filled from the trace');
  await t.page.close();
  // A trace recorded on an H200 names the GPU, the driver and CUDA: no 'not recorded'.
  res = run(['report', path.join(fixtures, '..', '..', 'data', 'gpu_device_metadata.sstrace'), '-o', 'cli-metadata.html']);
  eq(res.status, 0, 'cli: the H200 trace is drawn (' + res.stderr + ')');
  const g = await open(ctx, 'cli-metadata.html');
  finish(g, 'cli-metadata');
  const gmeta = await g.page.$$eval('#ss-meta div', (ds) => Object.fromEntries(ds.map((d) => [d.querySelector('dt').textContent, d.querySelector('dd').textContent])));
  eq([gmeta.GPU, gmeta.Driver, gmeta.CUDA], ['NVIDIA H200', '580.159.04', '13.0'], 'cli: GPU, driver and CUDA recorded on the GPU');
  await g.page.close();
  res = run(['report', 'no-such-file.json', '-o', 'x.html']);
  eq(res.status, 2, 'cli: a missing input is exit 2');
  check(!fs.existsSync(path.join(pagesDir, 'x.html')), 'cli: nothing written on error');
  res = run(['report']);
  eq(res.status, 2, 'cli: no input is exit 2');
  res = run(['report', '--format', 'sarif', 'cli-lint.json']);
  eq(res.status, 2, 'cli: report writes html only');
  // `lint --format html` writes the same findings as `lint --format json`, as one page.
  const src = path.join(fixtures, 'app.cu');
  res = run(['lint', '--no-cache', '--fail-on', 'none', '--format', 'json', '-o', 'cli-direct.json', src]);
  eq(res.status, 0, 'cli: lint --format json exits 0 (' + res.stderr + ')');
  const direct = JSON.parse(fs.readFileSync(path.join(pagesDir, 'cli-direct.json'), 'utf8'));
  res = run(['lint', '--no-cache', '--fail-on', 'none', '--format', 'html', '-o', 'cli-direct.html', src]);
  eq(res.status, 0, 'cli: lint --format html exits 0 (' + res.stderr + ')');
  const d = await open(ctx, 'cli-direct.html');
  finish(d, 'cli-direct');
  check(direct.findings.length > 0, 'cli: the fixture has lint findings');
  eq((await pageData(d.page)).findings.length, direct.findings.length, 'cli: lint --format html shows the JSON findings');
  eq((await rowsOf(d.page)).length, direct.findings.length, 'cli: lint --format html rows');
  await d.page.close();
}

(async () => {
  const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncscope-chromium-'));
  const ctx = await chromium.launchPersistentContext(userDir, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync']
  });
  let big = null;
  try {
    await testLint(ctx);
    await testRun(ctx);
    await testJoined(ctx, 'joined.html', 'joined');
    await testMulti(ctx);
    await testTwoDevices(ctx);
    await testCost(ctx);
    await testAdversarial(ctx);
    await testCli(ctx);
    big = await testBig(ctx);
  } catch (e) {
    failed++;
    console.log('FAIL: exception: ' + (e && e.stack || e));
  } finally {
    await ctx.close();
    fs.rmSync(userDir, { recursive: true, force: true });
  }
  if (big) {
    console.log('big report: ' + (big.size / 1048576).toFixed(1) + ' MiB; interactive ' +
      Math.round(big.timing.sinceNavigation) + ' ms after navigation (script ' + Math.round(big.timing.total) +
      ' ms: data ' + Math.round(big.timing.parse) + ', rows ' + Math.round(big.timing.rows) +
      ', inflate ' + Math.round(big.timing.inflate) + ', decode ' + Math.round(big.timing.decode) +
      ', timeline ' + Math.round(big.timing.timeline) + '); load in the test ' + big.wall +
      ' ms; redraw zoomed out ' + big.drawFull.toFixed(1) + ' ms (' + big.rectsFull + ' rects), zoomed in ' +
      big.drawZoomed.toFixed(1) + ' ms (' + big.rectsZoomed + ' rects)');
  }
  console.log(passed + ' passed, ' + failed + ' failed');
  process.exit(failed ? 1 : 0);
})();
