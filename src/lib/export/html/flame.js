// sonde's HTML profile: builds the flame tree from the embedded tables and
// draws it on a canvas. No library: a node table with parent indexes (a
// parent always comes before its children) turns every tree computation
// into a linear pass over typed arrays, which keeps 1M nodes smooth.
'use strict';
(function () {
  // Phase times for bench/bench_html.sh (ms since navigation start).
  const phases = { start: performance.now() };
  const D = JSON.parse(document.getElementById('sonde-data').textContent);
  phases.parsed = performance.now();
  const S = D.strs, FR = D.frames, NF = FR.length / 4;
  // Nodes come depth first, children by name: [dist, frame, self, samples]
  // or [-dist, frame] when no sample ends there.
  const DN = D.nodes, unit = D.unit || 1;
  let N = 1;
  for (let j = 0; j < DN.length; N++) j += DN[j] < 0 ? 2 : 4;
  const parent = new Uint32Array(N), frame = new Uint32Array(N), depth = new Uint16Array(N);
  // self0/smp0: the whole profile; self/smp: what the time and thread
  // filters keep of it (the same until one is set).
  const self0 = new Float64Array(N), smp0 = new Float64Array(N);
  const self = new Float64Array(N), tot = new Float64Array(N);
  const smp = new Float64Array(N), tsmp = new Float64Array(N);
  const diff = !!D.diff;
  const bself = new Float64Array(diff ? N : 0), btot = new Float64Array(diff ? N : 0);
  self0[0] = (D.rootSelf || 0) * unit; smp0[0] = D.rootSamples || 0;
  let maxDepth = 0;
  for (let i = 1, j = 0; i < N; i++) {
    const a = DN[j];
    const p = i - (a < 0 ? -a : a);
    parent[i] = p; frame[i] = DN[j + 1];
    if (a < 0) j += 2; else { self0[i] = DN[j + 2] * unit; smp0[i] = DN[j + 3]; j += 4; }
    const d = depth[p] + 1; depth[i] = d; if (d > maxDepth) maxDepth = d;
    if (diff) bself[i] = D.base[i - 1] * unit;
  }
  self.set(self0); smp.set(smp0);
  if (diff) {
    btot.set(bself);
    for (let i = N - 1; i > 0; i--) btot[parent[i]] += btot[i];
  }
  // Totals from self weights: children come after their parent.
  function sumTotals() {
    tot.set(self); tsmp.set(smp);
    for (let i = N - 1; i > 0; i--) { const p = parent[i]; tot[p] += tot[i]; tsmp[p] += tsmp[i]; }
  }
  sumTotals();
  phases.tree = performance.now();
  const fname = f => S[FR[f * 4]], fdso = f => S[FR[f * 4 + 1]], fsrc = f => S[FR[f * 4 + 2]];
  const fkind = f => FR[f * 4 + 3];
  const name = i => (i ? fname(frame[i]) : 'all');
  // Children in CSR form; index order is already name order.
  const first = new Uint32Array(N + 1), kids = new Uint32Array(Math.max(N - 1, 1));
  for (let i = 1; i < N; i++) first[parent[i] + 1]++;
  for (let i = 0; i < N; i++) first[i + 1] += first[i];
  { const fill = first.slice(0, N); for (let i = 1; i < N; i++) kids[fill[parent[i]]++] = i; }
  phases.children = performance.now();
  // x offset of every node in weight units from the root's left edge.
  const xoff = new Float64Array(N);
  function layout() {
    for (let i = 0; i < N; i++) {
      let x = xoff[i];
      for (let k = first[i]; k < first[i + 1]; k++) { const c = kids[k]; xoff[c] = x; x += tot[c]; }
    }
  }
  layout();
  let total = tot[0] || 1;
  const btotal = diff ? (btot[0] || 1) : 1;

  // ---- colours ----
  const hash = s => { let h = 2166136261; for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619); return h >>> 0; };
  const KINDS = [['user', 1, [205, 80, 40]], ['kernel', 1, [120, 160, 230]], ['JIT', 2, [60, 190, 60]], ['inlined', 4, [80, 190, 200]]];
  function kindOf(f) { const k = fkind(f); return k & 4 ? 3 : k & 2 ? 2 : k & 1 ? 1 : 0; }
  const fcol = new Array(NF);
  let colourMode = 'kind';
  function computeColours() {
    for (let f = 0; f < NF; f++) {
      const h = hash(fname(f)), v1 = h % 55, v2 = (h >>> 8) % 55;
      if (colourMode === 'dso') {
        const hue = hash(fdso(f) || '?') % 360;
        fcol[f] = `hsl(${hue},${55 + v1 % 20}%,${62 + v2 % 14}%)`;
      } else {
        const k = kindOf(f);
        fcol[f] = k === 3 ? `rgb(${80 + v1},${190 + (v2 >> 1)},${200 + (v2 >> 1)})`
          : k === 1 ? `rgb(${100 + v1},${140 + (v2 >> 1)},230)`
          : k === 2 ? `rgb(${60 + v1},${190 + (v2 >> 1)},${60 + v1})`
          : `rgb(${205 + v1},${80 + v2 * 2},${40 + (v1 >> 1)})`;
      }
    }
  }
  function diffColour(i) {
    const d = tot[i] / total - btot[i] / btotal; // share change of the frame
    const t = Math.min(1, Math.abs(d) * 20), c = Math.round(235 - 175 * t);
    return d > 0 ? `rgb(240,${c},${c})` : d < 0 ? `rgb(${c},${c},240)` : 'rgb(235,235,235)';
  }

  // ---- state ----
  const cv = document.getElementById('flame'), ctx = cv.getContext('2d');
  const tip = document.getElementById('tip');
  const ROW = 18;
  let zoom = 0, icicle = false, matched = null, cssW = 0;
  // What the last render drew: node ids and rects, for hit tests and tests.
  let drawn = new Uint32Array(0), dx = new Float32Array(0), dw = new Float32Array(0), nd = 0;
  const api = window.sonde = {
    nodes: N, diff, firstPaintMs: 0, phases, lastRenderMs: 0,
    drawnFrames() { const out = []; for (let k = 0; k < nd; k++) out.push(name(drawn[k])); return out; },
    drawnRects() {
      const out = [];
      for (let k = 0; k < nd; k++) { const i = drawn[k]; out.push({ name: name(i), x: dx[k], y: rowY(depth[i]), w: dw[k], h: ROW - 1, depth: depth[i], matched: !!(matched && matched[i]), fill: diff ? diffColour(i) : '' }); }
      return out;
    },
    zoomTo(i) { setZoom(i); }, get zoom() { return name(zoom); }, matchShare: 0,
  };

  function rowY(d) { return icicle ? d * ROW : (maxDepth - d) * ROW; }

  function render() {
    const t0 = performance.now();
    const dpr = window.devicePixelRatio || 1;
    cssW = cv.clientWidth || cv.parentNode.clientWidth || 800;
    const cssH = (maxDepth + 1) * ROW;
    if (cv.width !== Math.round(cssW * dpr) || cv.height !== Math.round(cssH * dpr)) {
      cv.width = Math.round(cssW * dpr); cv.height = Math.round(cssH * dpr); cv.style.height = cssH + 'px';
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cssW, cssH);
    ctx.font = '12px monospace'; ctx.textBaseline = 'middle';
    const cw = ctx.measureText('m').width || 7;
    const scale = cssW / (tot[zoom] || 1), x0 = xoff[zoom];
    const ids = [], xs = [], ws = [];
    const draw = (i, x, w) => {
      ids.push(i); xs.push(x); ws.push(w);
      const y = rowY(depth[i]);
      ctx.fillStyle = matched && matched[i] ? '#e040ff' : diff ? diffColour(i) : i ? fcol[frame[i]] : '#ccc';
      ctx.fillRect(x, y, Math.max(w - 0.5, 0.5), ROW - 1);
      const chars = Math.floor((w - 6) / cw);
      if (chars >= 3) {
        let s = name(i); if (s.length > chars) s = s.slice(0, chars - 2) + '..';
        ctx.fillStyle = '#000'; ctx.fillText(s, x + 3, y + ROW / 2);
      }
    };
    for (let a = zoom, path = []; ; a = parent[a]) { path.push(a); if (!a) { for (let k = path.length - 1; k > 0; k--) draw(path[k], 0, cssW); break; } }
    // Depth-first from the zoomed node; subtrees under 0.3 px are skipped.
    const stack = [zoom];
    while (stack.length) {
      const i = stack.pop(), w = tot[i] * scale;
      if (w < 0.3) continue;
      draw(i, (xoff[i] - x0) * scale, w);
      for (let k = first[i + 1]; k-- > first[i];) stack.push(kids[k]);
    }
    drawn = Uint32Array.from(ids); dx = Float32Array.from(xs); dw = Float32Array.from(ws); nd = ids.length;
    api.lastRenderMs = performance.now() - t0;
    return api.lastRenderMs;
  }

  function hit(ev) {
    const r = cv.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top;
    for (let k = nd - 1; k >= 0; k--) {
      const i = drawn[k], ry = rowY(depth[i]);
      if (y >= ry && y < ry + ROW && x >= dx[k] && x < dx[k] + dw[k]) return i;
    }
    return -1;
  }
  const pct = (v, t) => (100 * v / t).toFixed(2) + '%';
  function describe(i) {
    let s = name(i) + '\n' + tsmp[i] + ' samples, ' + pct(tot[i], total) + ' total, ' + pct(self[i], total) + ' self';
    if (diff) s += '\nbefore ' + pct(btot[i], btotal) + ', after ' + pct(tot[i], total);
    if (i) {
      const f = frame[i];
      if (fdso(f)) s += '\n' + fdso(f);
      if (fsrc(f)) s += '\n' + fsrc(f);
      s += '\n' + KINDS[kindOf(f)][0];
    }
    return s;
  }
  cv.addEventListener('mousemove', ev => {
    const i = hit(ev);
    if (i < 0) { tip.style.display = 'none'; return; }
    tip.textContent = describe(i); tip.style.display = 'block';
    const r = cv.getBoundingClientRect();
    let left = ev.clientX - r.left + 12; if (left + 300 > cssW) left = Math.max(0, left - 320);
    tip.style.left = left + 'px'; tip.style.top = (ev.clientY - r.top + 14) + 'px';
  });
  cv.addEventListener('mouseleave', () => { tip.style.display = 'none'; });
  cv.addEventListener('click', ev => { const i = hit(ev); if (i >= 0) setZoom(i); });

  // ---- zoom and breadcrumb ----
  const crumbs = document.getElementById('crumbs');
  function setZoom(i) {
    zoom = i; render();
    crumbs.textContent = '';
    const path = []; for (let a = i; ; a = parent[a]) { path.unshift(a); if (!a) break; }
    path.forEach((a, k) => {
      if (k) { const sp = document.createElement('span'); sp.className = 'sep'; sp.textContent = '›'; crumbs.appendChild(sp); }
      const el = document.createElement(a === i ? 'b' : 'a');
      el.textContent = name(a); if (a !== i) el.onclick = () => setZoom(a);
      crumbs.appendChild(el);
    });
  }

  // ---- search ----
  const search = document.getElementById('search'), matchEl = document.getElementById('match');
  function doSearch() {
    const q = search.value;
    if (!q) { matched = null; matchEl.textContent = ''; api.matchShare = 0; render(); return; }
    let re; try { re = new RegExp(q, 'i'); } catch (e) { re = new RegExp(q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i'); }
    const fm = new Uint8Array(NF); for (let f = 0; f < NF; f++) fm[f] = re.test(fname(f)) ? 1 : 0;
    matched = new Uint8Array(N);
    const under = new Uint8Array(N); // a matched ancestor already counts this weight
    let w = 0;
    for (let i = 1; i < N; i++) {
      const p = parent[i];
      under[i] = under[p] | matched[p];
      if (fm[frame[i]]) { matched[i] = 1; if (!under[i]) w += tot[i]; }
    }
    api.matchShare = 100 * w / total;
    matchEl.textContent = 'matched ' + api.matchShare.toFixed(2) + '%';
    render();
  }
  search.addEventListener('input', doSearch);

  // ---- top functions: self, total (recursion counted once), samples ----
  const fself = new Float64Array(NF), ftot = new Float64Array(NF), fsmp = new Float64Array(NF);
  const fbtot = new Float64Array(diff ? NF : 0);
  const rows = [];
  // recur[i]: an ancestor of node i has its function, whose total
  // already holds i's. Fixed by the tree, so found once, depth first.
  const recur = new Uint8Array(N);
  {
    const onPath = new Uint32Array(NF), st = [0];
    const seen = new Uint8Array(N);
    while (st.length) {
      const i = st[st.length - 1];
      if (!seen[i]) {
        seen[i] = 1;
        if (i) { const f = frame[i]; recur[i] = onPath[f] ? 1 : 0; onPath[f]++; }
        for (let k = first[i + 1]; k-- > first[i];) st.push(kids[k]);
      } else { st.pop(); if (i) onPath[frame[i]]--; }
    }
  }
  // One pass per filter change.
  function sumFuncs() {
    fself.fill(0); ftot.fill(0); fsmp.fill(0); fbtot.fill(0);
    for (let i = 1; i < N; i++) {
      const f = frame[i];
      fself[f] += self[i]; fsmp[f] += smp[i];
      if (!recur[i]) { ftot[f] += tot[i]; if (diff) fbtot[f] += btot[i]; }
    }
    rows.length = 0;
    for (let f = 0; f < NF; f++) if (ftot[f] > 0 || (diff && fbtot[f] > 0)) rows.push(f);
  }
  sumFuncs();
  let sortKey = 'self', sortDir = -1, selected = -1;
  const tbody = document.querySelector('#funcs tbody');
  const keyOf = { self: f => fself[f], total: f => ftot[f], samples: f => fsmp[f], name: f => fname(f), dso: f => fdso(f) };
  function fillTable() {
    const kf = keyOf[sortKey];
    rows.sort((a, b) => { const x = kf(a), y = kf(b); return (x < y ? -1 : x > y ? 1 : 0) * sortDir || fname(a).localeCompare(fname(b)); });
    tbody.textContent = '';
    const frag = document.createDocumentFragment();
    for (const f of rows.slice(0, 500)) {
      const tr = document.createElement('tr'); tr.dataset.f = f; tr.title = fdso(f); if (f === selected) tr.className = 'sel';
      for (const v of [pct(fself[f], total), pct(ftot[f], total), String(fsmp[f]), fname(f), fdso(f).split('/').pop()]) {
        const td = document.createElement('td'); td.textContent = v; tr.appendChild(td);
      }
      frag.appendChild(tr);
    }
    tbody.appendChild(frag);
  }
  document.querySelectorAll('#funcs th').forEach(th => th.addEventListener('click', () => {
    const k = th.dataset.k; sortDir = k === sortKey ? -sortDir : (k === 'name' || k === 'dso' ? 1 : -1); sortKey = k; fillTable();
  }));
  tbody.addEventListener('click', ev => { const tr = ev.target.closest('tr'); if (tr) selectFunc(+tr.dataset.f); });
  function relTable(id, m) {
    const tb = document.querySelector('#' + id + ' tbody'); tb.textContent = '';
    [...m.entries()].filter(e => e[1] > 0).sort((a, b) => b[1] - a[1]).slice(0, 50).forEach(([f, w]) => {
      const tr = document.createElement('tr');
      for (const v of [pct(w, total), f < 0 ? '(root)' : fname(f)]) { const td = document.createElement('td'); td.textContent = v; tr.appendChild(td); }
      tr.onclick = () => { if (f >= 0) selectFunc(f); };
      tb.appendChild(tr);
    });
  }
  function selectFunc(f) {
    selected = f;
    const callers = new Map(), callees = new Map();
    for (let i = 1; i < N; i++) {
      if (frame[i] !== f) continue;
      const p = parent[i], pf = p ? frame[p] : -1;
      callers.set(pf, (callers.get(pf) || 0) + tot[i]);
      for (let k = first[i]; k < first[i + 1]; k++) { const c = kids[k]; callees.set(frame[c], (callees.get(frame[c]) || 0) + tot[c]); }
    }
    document.getElementById('relname').textContent = fname(f);
    relTable('callers', callers); relTable('callees', callees);
    api.selected = { name: fname(f), callers: callers.size, callees: callees.size };
    fillTable();
  }
  // Diff: a function's total share after minus before, in points.
  api.diffOf = n => { let a = 0, b = 0; for (let f = 0; f < NF; f++) if (fname(f) === n) { a += ftot[f]; b += diff ? fbtot[f] : ftot[f]; } return 100 * (a / total - b / btotal); };
  api.topRow = () => { const f = rows[0]; return f === undefined ? null : { name: fname(f), dso: fdso(f), self: 100 * fself[f] / total, samples: fsmp[f] }; };
  api.rootSamples = () => tsmp[0];
  api.funcSamples = n => { let c = 0; for (let f = 0; f < NF; f++) if (fname(f) === n) c += fsmp[f]; return c; };

  // ---- legend, controls, keys ----
  const legend = document.getElementById('legend');
  function fillLegend() {
    legend.textContent = '';
    const item = (col, label) => { const s = document.createElement('span'), i = document.createElement('i'); i.style.background = col; s.append(i, label); legend.appendChild(s); };
    if (diff) { item('rgb(240,60,60)', 'grew'); item('rgb(60,60,240)', 'shrank'); item('rgb(235,235,235)', 'unchanged'); return; }
    if (colourMode === 'kind') { KINDS.forEach(k => item(`rgb(${k[2].join(',')})`, k[0])); return; }
    const byDso = new Map(); for (let f = 0; f < NF; f++) byDso.set(fdso(f) || '?', (byDso.get(fdso(f) || '?') || 0) + fself[f]);
    [...byDso.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10)
      .forEach(([d]) => item(`hsl(${hash(d) % 360},62%,68%)`, d.split('/').pop()));
  }
  const colourSel = document.getElementById('colour'), viewBtn = document.getElementById('view');
  colourSel.addEventListener('change', () => { colourMode = colourSel.value; computeColours(); fillLegend(); render(); });
  function toggleView() { icicle = !icicle; viewBtn.textContent = icicle ? 'Flame' : 'Icicle'; render(); }
  viewBtn.addEventListener('click', toggleView);
  function reset() { search.value = ''; if (tl) tl.clear(); doSearch(); setZoom(0); }
  document.getElementById('reset').addEventListener('click', reset);
  document.addEventListener('keydown', ev => {
    if (ev.target === search) { if (ev.key === 'Escape') { reset(); search.blur(); } return; }
    if (ev.target.tagName === 'SELECT') return;
    if (ev.key === '/') { ev.preventDefault(); search.focus(); }
    else if (ev.key === 'Escape') reset();
    else if (ev.key === 'i') toggleView();
    else if (ev.key === 'c') { colourSel.value = colourMode = colourMode === 'kind' ? 'dso' : 'kind'; computeColours(); fillLegend(); render(); }
    else if (ev.key === 'Backspace' && zoom) setZoom(parent[zoom]);
  });
  let resizeTimer = 0;
  window.addEventListener('resize', () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(render, 50); });

  phases.layout = performance.now();
  computeColours(); fillLegend();
  phases.colours = performance.now();
  setZoom(0);
  api.firstPaintMs = performance.now();
  fillTable();
  if (rows.length) selectFunc(rows[0]);
  api.ready = true;

  // ---- time and thread filters ----
  // Keeps, of every node, the samples the filter passes (f: sample k at
  // f.time[k] in lane f.lane[k] ends at node f.leaf[k]; kept when its
  // lane is on and its time in [f.from, f.to)), each at its node's mean
  // weight, then every view is made again from those. f null: all.
  function refilter(f) {
    if (!f) { self.set(self0); smp.set(smp0); } else {
      const { time, lane, leaf, on, from, to } = f;
      smp.fill(0);
      for (let k = 0; k < leaf.length; k++) {
        const t = time[k];
        if (on[lane[k]] && t >= from && t < to) smp[leaf[k]]++;
      }
      for (let i = 0; i < N; i++) self[i] = smp[i] ? smp[i] * (self0[i] / smp0[i]) : 0;
    }
    sumTotals(); layout(); total = tot[0] || 1;
    sumFuncs();
    if (colourMode === 'dso') fillLegend();
    doSearch();
    setZoom(tot[zoom] > 0 ? zoom : 0);
    fillTable();
    if (selected >= 0) selectFunc(selected);
  }
  // The samples follow this script in the page: read once parsed.
  let tl = null;
  function startTimeline() {
    const el = document.getElementById('sonde-timeline');
    const T = el && !diff ? JSON.parse(el.textContent) : null;
    if (!T) return;
    const leafNode = []; for (let i = 0; i < N; i++) if (smp0[i] > 0) leafNode.push(i);
    tl = makeTimeline(T, leafNode, refilter, api);
    tl.load().catch(e => { document.getElementById('tlinfo').textContent = 'timeline: ' + e; });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', startTimeline);
  else startTimeline();
})();
