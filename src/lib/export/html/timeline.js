// sonde's HTML profile: the timeline of samples per thread and the
// thread filter. The samples come as deflated (zlib) varint columns (time delta in
// microseconds, zigzag; lane; leaf number in bit planes), inflated with
// the browser's own DecompressionStream. A drag selects a time range, the lane checkboxes
// and the command menu select threads; either calls refilter() so every
// view shows only those samples.
'use strict';
// Made by flame.js once the page (and the samples after its script) is parsed.
function makeTimeline(T, leafNode, refilter, api) {
  const LANE = 16, nl = T.lanes.length;
  const box = document.getElementById('timeline'), cv = document.getElementById('tlcanvas');
  const labels = document.getElementById('tllabels'), info = document.getElementById('tlinfo');
  const commSel = document.getElementById('tlcomm'), clearBtn = document.getElementById('tlclear');
  const ctx = cv.getContext('2d');
  const span = Math.max(T.t1us - T.t0us, 1);
  let time = null, lane = null, leaf = null; // per sample, once loaded
  let range = null; // [from, to) in microseconds from t0
  let sel = null;	 // drag in progress: [x0, x1] css px
  const on = new Uint8Array(nl).fill(1);
  let bins = null, nb = 0, peak = null;
  // readyMs: when the samples were decoded (ms since navigation start);
  // filterMs: what the last range or thread change took (bench_html.sh).
  const state = api.timeline = { samples: T.samples, lanes: T.lanes.length, ready: false, shown: T.samples,
    readyMs: 0, filterMs: 0 };

  // Lane labels: a checkbox each, and a menu of commands.
  const boxes = T.lanes.map((l, k) => {
    const lab = document.createElement('label'), cb = document.createElement('input');
    cb.type = 'checkbox'; cb.checked = true; cb.dataset.lane = k;
    lab.title = l[3] + ' pid ' + l[0] + ' tid ' + l[1] + ', ' + l[2] + ' samples';
    lab.append(cb, l[1] + ' ' + l[3]);
    labels.appendChild(lab);
    cb.addEventListener('change', () => { on[k] = cb.checked ? 1 : 0; commSel.value = ''; apply(); });
    return cb;
  });
  for (const c of [...new Set(T.lanes.map(l => l[3]))].sort()) {
    const o = document.createElement('option'); o.value = o.textContent = c; commSel.appendChild(o);
  }
  commSel.addEventListener('change', () => {
    T.lanes.forEach((l, k) => { on[k] = !commSel.value || l[3] === commSel.value ? 1 : 0; boxes[k].checked = !!on[k]; });
    apply();
  });
  clearBtn.addEventListener('click', () => clear());

  async function load() {
    const b64 = atob(T.zlib), raw = new Uint8Array(b64.length);
    for (let i = 0; i < raw.length; i++) raw[i] = b64.charCodeAt(i);
    const stream = new Blob([raw]).stream().pipeThrough(new DecompressionStream('deflate'));
    const u = new Uint8Array(await new Response(stream).arrayBuffer());
    const n = T.samples;
    time = new Float64Array(n); lane = new Uint32Array(n); leaf = new Uint32Array(n);
    let j = 0;
    const next = () => { let v = 0, m = 1, b; do { b = u[j++]; v += (b & 127) * m; m *= 128; } while (b & 128); return v; };
    for (let i = 0, t = 0; i < n; i++) { const z = next(); t += z % 2 ? -(z + 1) / 2 : z / 2; time[i] = t; }
    for (let i = 0; i < n; i++) lane[i] = next();
    // Leaf numbers in planes of 8 bits (a byte each), then 1, 2 or 4 (a
    // value in each, packed low bits first); number k is the k-th node
    // (in order) where samples end.
    let shift = 0;
    for (const w of T.leafPlanes) {
      const m = 2 ** shift, mask = (1 << w) - 1, per = 8 / w;
      if (w === 8) for (let i = 0; i < n; i++) leaf[i] += u[j + i] * m;
      else for (let i = 0; i < n; i++) leaf[i] += (u[j + Math.floor(i / per)] >> (i % per * w) & mask) * m;
      j += Math.ceil(n * w / 8); shift += w;
    }
    for (let i = 0; i < n; i++) leaf[i] = leafNode[leaf[i]];
    if (j !== u.length) throw new Error('timeline: ' + (u.length - j) + ' bytes left over');
    draw();
    showInfo();
    state.readyMs = performance.now();
    state.ready = true;
  }

  // Sample counts per lane and pixel column.
  function binSamples(w) {
    nb = Math.max(1, Math.floor(w));
    bins = new Uint32Array(nl * nb); peak = new Uint32Array(nl);
    const f = nb / (span + 1);
    for (let i = 0; i < time.length; i++) {
      const b = lane[i] * nb + Math.floor((time[i] - 0) * f);
      const c = ++bins[b]; if (c > peak[lane[i]]) peak[lane[i]] = c;
    }
  }
  const xOf = us => us / (span + 1) * cv.clientWidth;
  const usOf = x => Math.max(0, Math.min(span + 1, Math.round(x / cv.clientWidth * (span + 1))));

  function draw() {
    const dpr = window.devicePixelRatio || 1, w = cv.clientWidth || 300, h = nl * LANE;
    if (cv.width !== Math.round(w * dpr) || cv.height !== Math.round(h * dpr)) {
      cv.width = Math.round(w * dpr); cv.height = Math.round(h * dpr); cv.style.height = h + 'px';
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    if (!time) return;
    if (!bins || nb !== Math.max(1, Math.floor(w))) binSamples(w);
    const bw = w / nb;
    for (let l = 0; l < nl; l++) {
      const y = l * LANE, pk = peak[l] || 1;
      ctx.fillStyle = on[l] ? '#f0eee8' : '#f8f8f8'; ctx.fillRect(0, y, w, LANE - 1);
      for (let b = 0; b < nb; b++) {
        const c = bins[l * nb + b]; if (!c) continue;
        // Square root: sparse columns stay visible next to dense ones.
        const a = 0.25 + 0.75 * Math.sqrt(c / pk);
        ctx.fillStyle = on[l] ? `rgba(205,80,40,${a.toFixed(3)})` : `rgba(150,150,150,${(a / 2).toFixed(3)})`;
        ctx.fillRect(b * bw, y + 1, Math.max(bw, 1), LANE - 3);
      }
    }
    const r = sel ? [Math.min(sel[0], sel[1]), Math.max(sel[0], sel[1])] : range ? [xOf(range[0]), xOf(range[1])] : null;
    if (r) {
      ctx.fillStyle = 'rgba(0,0,0,0.18)';
      ctx.fillRect(0, 0, r[0], h); ctx.fillRect(r[1], 0, w - r[1], h);
      ctx.strokeStyle = '#06c'; ctx.strokeRect(r[0] + 0.5, 0.5, Math.max(r[1] - r[0] - 1, 1), h - 1);
    }
  }

  const sec = us => ((T.t0us + us) / 1e6).toFixed(6);
  function showInfo() {
    const n = api.rootSamples();
    state.shown = n;
    let s = n.toLocaleString('en') + ' of ' + T.samples.toLocaleString('en') + ' samples';
    if (range) s += ', ' + ((range[1] - range[0]) / 1e3).toFixed(3) + ' ms from ' + sec(range[0]) + ' s';
    const threads = on.reduce((a, v) => a + v, 0);
    if (threads < nl) s += ', ' + threads + ' of ' + nl + ' threads';
    info.textContent = s;
    clearBtn.disabled = !range && threads === nl;
  }

  function apply() {
    const all = on.every(v => v), t0 = performance.now();
    if (!time) { draw(); return; }
    if (!range && all) refilter(null);
    else refilter({ time, lane, leaf, on, from: range ? range[0] : -Infinity, to: range ? range[1] : Infinity });
    draw(); showInfo();
    state.filterMs = performance.now() - t0;
  }
  // Clears the range and selects every thread.
  function clear() {
    range = null; on.fill(1); boxes.forEach(cb => { cb.checked = true; }); commSel.value = '';
    apply();
  }

  // The range: [from, to) absolute microseconds, what report --time takes.
  Object.defineProperty(state, 'range', { get: () => (range ? { startUs: T.t0us + range[0], endUs: T.t0us + range[1] } : null) });
  Object.defineProperty(state, 'threads', { get: () => T.lanes.filter((l, k) => on[k]).map(l => ({ pid: l[0], tid: l[1], comm: l[3] })) });

  cv.addEventListener('pointerdown', ev => {
    if (!time) return;
    const x = ev.clientX - cv.getBoundingClientRect().left;
    sel = [x, x]; cv.setPointerCapture(ev.pointerId); ev.preventDefault();
  });
  cv.addEventListener('pointermove', ev => {
    if (!sel) return;
    sel[1] = Math.max(0, Math.min(cv.clientWidth, ev.clientX - cv.getBoundingClientRect().left)); draw();
  });
  const end = () => {
    if (!sel) return;
    const a = Math.min(sel[0], sel[1]), b = Math.max(sel[0], sel[1]);
    sel = null;
    // A click (no drag) clears the range.
    range = b - a < 3 ? null : [usOf(a), usOf(b)];
    apply();
  };
  cv.addEventListener('pointerup', end);
  cv.addEventListener('pointercancel', () => { sel = null; draw(); });
  let resizeTimer = 0;
  window.addEventListener('resize', () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(draw, 50); });
  box.hidden = false;
  draw();
  return { load, clear, get active() { return !!range || !on.every(v => v); } };
}
