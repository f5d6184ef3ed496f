/* report.js: renders the syncscope HTML report from its embedded data. Data is read with
 * JSON.parse and put into the page with textContent only; nothing from the data is ever
 * parsed as HTML, turned into a URL or executed. */
'use strict';
(function () {
  const T0 = performance.now();
  const D = JSON.parse(document.getElementById('ss-data').textContent);
  const $ = (id) => document.getElementById(id);
  const SEV = ['note', 'warning', 'error'];
  const GROUP_NAME = { 3: 'Predicted and observed', 1: 'Predicted only', 2: 'Observed only' };
  const GROUP_HINT = {
    3: 'lint predicted it and the run observed it',
    1: 'lint predicted it; the run never observed it',
    2: 'observed at run time; lint could not see it'
  };
  const KINDS = [
    { name: 'kernel', color: '#4e79a7' }, { name: 'copy HtoD', color: '#59a14f' },
    { name: 'copy DtoH', color: '#2ca6a4' }, { name: 'copy DtoD', color: '#9c755f' },
    { name: 'copy', color: '#a5a09a' }, { name: 'memset', color: '#e0b62a' },
    { name: 'API call', color: '#b9c0cc' }, { name: 'host blocked', color: '#d9453b' },
    { name: 'context creation', color: '#8c8fa6' }
  ];
  const OP_CONTEXT = 8;
  const LEGACY_BAND = 'rgba(240, 140, 0, 0.16)';
  const LEGACY_EDGE = 'rgba(220, 120, 0, 0.75)';

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent, tag, cls, text) {
    const e = el(tag, cls, text);
    parent.appendChild(e);
    return e;
  }
  function fmtNs(ns) {
    if (!ns) return '0';
    if (ns >= 1e9) return (ns / 1e9).toFixed(ns >= 1e10 ? 1 : 2) + ' s';
    if (ns >= 1e6) return (ns / 1e6).toFixed(ns >= 1e8 ? 0 : ns >= 1e7 ? 1 : 2) + ' ms';
    if (ns >= 1e3) return (ns / 1e3).toFixed(ns >= 1e5 ? 0 : 1) + ' \u00b5s';
    return Math.round(ns) + ' ns';
  }
  function fmtBytes(b) {
    if (!b) return '0';
    const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let i = 0;
    while (b >= 1024 && i < u.length - 1) { b /= 1024; i++; }
    return (i ? b.toFixed(b >= 100 ? 0 : 1) : b) + ' ' + u[i];
  }
  function pct(a, b) { return b ? (100 * a / b) : 0; }
  function fmtPct(a, b) { return b ? pct(a, b).toFixed(1) + ' %' : '\u2013'; }
  function procLabel(i) {
    const p = D.procs[i];
    if (p.kind === 'lint') return 'lint';
    if (p.rank >= 0) return 'rank ' + p.rank;
    if (runProcs.length > 1) return 'pid ' + p.pid;
    return 'run';
  }

  const procs = D.procs;
  const runProcs = procs.map((p, i) => i).filter((i) => procs[i].kind === 'run');
  const hasLint = procs.some((p) => p.kind === 'lint');
  const hasRun = runProcs.length > 0;
  const joined = hasLint && hasRun;
  const multiProc = runProcs.length > 1;
  const F = D.findings;

  /* ---- header ---- */
  $('ss-title').textContent = D.title;
  const meta = $('ss-meta');
  function metaItem(k, v) {
    if (v === null || v === undefined || v === '') return;
    const d = add(meta, 'div');
    add(d, 'dt', null, k);
    add(d, 'dd', null, v);
  }
  const inputs = procs.map((p) => p.input).filter((x) => x);
  metaItem('Inputs', inputs.join(', '));
  if (hasRun && !multiProc) {
    const p = procs[runProcs[0]];
    metaItem('Program', p.command_line || p.program);
    metaItem('GPU', gpuText(p));
    metaItem('Driver', driverText(p));
    metaItem('CUDA', cudaText(p));
    metaItem('Host', p.hostname);
    metaItem('Started', p.started_at);
  }
  if (hasLint) {
    const files = new Set();
    for (const f of F) if (f.o === 1 && f.k) files.add(f.k);
    metaItem('Sources', D.root + (files.size ? ' (' + files.size + ' file' + (files.size === 1 ? '' : 's') + ' with findings)' : ''));
  } else {
    metaItem('Root', D.root);
  }
  metaItem('Generated', D.generated);
  metaItem('syncscope', D.version);
  document.title = D.title;

  /* ---- call sites (the join) ---- */
  const sites = D.sites.map((s, i) => {
    const members = s.f.map((j) => F[j]);
    const lint = members.filter((f) => f.o === 1);
    const run = members.filter((f) => f.o === 2);
    const lead = run.length ? run[0] : lint[0];
    let sev = 0, cost = 0, max = 0, count = 0, bytes = 0;
    const procSet = new Set();
    for (const f of members) {
      if (f.s > sev) sev = f.s;
      if (f.ev) {
        cost += f.ev.total_ns; count += f.ev.count; bytes += f.ev.bytes;
        if (f.ev.max_ns > max) max = f.ev.max_ns;
        procSet.add(f.p);
      }
    }
    const rule = D.rules[lead.r];
    const anchor = lint.length ? lint[0] : lead; /* lint's path is the repository's */
    const loc = anchor.k || anchor.f || '';
    const hay = [rule.id, rule.name, loc, lead.fn || ''].concat(members.map((f) =>
      [f.m || '', f.h || '', f.fn || '', f.ev ? [f.ev.api, f.ev.stream, f.ev.waited_for].join(' ') : '',
       (f.st || []).map((fr) => fr[0] || '').join(' ')].join(' '))).join('\n').toLowerCase();
    return {
      i, g: s.g, members, lint, run, lead, rule, sev, cost, max, count, bytes, loc,
      line: lead.l, procs: Array.from(procSet).sort((a, b) => a - b), hay, tr: null, detail: null
    };
  });
  const groupCount = { 1: 0, 2: 0, 3: 0 };
  for (const s of sites) groupCount[s.g]++;
  if (joined) {
    $('ss-join-note').textContent =
      'Lint and run findings are joined on rule + file + line: ' + groupCount[3] +
      ' call site' + (groupCount[3] === 1 ? '' : 's') + ' predicted and observed, ' + groupCount[1] +
      ' predicted only, ' + groupCount[2] + ' observed only.' +
      (hasRun ? ' Ordered by the time they cost.' : '');
  } else {
    $('ss-join-note').textContent = hasRun
      ? 'Runtime findings, ordered by the time they cost.'
      : 'Lint findings, by file and line.';
  }

  /* ---- summary ---- */
  /* What a finding's time is, from its rule's cost column (rules/rules.def): only 'host' is
   * host time blocked by a synchronization the program did not ask for. */
  const COST = {
    'host': { label: 'Host blocked', row: 'host blocked', share: true },
    'host-explicit': { label: 'Explicit syncs', row: 'explicit syncs', share: true },
    'gpu-held': { label: 'GPU held back', row: 'GPU held back', share: false },
    'saving': { label: 'Est. saving', row: 'est. saving', share: false },
    'none': { label: 'Time', row: '\u2013', share: false }
  };
  const costOf = (f) => D.rules[f.r].cost;
  const summary = $('ss-summary');
  function card(k, v, s, barPct, red) {
    const c = add(summary, 'div', 'ss-card');
    add(c, 'div', 'k', k);
    add(c, 'div', 'v', v);
    if (s) add(c, 'div', 's', s);
    if (barPct !== undefined) {
      const b = add(c, 'div', red ? 'ss-bar red' : 'ss-bar');
      add(b, 'span').style.width = Math.min(100, Math.max(0, barPct)) + '%';
    }
    return c;
  }
  const bySev = [0, 0, 0];
  for (const f of F) bySev[f.s]++;
  card('Findings', F.length, bySev[2] + ' error, ' + bySev[1] + ' warning, ' + bySev[0] + ' note');
  if (hasLint && !hasRun) {
    const files = new Set(F.map((f) => f.k || f.f).filter((x) => x));
    card('Files', files.size, 'with findings');
    card('Rules', new Set(F.map((f) => f.r)).size, 'of ' + D.rules.length + ' in the catalog');
  }
  if (joined) card('Predicted and observed', groupCount[3], groupCount[1] + ' predicted only, ' + groupCount[2] + ' observed only');
  /* Run findings' time per cost and per process. */
  const costTotal = { 'host': 0, 'host-explicit': 0, 'gpu-held': 0, 'saving': 0, 'none': 0 };
  const costSeen = new Set();
  const procCost = new Map();
  for (const f of F) {
    if (f.o !== 2 || !f.ev || f.lat) continue; /* a latent note's time is in no total */
    const c = costOf(f);
    costTotal[c] += f.ev.total_ns;
    costSeen.add(c);
    const pc = procCost.get(f.p) || { 'host': 0, 'host-explicit': 0, 'gpu-held': 0, 'saving': 0, 'none': 0 };
    pc[c] += f.ev.total_ns;
    procCost.set(f.p, pc);
  }
  let wall = 0, busy = 0, dropped = 0, contextNs = 0;
  for (const i of runProcs) {
    wall += procs[i].wall_ns; busy += procs[i].gpu_busy_ns; dropped += procs[i].dropped;
    contextNs += procs[i].context_ns || 0;
  }
  if (hasRun) {
    card('Wall time', fmtNs(wall), multiProc ? 'summed over ' + runProcs.length + ' processes' : null);
    const host = costTotal.host;
    card('Host blocked', fmtNs(host), fmtPct(host, wall) + ' of wall time, in implicit syncs' +
      (contextNs ? '; context creation (' + fmtNs(contextNs) + ') not counted' : ''), pct(host, wall), true).dataset.cost = 'host';
    if (costSeen.has('host-explicit'))
      card('Explicit syncs', fmtNs(costTotal['host-explicit']), fmtPct(costTotal['host-explicit'], wall) +
        ' of wall time, in syncs the program asked for').dataset.cost = 'host-explicit';
    if (costSeen.has('gpu-held'))
      card('GPU held back', fmtNs(costTotal['gpu-held']), 'GPU time other streams waited behind the legacy default stream').dataset.cost = 'gpu-held';
    if (costSeen.has('saving'))
      card('Est. saving', fmtNs(costTotal.saving), 'predicted by the what-if rules; nothing was blocked').dataset.cost = 'saving';
    card('GPU busy', fmtPct(busy, wall), fmtNs(busy) + ' with work on the GPU', pct(busy, wall));
    if (dropped) card('Events dropped', dropped, 'past the memory cap: figures are lower bounds');
  }
  /* The GPU and driver of a process: the recorded names, else the devices its trace ran on. */
  function gpuText(p) {
    if (p.gpu) return p.gpu;
    if (p.devices && p.devices.length)
      return 'GPU ' + p.devices.join(', ') + ' (name not recorded)';
    return p.kind === 'run' ? 'not recorded' : null;
  }
  function driverText(p) { return p.driver || (p.kind === 'run' ? 'not recorded' : null); }
  /* "13.0 (runtime 12.8)": the driver's CUDA version and the program's runtime, as recorded. */
  function cudaText(p) {
    if (p.cuda && p.cuda_runtime && p.cuda_runtime !== p.cuda) return p.cuda + ' (runtime ' + p.cuda_runtime + ')';
    if (p.cuda) return p.cuda;
    if (p.cuda_runtime) return 'runtime ' + p.cuda_runtime;
    return p.kind === 'run' ? 'not recorded' : null;
  }
  /* Per rule. */
  const breakdown = $('ss-breakdown');
  const perRule = new Map();
  for (const f of F) {
    let r = perRule.get(f.r);
    if (!r) { r = { lint: 0, run: 0, ns: 0, count: 0 }; perRule.set(f.r, r); }
    if (f.o === 1) r.lint++;
    else { r.run++; r.ns += f.lat ? 0 : f.ev.total_ns; r.count += f.ev.count; }
  }
  if (perRule.size) {
    const c = add(breakdown, 'div', 'ss-card wide');
    const t = add(c, 'table', 'ss-rules');
    const hr = add(add(t, 'thead'), 'tr');
    const heads = ['Rule', 'Summary'];
    if (hasLint) heads.push('Lint');
    if (hasRun) heads.push('Run', 'Occurrences', 'Time', 'Counted as', 'Share of wall');
    heads.forEach((h, k) => add(hr, 'th', k >= 2 && h !== 'Counted as' ? 'n' : null, h));
    const tb = add(t, 'tbody');
    const order = Array.from(perRule.keys()).sort((a, b) => (perRule.get(b).ns - perRule.get(a).ns) || (a - b));
    for (const r of order) {
      const v = perRule.get(r), rule = D.rules[r], cost = COST[rule.cost] || COST.none;
      const tr = add(tb, 'tr');
      tr.dataset.cost = rule.cost;
      const td = add(tr, 'td', 'rule', rule.id + ' ');
      add(td, 'small', null, rule.name);
      add(tr, 'td', 'wrap', rule.summary);
      if (hasLint) add(tr, 'td', 'n', v.lint);
      if (hasRun) {
        add(tr, 'td', 'n', v.run);
        add(tr, 'td', 'n', v.count);
        add(tr, 'td', 'n', fmtNs(v.ns));
        add(tr, 'td', 'ss-cost cost-' + rule.cost, v.run ? cost.row : '');
        add(tr, 'td', 'n', v.run && cost.share ? fmtPct(v.ns, wall) : '\u2013');
      }
    }
  }
  if (multiProc) {
    const c = add(breakdown, 'div', 'ss-card wide');
    const t = add(c, 'table', 'ss-procs');
    const hr = add(add(t, 'thead'), 'tr');
    ['Process', 'Program', 'Host', 'GPU', 'Driver', 'CUDA', 'Wall', 'Host blocked', 'GPU held back', 'GPU busy', 'Findings']
      .forEach((h, k) => add(hr, 'th', k >= 6 ? 'n' : null, h));
    const tb = add(t, 'tbody');
    for (const i of runProcs) {
      const p = procs[i], tr = add(tb, 'tr');
      const own = procCost.get(i) || { 'host': 0, 'gpu-held': 0 };
      add(tr, 'td', null, procLabel(i));
      add(tr, 'td', null, p.command_line || p.program);
      add(tr, 'td', null, p.hostname);
      add(tr, 'td', null, gpuText(p));
      add(tr, 'td', null, driverText(p));
      add(tr, 'td', null, cudaText(p));
      add(tr, 'td', 'n', fmtNs(p.wall_ns));
      add(tr, 'td', 'n', fmtNs(own.host) + ' (' + fmtPct(own.host, p.wall_ns) + ')');
      add(tr, 'td', 'n', fmtNs(own['gpu-held']));
      add(tr, 'td', 'n', fmtPct(p.gpu_busy_ns, p.wall_ns));
      add(tr, 'td', 'n', p.findings);
    }
  }

  /* ---- findings table ---- */
  const cols = [{ key: 'caret', label: '' }];
  if (joined) cols.push({ key: 'group', label: 'Group' });
  cols.push({ key: 'sev', label: 'Severity' }, { key: 'rule', label: 'Rule' },
    { key: 'loc', label: 'Location' }, { key: 'msg', label: 'Message' });
  if (multiProc) cols.push({ key: 'proc', label: 'Process' });
  if (hasRun) {
    cols.push({ key: 'count', label: 'Count', n: true }, { key: 'cost', label: 'Time', n: true },
      { key: 'max', label: 'Max', n: true }, { key: 'bytes', label: 'Bytes', n: true });
  }
  const colgroup = el('colgroup');
  for (const c of cols) colgroup.appendChild(el('col', 'c-' + c.key));
  $('ss-table').insertBefore(colgroup, $('ss-table').firstChild);
  const thead = $('ss-thead');
  for (const c of cols) {
    const th = add(thead, 'th', c.n ? 'n' : null, c.label);
    if (c.key === 'group') th.classList.add('ss-gcell');
    if (c.key !== 'caret' && c.key !== 'msg') th.dataset.key = c.key;
    if (c.key === 'msg') th.dataset.key = 'msg';
    c.th = th;
  }
  const table = $('ss-table');
  const groupOrder = joined ? [3, 2, 1] : [hasRun ? 2 : 1];
  const bodies = {};
  for (const g of groupOrder) {
    const tb = add(table, 'tbody');
    tb.dataset.group = String(g);
    const hr = add(tb, 'tr', 'ss-group');
    const th = add(hr, 'th');
    th.colSpan = cols.length;
    th.appendChild(el('span', 'grp grp-' + g, joined ? GROUP_NAME[g] : hasRun ? 'Runtime findings' : 'Lint findings'));
    th.appendChild(document.createTextNode(' '));
    const cnt = add(th, 'span', 'ss-count');
    if (joined) add(th, 'span', 'ss-count', '\u2014 ' + GROUP_HINT[g]);
    bodies[g] = { tb, hr, cnt, rows: [] };
  }
  function cell(tr, c, s) {
    const td = add(tr, 'td', c.n ? 'n' : null);
    switch (c.key) {
      case 'caret': add(td, 'span', 'ss-caret', '\u25B8'); break;
      case 'group': td.className = 'ss-gcell'; add(td, 'span', 'grp grp-' + s.g, s.g === 3 ? 'predicted + observed' : s.g === 1 ? 'predicted' : 'observed'); break;
      case 'sev': add(td, 'span', 'sev sev-' + s.sev, SEV[s.sev]); break;
      case 'rule': { td.className = 'rule'; td.textContent = s.rule.id + ' '; add(td, 'small', null, s.rule.name); break; }
      case 'loc':
        td.className = 'ss-loc';
        td.textContent = s.loc ? s.loc + (s.line ? ':' + s.line : '') : '(unknown)';
        if (s.lead.fn) add(td, 'div', 'ss-fn', s.lead.fn);
        break;
      case 'msg': td.className = 'ss-msg'; kernelText(td, s.lead.m || s.rule.summary); break;
      case 'proc': td.textContent = s.procs.map(procLabel).join(', '); break;
      case 'count': td.textContent = s.run.length ? s.count : ''; break;
      case 'cost':
        if (!s.run.length) break;
        td.textContent = fmtNs(s.cost);
        td.classList.add('cost-' + s.rule.cost);
        td.title = (COST[s.rule.cost] || COST.none).row;
        break;
      case 'max': td.textContent = s.run.length ? fmtNs(s.max) : ''; break;
      case 'bytes': td.textContent = s.bytes ? fmtBytes(s.bytes) : ''; break;
    }
  }
  const T1 = performance.now();
  for (const s of sites) {
    const tr = el('tr', 'ss-row');
    tr.dataset.site = String(s.i);
    tr.dataset.group = String(s.g);
    tr.tabIndex = 0;
    for (const c of cols) cell(tr, c, s);
    s.tr = tr;
    const b = bodies[s.g] || bodies[groupOrder[0]];
    b.rows.push(s);
  }
  function onRowActivate(ev) {
    const tr = ev.target.closest('tr.ss-row');
    if (!tr) return;
    if (ev.type === 'keydown' && ev.key !== 'Enter' && ev.key !== ' ') return;
    if (ev.type === 'keydown') ev.preventDefault();
    toggle(sites[Number(tr.dataset.site)]);
  }
  table.addEventListener('click', (ev) => {
    if (ev.target.closest('tr.ss-detail')) return;
    onRowActivate(ev);
  });
  table.addEventListener('keydown', onRowActivate);

  /* Sorting. */
  const sortKeys = {
    group: (s) => s.g, sev: (s) => s.sev, rule: (s) => s.rule.id, loc: (s) => s.loc, msg: (s) => (s.lead.m || ''),
    proc: (s) => (s.procs.length ? s.procs[0] : -1), count: (s) => s.count, cost: (s) => s.cost,
    max: (s) => s.max, bytes: (s) => s.bytes
  };
  let sortKey = hasRun ? 'cost' : 'loc', sortDir = hasRun ? -1 : 1;
  function compare(a, b) {
    const ka = sortKeys[sortKey](a), kb = sortKeys[sortKey](b);
    let c = 0;
    if (typeof ka === 'number') c = ka - kb;
    else c = ka < kb ? -1 : ka > kb ? 1 : 0;
    if (c === 0 && sortKey === 'loc') c = a.line - b.line;
    if (c === 0) c = (b.cost - a.cost) || (a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : 0) || (a.line - b.line) || (a.i - b.i);
    else c *= sortDir;
    return c;
  }
  function render() {
    for (const g of groupOrder) bodies[g].rows.sort(compare);
    for (const c of cols) {
      if (!c.th.dataset.key) continue;
      if (c.key === sortKey) c.th.setAttribute('aria-sort', sortDir > 0 ? 'ascending' : 'descending');
      else c.th.removeAttribute('aria-sort');
    }
    applyFilters();
  }
  thead.addEventListener('click', (ev) => {
    const th = ev.target.closest('th');
    if (!th || !th.dataset.key) return;
    const k = th.dataset.key;
    if (k === sortKey) sortDir = -sortDir;
    else { sortKey = k; sortDir = (k === 'cost' || k === 'count' || k === 'max' || k === 'bytes' || k === 'sev' || k === 'group') ? -1 : 1; }
    render();
  });

  /* Filters. */
  function fillSelect(sel, label, options) {
    sel.appendChild(el('option', null, label)).value = '';
    for (const [v, t] of options) {
      const o = el('option', null, t);
      o.value = String(v);
      sel.appendChild(o);
    }
    if (options.length < 2 && label !== 'All groups') sel.hidden = options.length === 0;
  }
  const fGroup = $('ss-f-group'), fRule = $('ss-f-rule'), fSev = $('ss-f-sev'), fFile = $('ss-f-file'), fProc = $('ss-f-proc');
  if (joined) fillSelect(fGroup, 'All groups', groupOrder.map((g) => [g, GROUP_NAME[g] + ' (' + groupCount[g] + ')']));
  else fGroup.hidden = true;
  const ruleIds = Array.from(new Set(sites.map((s) => s.lead.r))).sort((a, b) => a - b);
  fillSelect(fRule, 'All rules', ruleIds.map((r) => [D.rules[r].id, D.rules[r].id + ' ' + D.rules[r].name]));
  fillSelect(fSev, 'All severities', [2, 1, 0].filter((v) => sites.some((s) => s.sev === v)).map((v) => [v, SEV[v]]));
  const files = Array.from(new Set(sites.map((s) => s.loc).filter((x) => x))).sort();
  fillSelect(fFile, 'All files', files.map((f) => [f, f]));
  if (multiProc) fillSelect(fProc, 'All processes', runProcs.map((i) => [i, procLabel(i)]));
  else fProc.hidden = true;
  const search = $('ss-search');
  let searchTimer = 0;
  /* Rows are put into the page PAGE at a time per group: a report of thousands of call sites
   * stays quick to lay out. The counts always cover every match. */
  const PAGE = 250;
  for (const g of groupOrder) bodies[g].limit = PAGE;
  function moreRow(b, hiddenCount) {
    const tr = el('tr', 'ss-more');
    const td = add(tr, 'td');
    td.colSpan = cols.length;
    add(td, 'span', 'ss-count', hiddenCount + ' more not shown ');
    const more = add(td, 'button', null, 'Show ' + Math.min(PAGE * 4, hiddenCount) + ' more');
    more.type = 'button';
    more.addEventListener('click', () => { b.limit += PAGE * 4; applyFilters(); });
    const all = add(td, 'button', null, 'Show all');
    all.type = 'button';
    all.addEventListener('click', () => { b.limit = Infinity; applyFilters(); });
    return tr;
  }
  function matches(s, f) {
    if ((f.g && String(s.g) !== f.g) || (f.r && s.rule.id !== f.r) || (f.sv && String(s.sev) !== f.sv) ||
      (f.file && s.loc !== f.file) || (f.pr && s.procs.indexOf(Number(f.pr)) < 0)) return false;
    for (const w of f.words) if (s.hay.indexOf(w) < 0) return false;
    return true;
  }
  function applyFilters() {
    const q = search.value.trim().toLowerCase();
    const f = { g: fGroup.value, r: fRule.value, sv: fSev.value, file: fFile.value, pr: fProc.value,
      words: q ? q.split(/\s+/) : [] };
    let shown = 0;
    for (const gg of groupOrder) {
      const b = bodies[gg];
      const frag = document.createDocumentFragment();
      frag.appendChild(b.hr);
      let n = 0;
      for (const s of b.rows) {
        s.shown = matches(s, f);
        if (!s.shown) continue;
        if (n < b.limit) {
          frag.appendChild(s.tr);
          if (s.detail) frag.appendChild(s.detail);
        }
        n++;
      }
      if (n > b.limit) frag.appendChild(moreRow(b, n - b.limit));
      b.tb.replaceChildren(frag);
      b.hr.hidden = n === 0;
      b.cnt.textContent = n === b.rows.length ? String(n) : n + ' of ' + b.rows.length;
      b.tb.dataset.matches = String(n);
      shown += n;
    }
    $('ss-count').textContent = shown === sites.length
      ? sites.length + ' call site' + (sites.length === 1 ? '' : 's')
      : shown + ' of ' + sites.length + ' call sites';
    $('ss-count').dataset.shown = String(shown);
    $('ss-sites-count').textContent = '(' + (shown === sites.length ? sites.length : shown + ' of ' + sites.length) + ')';
    $('ss-empty').hidden = shown !== 0 || sites.length === 0;
  }
  for (const s of [fGroup, fRule, fSev, fFile, fProc]) s.addEventListener('change', applyFilters);
  search.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(applyFilters, 120);
  });
  $('ss-f-clear').addEventListener('click', () => {
    for (const s of [fGroup, fRule, fSev, fFile, fProc]) s.value = '';
    search.value = '';
    applyFilters();
  });

  /* Kernel and function names as the text report shows them (report/names.c): without
   * template arguments, parameter list and return type; a name whose brackets do not pair is
   * kept whole. */
  function shortName(name) {
    const ANON = '(anonymous namespace)';
    const isIdent = (c) => /[A-Za-z0-9_]/.test(c || '');
    const isOperator = (t, i) => t.startsWith('operator', i) && !isIdent(t[i - 1]) && !isIdent(t[i + 8]);
    let out = '', angle = 0, brace = 0, cut = false, i = 0;
    while (i < name.length) {
      const c = name[i];
      if (angle === 0 && brace === 0 && name.startsWith(ANON, i)) { out += ANON; i += ANON.length; continue; }
      if (angle === 0 && isOperator(name, i)) {
        const rest = name.slice(i + 8);
        const sym = rest.startsWith('()') || rest.startsWith('[]') ? 2 : (rest.match(/^[+\-*/%^&|~!=<>,]*/)[0].length);
        out += name.slice(i, i + 8 + sym);
        i += 8 + sym;
        continue;
      }
      if (c === '<') angle++;
      else if (c === '>' && angle > 0) angle--;
      else if (angle === 0 && c === '{') { brace++; out += c; }
      else if (angle === 0 && c === '}' && brace > 0) { brace--; out += c; }
      else if (angle === 0 && brace === 0 && c === '(') { cut = true; break; }
      else if (angle === 0) out += c;
      i++;
    }
    if (angle !== 0 || brace !== 0 || (out.length === name.length && !cut)) return name;
    out = out.replace(/ +$/, '');
    let start = 0;
    brace = 0;
    for (let k = 0; k < out.length; k++) {
      if (out.startsWith(ANON, k)) { k += ANON.length - 1; continue; }
      if (out[k] === '{') brace++;
      else if (out[k] === '}' && brace > 0) brace--;
      else if (out[k] === ' ' && brace === 0 && !(k >= 8 && isOperator(out, k - 8))) start = k + 1;
    }
    return start >= out.length ? name : out.slice(start);
  }
  /* Appends 'text' to 'parent' with each "kernel 'NAME'" shortened, the full name on hover. */
  function kernelText(parent, text) {
    const MARK = "kernel '";
    let at = 0;
    for (let hit = text.indexOf(MARK); hit >= 0; hit = text.indexOf(MARK, at)) {
      const from = hit + MARK.length;
      let depth = 0, end = -1;
      for (let k = from; k < text.length && end < 0; k++) {
        const c = text[k];
        if ('<({['.includes(c)) depth++;
        else if ('>)}]'.includes(c) && depth > 0) depth--;
        else if (c === "'" && depth === 0) end = k;
      }
      if (end < 0) end = text.indexOf("'", from);
      if (end < 0) break;
      parent.appendChild(document.createTextNode(text.slice(at, from)));
      const full = text.slice(from, end), short = shortName(full);
      const span = add(parent, 'span', short === full ? null : 'ss-kname', short);
      if (short !== full) span.title = full;
      at = end;
    }
    parent.appendChild(document.createTextNode(text.slice(at)));
    return parent;
  }

  /* Details. */
  function paragraphs(parent, text) {
    for (const p of String(text).split(/\n\n+/)) add(parent, 'p', null, p);
  }
  function excerpt(parent, f) {
    if (f.src < 0 || !D.sources[f.src]) return false;
    const src = D.sources[f.src];
    const lines = src.lines.filter((l) => l[0] >= f.l - 3 && l[0] <= f.l + 3);
    if (!lines.length) return false;
    const pre = add(parent, 'pre', 'ss-src');
    for (const [n, text] of lines) {
      const row = add(pre, 'span', n === f.l ? 'hl' : null);
      add(row, 'b', null, n);
      row.appendChild(document.createTextNode(text));
    }
    return true;
  }
  function evidence(parent, f) {
    const dl = add(parent, 'dl', 'ss-ev');
    function item(k, v) {
      if (v === null || v === undefined || v === '') return;
      add(dl, 'dt', null, k);
      add(dl, 'dd', null, v);
    }
    const e = f.ev;
    if (multiProc || runProcs.length) item('Process', procLabel(f.p) + (procs[f.p].program ? ' \u2014 ' + procs[f.p].program : ''));
    item('Occurrences', e.count);
    const cost = COST[costOf(f)] || COST.none;
    item(cost.label, fmtNs(e.total_ns) + (costOf(f) === 'saving' ? '' : ' total, ' + fmtNs(e.max_ns) + ' max') +
      (cost.share && procs[f.p].wall_ns ? ' (' + fmtPct(e.total_ns, procs[f.p].wall_ns) + ' of wall time)' : ''));
    if (e.bytes) item('Bytes', fmtBytes(e.bytes) + ' (' + e.bytes + ')');
    item('API', e.api);
    item('Direction', e.direction);
    item('Host memory', e.host_kind);
    if (e.waited_for) {
      add(dl, 'dt', null, 'Waited for');
      kernelText(add(dl, 'dd'), e.waited_for);
    }
    item('Stream', e.stream);
    if (e.device >= 0) item('Device', e.device);
    for (const [k, v] of (f.x || [])) item(k, v);
    if (f.occ && f.occ.length && timeline) {
      add(dl, 'dt', null, 'Timeline');
      const dd = add(dl, 'dd');
      const longest = f.occ.reduce((a, b) => (b[1] - b[0] > a[1] - a[0] ? b : a));
      const btn = add(dd, 'button', 'ss-link', 'show the longest on the timeline');
      btn.type = 'button';
      btn.addEventListener('click', (ev) => { ev.stopPropagation(); timeline.focus(f, longest); });
      add(dd, 'span', 'ss-count', f.occn + ' matched call' + (f.occn === 1 ? '' : 's'));
    }
  }
  function stack(parent, f) {
    if (!f.st || !f.st.length) return;
    add(parent, 'h3', null, 'Call stack');
    const ol = add(parent, 'ol', 'ss-stack');
    let hidden = 0;
    for (const fr of f.st) {
      const [fn, file, line, mod, py, , skip] = fr;
      if (skip) { hidden++; continue; }
      const name = fn ? (py ? fn : shortName(fn)) : '??';
      let t = name;
      if (file) t += '  ' + file + (line ? ':' + line : '');
      else if (mod) t += '  (' + mod + ')';
      const li = add(ol, 'li', py ? 'py' : null, t);
      if (fn && name !== fn) li.title = fn;
    }
    if (hidden) add(parent, 'p', 'ss-note', hidden + ' frame' + (hidden === 1 ? '' : 's') + ' of the Python interpreter or the C library\'s start not shown');
  }
  function buildDetail(s) {
    const tr = el('tr', 'ss-detail');
    const td = add(tr, 'td');
    td.colSpan = cols.length;
    const grid = add(td, 'div', 'ss-detail-grid');
    const left = add(grid, 'div'), right = add(grid, 'div');
    let shownSrc = false;
    for (const f of s.members) if (!shownSrc) shownSrc = excerpt(left, f);
    if (!shownSrc) {
      const t = s.members.find((f) => f.t);
      if (t) {
        const pre = add(left, 'pre', 'ss-src');
        const row = add(pre, 'span', 'hl');
        add(row, 'b', null, t.l || '');
        row.appendChild(document.createTextNode(t.t));
      } else {
        add(left, 'p', 'ss-note', s.loc ? 'Source not readable at report time.' : 'No source location.');
      }
    }
    for (const f of s.members) {
      add(left, 'div', 'ss-origin', f.o === 1 ? 'Predicted by lint' : 'Observed at run time' + (multiProc ? ' (' + procLabel(f.p) + ')' : ''));
      const p = kernelText(add(left, 'p'), f.m || '');
      if (f.o === 1 && f.c) add(p, 'span', 'ss-count', 'column ' + f.c);
      if (f.h) add(left, 'p', 'ss-note', 'Hint: ' + f.h);
      if (f.ev) evidence(left, f);
      stack(left, f);
    }
    add(right, 'h3', null, s.rule.id + ' ' + s.rule.name + ' (' + s.rule.severity + ')');
    add(right, 'p', null, s.rule.summary);
    paragraphs(add(right, 'div', 'ss-expl'), s.rule.explanation);
    return tr;
  }
  function toggle(s) {
    if (s.detail) {
      s.detail.remove();
      s.detail = null;
      s.tr.classList.remove('open');
      return;
    }
    s.detail = buildDetail(s);
    s.tr.after(s.detail);
    s.tr.classList.add('open');
  }
  function openSite(s) {
    $('ss-findings').open = true;
    if (!s.shown) $('ss-f-clear').click();
    if (!s.tr.isConnected) {
      const b = bodies[s.g] || bodies[groupOrder[0]];
      b.limit = b.rows.indexOf(s) + PAGE;
      applyFilters();
    }
    if (!s.detail) toggle(s);
    s.tr.scrollIntoView({ block: 'center' });
  }

  /* ---- diagnostics ---- */
  if (D.diags.length) {
    $('ss-diags-section').hidden = false;
    const ul = $('ss-diags');
    for (const d of D.diags) {
      add(ul, 'li', null, SEV[d.s] + ': ' + (d.f ? d.f + (d.l ? ':' + d.l : '') + ': ' : '') + d.m);
    }
  }
  $('ss-footer').textContent = 'syncscope ' + D.version + ' \u2014 generated ' + D.generated +
    ' \u2014 this page works offline and loads nothing from the network.';

  /* ---- timeline ---- */
  let timeline = null;
  const TL = D.timeline;

  function decodeBase64(s) {
    s = s.replace(/\s+/g, '');
    if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(s);
    const bin = atob(s);
    const u = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) u[i] = bin.charCodeAt(i);
    return u;
  }
  async function inflate(u) {
    const stream = new Blob([u]).stream().pipeThrough(new DecompressionStream('deflate'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }
  function readVarints(u, pos, n, out, cumulate, laneStarts) {
    /* Values go up to 2^53: no 32-bit bit operations on the accumulated value. */
    let lane = 0, acc = 0;
    for (let i = 0; i < n; i++) {
      if (cumulate) {
        while (lane + 1 < laneStarts.length && i >= laneStarts[lane + 1]) { lane++; acc = 0; }
        if (i === laneStarts[lane]) acc = 0;
      }
      let v = 0, mul = 1, b;
      do { b = u[pos++]; v += (b & 127) * mul; mul *= 128; } while (b & 128);
      if (cumulate) { acc += v; out[i] = acc; } else out[i] = v;
    }
    return pos;
  }

  async function buildTimeline() {
    let t = performance.now();
    const raw = decodeBase64(document.getElementById('ss-trace').textContent);
    const u = TL.compressed ? await inflate(raw) : raw;
    window.ssTiming.inflate = performance.now() - t;
    t = performance.now();
    const N = TL.ops, lanes = TL.lanes;
    const laneStart = new Float64Array(lanes.length + 1);
    for (let i = 0; i < lanes.length; i++) laneStart[i + 1] = laneStart[i] + lanes[i].n;
    const start = new Float64Array(N), dur = new Float64Array(N), end = new Float64Array(N);
    const kind = new Uint8Array(N), name = new Uint32Array(N), bytes = new Float64Array(N);
    const maxEnd = new Float64Array(N);
    let pos = 0;
    pos = readVarints(u, pos, N, start, true, laneStart);
    pos = readVarints(u, pos, N, dur, false);
    kind.set(u.subarray(pos, pos + N)); pos += N;
    pos = readVarints(u, pos, N, name, false);
    pos = readVarints(u, pos, N, bytes, false);
    let span = 0;
    for (let l = 0; l < lanes.length; l++) {
      let m = 0;
      for (let i = laneStart[l]; i < laneStart[l + 1]; i++) {
        end[i] = start[i] + dur[i];
        if (end[i] > m) m = end[i];
        maxEnd[i] = m;
      }
      if (m > span) span = m;
    }
    for (const i of runProcs) if (procs[i].span > span) span = procs[i].span;
    window.ssTiming.decode = performance.now() - t;
    return { N, lanes, laneStart, start, end, kind, name, bytes, maxEnd, span: span || 1 };
  }

  function makeTimeline(T) {
    const section = $('ss-timeline-section');
    section.hidden = false;
    const wrap = $('ss-tl-wrap'), canvas = $('ss-tl'), tip = $('ss-tip');
    const ctx = canvas.getContext('2d');
    const AXIS = 24, LANE = 20, GROUP = 20;
    /* Rows: a group header per process, then its lanes. A stream lane with no operation (a
     * stream created and never used: PyTorch's stream pool) is left out until the toggle shows
     * the empty lanes; laneY is -1 for a lane left out. */
    let rows = [];
    const labels = el('div', 'ss-lanes');
    wrap.insertBefore(labels, canvas);
    const laneY = new Float64Array(T.lanes.length);
    let procStreamsY = new Map();
    let height = AXIS + 4;
    const emptyLanes = T.lanes.filter((ln) => ln.n === 0).length;
    let showEmpty = false;
    const emptyToggle = $('ss-tl-empty');
    if (emptyLanes > 0) {
      emptyToggle.hidden = false;
      emptyToggle.addEventListener('click', () => {
        showEmpty = !showEmpty;
        layout();
        placeContextMarks();
        resize();
      });
    }
    function layout() {
      labels.textContent = '';
      rows = [];
      procStreamsY = new Map();
      const axisLabel = add(labels, 'div', null, '');
      axisLabel.style.height = AXIS + 'px';
      let y = AXIS;
      let lastProc = -1, drawn = 0;
      T.lanes.forEach((ln, i) => {
        if (ln.n === 0 && !showEmpty) {
          laneY[i] = -1;
          return;
        }
        if (ln.p !== lastProc) {
          lastProc = ln.p;
          const p = procs[ln.p];
          const g = add(labels, 'div', 'ss-lane-group', (multiProc ? procLabel(ln.p) + ': ' : '') +
            (p.program || 'process') + (p.gpu ? ' \u2014 ' + p.gpu : ''));
          g.style.height = GROUP + 'px';
          g.style.lineHeight = GROUP + 'px';
          g.title = g.textContent;
          rows.push({ type: 'group', y, h: GROUP, p: ln.p });
          y += GROUP;
        }
        let text;
        if (ln.kind === 'thread') text = 'host thread ' + ln.id;
        else text = 'stream ' + ln.id + (ln.legacy ? ' (legacy default)' : ln.nonblocking ? ' (non-blocking)' : '') +
          (ln.device >= 0 ? ' \u00b7 GPU ' + ln.device : '');
        const d = add(labels, 'div', 'ss-lane-label' + (ln.legacy ? ' legacy' : '') + (ln.n === 0 ? ' empty' : ''), text);
        d.style.height = LANE + 'px';
        d.style.lineHeight = LANE + 'px';
        d.title = text + ' \u2014 ' + ln.n + ' operations';
        d.dataset.lane = String(i);
        laneY[i] = y;
        if (ln.kind === 'stream') {
          const r = procStreamsY.get(ln.p) || { y0: y, y1: y + LANE };
          r.y1 = y + LANE;
          procStreamsY.set(ln.p, r);
        }
        rows.push({ type: 'lane', y, h: LANE, lane: i });
        y += LANE;
        drawn++;
      });
      height = y + 4;
      canvas.dataset.lanes = String(drawn);
      canvas.dataset.emptyLanes = String(emptyLanes);
      emptyToggle.textContent = (showEmpty ? 'Hide ' : 'Show ') + emptyLanes + ' empty lane' + (emptyLanes === 1 ? '' : 's');
      emptyToggle.setAttribute('aria-pressed', showEmpty ? 'true' : 'false');
    }
    layout();
    const legend = $('ss-legend');
    KINDS.forEach((k) => {
      const s = add(legend, 'span');
      add(s, 'i').style.background = k.color;
      s.appendChild(document.createTextNode(k.name));
    });
    {
      const s = add(legend, 'span');
      const i = add(s, 'i');
      i.style.background = LEGACY_BAND;
      i.style.outline = '1px solid ' + LEGACY_EDGE;
      s.appendChild(document.createTextNode('legacy-stream serialization'));
    }

    /* The calls that created a context (kind OP_CONTEXT), each with a label over its bar. */
    const contextMarks = [];
    for (let l = 0; l < T.lanes.length; l++) {
      for (let i = T.laneStart[l]; i < T.laneStart[l + 1]; i++) {
        if (T.kind[i] !== OP_CONTEXT) continue;
        const m = add(wrap, 'div', 'ss-ctx', 'context creation');
        m.style.height = (LANE - 7) + 'px';
        m.title = 'context creation, ' + fmtNs(T.end[i] - T.start[i]) + ': the driver setting up before any GPU work; not a synchronization, not counted as host blocked';
        contextMarks.push({ i, l, el: m });
      }
    }
    function placeContextMarks() {
      for (const m of contextMarks) m.el.style.top = (laneY[m.l] + 3) + 'px';
    }
    placeContextMarks();
    let v0 = 0, v1 = T.span * 1.01, W = 0, dpr = 1;
    let selected = null; /* {f, occ} */
    const occIndex = new Map();
    F.forEach((f, fi) => {
      if (!f.occ) return;
      for (const o of f.occ) occIndex.set(o[2] + ':' + o[0], fi);
    });
    function resize() {
      dpr = window.devicePixelRatio || 1;
      W = Math.max(100, canvas.clientWidth || wrap.clientWidth - 210);
      canvas.width = Math.round(W * dpr);
      canvas.height = Math.round(height * dpr);
      canvas.style.height = height + 'px';
      draw();
    }
    function lowerBound(arr, lo, hi, v) { /* first index in [lo, hi) with arr[i] >= v */
      while (lo < hi) { const m = (lo + hi) >>> 1; if (arr[m] < v) lo = m + 1; else hi = m; }
      return lo;
    }
    const PRIORITY = [3, 4, 2, 1, 5, 6, 0, 8, 7]; /* rank of each kind when several share a pixel */
    let drawnRects = 0;
    function drawLane(l, y0, h, band) {
      const a = T.laneStart[l], b = T.laneStart[l + 1];
      if (a === b) return;
      const k = W / (v1 - v0);
      let i = lowerBound(T.maxEnd, a, b, v0);
      const s = T.start, e = T.end, kind = T.kind;
      while (i < b && s[i] <= v1) {
        const x0 = (s[i] - v0) * k, x1 = (e[i] - v0) * k;
        if (x1 - x0 >= 1 || i + 1 >= b || (s[i + 1] - v0) * k >= Math.floor(x0) + 1) {
          const xa = Math.max(x0, -1), xb = Math.min(Math.max(x1, x0 + 1), W + 1);
          if (!band) ctx.fillStyle = KINDS[kind[i]].color;
          ctx.fillRect(xa, y0, Math.max(1, xb - xa), h);
          drawnRects++;
          i++;
          continue;
        }
        /* Several operations start in this pixel column: one bar for all of them, to the
         * latest end among them, coloured by the most telling kind. */
        const col = Math.floor(x0);
        const j = lowerBound(s, i + 1, b, v0 + (col + 1) / k);
        let best = kind[i];
        for (let q = i + 1; q < j && q < i + 32; q++) if (PRIORITY[kind[q]] > PRIORITY[best]) best = kind[q];
        const xe = Math.min(Math.max((T.maxEnd[j - 1] - v0) * k, col + 1), W + 1);
        if (!band) ctx.fillStyle = KINDS[best].color;
        ctx.fillRect(Math.max(col, -1), y0, xe - Math.max(col, -1), h);
        drawnRects++;
        i = j;
      }
    }
    /* A tick label formatter for ticks 'step' ns apart in a view ending at 'end' ns: the
     * largest unit the view reaches, and the decimals that make the step exact in it. */
    function tickFormat(end, step) {
      const units = [[1e9, ' s'], [1e6, ' ms'], [1e3, ' \u00b5s'], [1, ' ns']];
      let u = units.find((x) => end >= x[0]) || units[3];
      let dec = 0;
      while (dec < 9 && Math.abs(Math.round(step / u[0] * Math.pow(10, dec)) - step / u[0] * Math.pow(10, dec)) > 1e-6) dec++;
      return (t) => (t === 0 ? '0' : (t / u[0]).toFixed(dec) + u[1]);
    }
    let tickLabels = [];
    function niceStep(ns) {
      const p = Math.pow(10, Math.floor(Math.log10(ns)));
      for (const m of [1, 2, 5, 10]) if (m * p >= ns) return m * p;
      return 10 * p;
    }
    function draw() {
      const t = performance.now();
      drawnRects = 0;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, W, height);
      /* Rows. */
      for (const r of rows) {
        if (r.type === 'group') { ctx.fillStyle = '#eef1f5'; ctx.fillRect(0, r.y, W, r.h); }
        ctx.fillStyle = '#e8ebf0';
        ctx.fillRect(0, r.y + r.h - 1, W, 1);
      }
      /* Axis: ticks at multiples of the step, labelled in one unit with as many decimals as
       * the step needs, so that adjacent labels always differ. */
      const k = W / (v1 - v0);
      const step = niceStep((v1 - v0) / Math.max(2, W / 110));
      const fmt = tickFormat(v1, step);
      ctx.font = '11px system-ui, "DejaVu Sans", sans-serif';
      ctx.textBaseline = 'middle';
      tickLabels = [];
      for (let n = Math.ceil(v0 / step); n * step <= v1; n++) {
        const tt = n * step;
        const x = Math.round((tt - v0) * k) + 0.5;
        ctx.fillStyle = '#f0f2f5';
        ctx.fillRect(x, AXIS, 1, height - AXIS);
        ctx.fillStyle = '#c6ccd6';
        ctx.fillRect(x, AXIS - 6, 1, 6);
        ctx.fillStyle = '#5d6677';
        const label = fmt(tt);
        tickLabels.push(label);
        ctx.fillText(label, x + 3, AXIS / 2);
      }
      ctx.fillStyle = '#c6ccd6';
      ctx.fillRect(0, AXIS - 1, W, 1);
      /* Legacy-stream serialization: every legacy-stream operation, as a band across all the
       * streams of its process. */
      ctx.fillStyle = LEGACY_BAND;
      T.lanes.forEach((ln, l) => {
        if (!ln.legacy) return;
        const r = procStreamsY.get(ln.p);
        if (r) drawLane(l, r.y0, r.y1 - r.y0 - 1, true);
      });
      /* Operations. */
      for (let l = 0; l < T.lanes.length; l++) {
        if (laneY[l] < 0) continue;
        const y0 = laneY[l] + 3, h = LANE - 7;
        drawLane(l, y0, h, false);
        if (T.lanes[l].legacy) {
          ctx.fillStyle = LEGACY_EDGE;
          ctx.fillRect(0, laneY[l] + LANE - 3, W, 2);
        }
      }
      /* The selected finding's moments. */
      if (selected) {
        ctx.strokeStyle = '#1d2330';
        ctx.lineWidth = 1.5;
        for (const o of selected.f.occ) {
          const xa = (o[0] - v0) * k, xb = Math.max((o[1] - v0) * k, xa + 2);
          if (xb < -2 || xa > W + 2) continue;
          const ly = laneY[o[2]];
          ctx.strokeRect(xa - 1, ly + 1, xb - xa + 2, LANE - 3);
          if (o === selected.occ) {
            ctx.fillStyle = '#1d2330';
            ctx.beginPath();
            ctx.moveTo(xa, AXIS); ctx.lineTo(xa - 5, AXIS - 7); ctx.lineTo(xa + 5, AXIS - 7); ctx.closePath();
            ctx.fill();
          }
        }
      }
      /* Context creation: a neutral bar, named on the timeline itself. */
      for (const m of contextMarks) {
        const xa = Math.max((T.start[m.i] - v0) * k, 0), xb = Math.min((T.end[m.i] - v0) * k, W);
        m.el.hidden = xb <= xa;
        m.el.style.left = (canvas.offsetLeft + xa) + 'px';
        m.el.style.width = Math.max(0, xb - xa) + 'px';
      }
      const edge = tickFormat(v1, niceStep((v1 - v0) / 100));
      $('ss-tl-range').textContent = edge(v0) + ' \u2013 ' + edge(v1) + '  (' + fmtNs(v1 - v0) + ' shown, ' +
        T.N.toLocaleString('en-US') + ' operations)';
      canvas.dataset.rects = String(drawnRects);
      canvas.dataset.drawMs = (performance.now() - t).toFixed(1);
    }
    let pending = false;
    function redraw() {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { pending = false; draw(); });
    }
    function clampView() {
      const full = T.span * 1.01, minSpan = 1000;
      let w = v1 - v0;
      if (w < minSpan) { const c = (v0 + v1) / 2; v0 = c - minSpan / 2; v1 = c + minSpan / 2; w = minSpan; }
      if (w > full) { v0 = 0; v1 = full; return; }
      if (v0 < 0) { v1 -= v0; v0 = 0; }
      if (v1 > full) { v0 -= v1 - full; v1 = full; }
    }
    function zoom(factor, x) {
      const t = v0 + (x / W) * (v1 - v0);
      v0 = t - (t - v0) * factor;
      v1 = t + (v1 - t) * factor;
      clampView();
      redraw();
    }
    canvas.addEventListener('wheel', (ev) => {
      ev.preventDefault();
      const x = ev.offsetX;
      if (Math.abs(ev.deltaX) > Math.abs(ev.deltaY) || ev.shiftKey) {
        const d = (ev.shiftKey ? ev.deltaY : ev.deltaX) / W * (v1 - v0);
        v0 += d; v1 += d; clampView(); redraw();
      } else {
        zoom(Math.pow(1.0015, ev.deltaY), x);
      }
    }, { passive: false });
    let drag = null;
    canvas.addEventListener('mousedown', (ev) => { drag = { x: ev.clientX, v0, v1, moved: false }; canvas.classList.add('drag'); });
    window.addEventListener('mouseup', () => { if (drag) canvas.classList.remove('drag'); setTimeout(() => { drag = null; }, 0); });
    window.addEventListener('mousemove', (ev) => {
      if (!drag || !(ev.buttons & 1)) return;
      const dx = ev.clientX - drag.x;
      if (Math.abs(dx) > 2) drag.moved = true;
      const d = -dx / W * (drag.v1 - drag.v0);
      v0 = drag.v0 + d; v1 = drag.v1 + d;
      clampView();
      redraw();
    });
    canvas.addEventListener('dblclick', (ev) => zoom(0.4, ev.offsetX));
    canvas.addEventListener('keydown', (ev) => {
      if (ev.key === '+' || ev.key === '=') zoom(0.6, W / 2);
      else if (ev.key === '-') zoom(1 / 0.6, W / 2);
      else if (ev.key === 'ArrowLeft' || ev.key === 'ArrowRight') {
        const d = (ev.key === 'ArrowLeft' ? -0.2 : 0.2) * (v1 - v0);
        v0 += d; v1 += d; clampView(); redraw();
      } else return;
      ev.preventDefault();
    });
    $('ss-tl-in').addEventListener('click', () => zoom(0.5, W / 2));
    $('ss-tl-out').addEventListener('click', () => zoom(2, W / 2));
    $('ss-tl-reset').addEventListener('click', () => { v0 = 0; v1 = T.span * 1.01; redraw(); });

    function hit(x, yy) {
      const r = rows.find((q) => q.type === 'lane' && yy >= q.y && yy < q.y + q.h);
      if (!r) return null;
      const l = r.lane, a = T.laneStart[l], b = T.laneStart[l + 1];
      const k = W / (v1 - v0), t = v0 + x / k, tol = 3 / k;
      let i = lowerBound(T.start, a, b, t + tol) - 1;
      let best = -1;
      for (let q = 0; i >= a && q < 4096; i--, q++) {
        if (T.end[i] >= t - tol) { best = i; if (T.start[i] <= t) break; }
        if (T.maxEnd[i] < t - tol) break;
      }
      return best >= 0 ? { l, i: best } : null;
    }
    function describe(h) {
      const i = h.i, ln = T.lanes[h.l];
      const kn = KINDS[T.kind[i]].name + (T.kind[i] === OP_CONTEXT ? ' (not a synchronization)' : ''), nm = TL.names[T.name[i]] || '';
      let t = (nm ? nm + '\n' : '') + kn + ', ' + fmtNs(T.end[i] - T.start[i]) + ' at ' + fmtNs(T.start[i]);
      if (T.bytes[i]) t += ', ' + fmtBytes(T.bytes[i]);
      t += '\n' + (ln.kind === 'thread' ? 'host thread ' + ln.id : 'stream ' + ln.id + (ln.legacy ? ' (legacy default)' : ''));
      const fi = occIndex.get(h.l + ':' + T.start[i]);
      if (fi !== undefined) t += '\nfinding: ' + D.rules[F[fi].r].id + ' ' + (F[fi].k || F[fi].f || '') + ':' + F[fi].l;
      return t;
    }
    canvas.addEventListener('mousemove', (ev) => {
      if (drag && drag.moved) { tip.hidden = true; return; }
      const h = hit(ev.offsetX, ev.offsetY);
      if (!h) { tip.hidden = true; return; }
      tip.textContent = describe(h);
      tip.hidden = false;
      const left = canvas.offsetLeft + ev.offsetX + 14;
      tip.style.left = Math.min(left, wrap.clientWidth - 300) + 'px';
      tip.style.top = (ev.offsetY + 14) + 'px';
    });
    canvas.addEventListener('mouseleave', () => { tip.hidden = true; });
    canvas.addEventListener('click', (ev) => {
      if (drag && drag.moved) return;
      const h = hit(ev.offsetX, ev.offsetY);
      const sel = $('ss-tl-sel');
      sel.textContent = '';
      if (!h) return;
      sel.appendChild(document.createTextNode(describe(h).replace(/\n/g, ' \u00b7 ')));
      const fi = occIndex.get(h.l + ':' + T.start[h.i]);
      if (fi !== undefined) {
        sel.appendChild(document.createTextNode(' '));
        const b = add(sel, 'button', 'ss-link', 'show the finding');
        b.type = 'button';
        b.addEventListener('click', () => openSite(sites[F[fi].site]));
      }
    });
    window.addEventListener('resize', resize);
    resize();
    return {
      focus(f, occ) {
        selected = { f, occ };
        const w = Math.max((occ[1] - occ[0]) * 8, 20000);
        v0 = occ[0] - w * 0.45; v1 = v0 + w;
        clampView();
        draw();
        section.scrollIntoView({ block: 'start' });
      },
      view() { return [v0, v1]; },
      ticks() { return tickLabels.slice(); },
      kinds() {
        const n = {};
        for (let i = 0; i < T.N; i++) n[KINDS[T.kind[i]].name] = (n[KINDS[T.kind[i]].name] || 0) + 1;
        return n;
      },
      setView(a, b) { v0 = a; v1 = b; clampView(); draw(); },
      draw
    };
  }

  const T2 = performance.now();
  render();
  const T3 = performance.now();
  window.ssTiming = { parse: T1 - T0, rows: T2 - T1, render: T3 - T2 };
  /* Ready once the page has been laid out and painted with everything in it. */
  function ready() {
    requestAnimationFrame(() => setTimeout(() => {
      window.ssTiming.total = performance.now() - T0;
      window.ssTiming.sinceNavigation = performance.now();
      document.body.dataset.ready = '1';
    }, 0));
  }
  /* Printed, the findings table is open. */
  window.addEventListener('beforeprint', () => { $('ss-findings').open = true; });
  /* The findings table is open when there is no timeline above it. */
  /* The call sites are open from the start, costliest first, under the timeline. */
  $('ss-findings').open = true;
  if (TL && TL.ops > 0) {
    buildTimeline().then((T) => {
      const t = performance.now();
      timeline = makeTimeline(T);
      window.ssTiming.timeline = performance.now() - t;
      window.ssTimeline = timeline;
      ready();
    }).catch((e) => {
      $('ss-timeline-section').hidden = false;
      $('ss-tl-sel').textContent = 'The timeline could not be read: ' + e.message;
      ready();
    });
  } else {
    ready();
  }
})();
