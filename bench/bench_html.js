// SPDX-License-Identifier: LGPL-2.1-only
// Loads an HTML profile in headless Chromium and prints what the page
// measured with performance.now(): when the flame graph was first drawn
// (from navigation start), the browser's first contentful paint, and
// the median time of a zoom (click handler: layout, draw, breadcrumb);
// with a timeline, when its samples were decoded and what a drag over
// the middle fifth took (every view made again from the kept samples).
//   node bench/bench_html.js PAGE.html [ZOOMS]
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require(path.join(__dirname, '../tests/browser/node_modules/playwright-core'));

(async () => {
  const file = path.resolve(process.argv[2]), zooms = +(process.argv[3] || 21);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sonde-bench-'));
  const ctx = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await ctx.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    const errors = [];
    page.on('pageerror', e => errors.push(String(e)));
    await page.goto('file://' + file, { timeout: 120000 });
    await page.waitForFunction(() => window.sonde && window.sonde.ready, null, { timeout: 120000 });
    const r = await page.evaluate(n => {
      const s = window.sonde, fcp = performance.getEntriesByName('first-contentful-paint')[0];
      // Zoom into the widest frames of the first rows, then back to the root.
      const targets = s.drawnRects().filter(d => d.depth >= 1 && d.depth <= 3)
        .sort((a, b) => b.w - a.w).slice(0, n);
      const rects = s.drawnRects();
      const times = [];
      for (const t of targets) {
        const k = rects.indexOf(rects.find(d => d.name === t.name && d.depth === t.depth && d.x === t.x));
        const cv = document.getElementById('flame'), b = cv.getBoundingClientRect();
        const ev = new MouseEvent('click', { clientX: b.left + t.x + 1, clientY: b.top + t.y + t.h / 2, bubbles: true });
        const t0 = performance.now();
        cv.dispatchEvent(ev);
        times.push(performance.now() - t0);
        s.zoomTo(0);
        void k;
      }
      times.sort((a, b) => a - b);
      return { drawn: s.firstPaintMs, fcp: fcp ? fcp.startTime : -1, nodes: s.nodes,
        zoomMedian: times[times.length >> 1], zoomMax: times[times.length - 1], zooms: times.length,
        rootRender: s.lastRenderMs, phases: s.phases };
    }, zooms);
    if (await page.evaluate(() => !!window.sonde.timeline)) {
      await page.waitForFunction(() => window.sonde.timeline.ready, null, { timeout: 120000 });
      const b = await page.locator('#tlcanvas').boundingBox();
      await page.mouse.move(b.x + b.width * 0.4, b.y + 4);
      await page.mouse.down();
      await page.mouse.move(b.x + b.width * 0.6, b.y + 4);
      await page.mouse.up();
      Object.assign(r, await page.evaluate(() => ({ timelineReady: window.sonde.timeline.readyMs,
        rangeFilter: window.sonde.timeline.filterMs, kept: window.sonde.rootSamples() })));
    }
    console.log(JSON.stringify(r));
    if (errors.length) console.error('page errors: ' + errors.join(' | '));
  } finally {
    await ctx.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
})();
