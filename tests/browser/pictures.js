// SPDX-License-Identifier: LGPL-2.1-only
// Opens the HTML profile and the SVG flame graph in headless Chromium and
// checks what a person would: the frames are drawn, a click zooms, search
// reports the share report gives, the top row is report's top row.
// Prints one PASS/FAIL line per check (tests/cli/test_html.sh runs it).
//
//   node pictures.js EXPECT.json
//
// EXPECT: { html, svg, diff?, shot, frames: [names], top: {name, self},
//           search: {q, share} }
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

const want = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
let failed = 0;
const pass = m => console.log('PASS: ' + m);
const fail = m => { failed++; console.log('FAIL: ' + m); };
const check = (ok, m, why) => (ok ? pass(m) : fail(m + (why ? ': ' + why : '')));

async function open(browser, file, viewport) {
  const page = await browser.newPage();
  await page.setViewportSize(viewport);
  const errors = [];
  page.on('console', msg => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', e => errors.push(String(e)));
  page.on('request', r => { if (!r.url().startsWith('file:')) errors.push('network request: ' + r.url()); });
  await page.goto('file://' + path.resolve(file));
  return { page, errors };
}

async function checkHtml(browser) {
  const { page, errors } = await open(browser, want.html, { width: 1280, height: 900 });
  await page.waitForFunction(() => window.sonde && window.sonde.ready, null, { timeout: 20000 });
  const drawn = await page.evaluate(() => window.sonde.drawnFrames());
  const missing = want.frames.filter(f => !drawn.includes(f));
  check(!missing.length, 'html: the expected frames are drawn (' + want.frames.join(', ') + ')',
    'missing ' + missing.join(', '));

  // Click the first expected frame that is not the root: it fills the width.
  const target = want.frames[want.frames.length - 1];
  const r = await page.evaluate(n => window.sonde.drawnRects().find(d => d.name === n), target);
  const box = await page.locator('#flame').boundingBox();
  const before = await page.evaluate(() => window.sonde.drawnFrames().length);
  await page.mouse.click(box.x + r.x + Math.min(r.w / 2, 5), box.y + r.y + r.h / 2);
  const z = await page.evaluate(n => ({ zoom: window.sonde.zoom, r: window.sonde.drawnRects().find(d => d.name === n),
    crumbs: document.getElementById('crumbs').textContent }), target);
  check(z.zoom === target && z.r && z.r.w > box.width - 2 && z.crumbs.includes(target),
    'html: a click on ' + target + ' zooms to it (width ' + (r.w | 0) + ' -> ' + (z.r ? z.r.w | 0 : 0) + ' px)',
    JSON.stringify(z));
  await page.click('#crumbs a');
  const back = await page.evaluate(() => ({ zoom: window.sonde.zoom, n: window.sonde.drawnFrames().length }));
  check(back.zoom === 'all' && back.n === before, 'html: the breadcrumb zooms back out', JSON.stringify(back));

  await page.fill('#search', want.search.q);
  const s = await page.evaluate(() => ({ share: window.sonde.matchShare, text: document.getElementById('match').textContent,
    hi: window.sonde.drawnRects().filter(d => d.matched).map(d => d.name) }));
  check(Math.abs(s.share - want.search.share) <= 0.1 && s.hi.length > 0 && s.hi.every(n => new RegExp(want.search.q, 'i').test(n)),
    'html: search "' + want.search.q + '" highlights ' + s.hi.length + ' frames and reports ' + s.text +
    ' (report: ' + want.search.share.toFixed(2) + '%)', JSON.stringify(s));
  await page.keyboard.press('Escape');

  const top = await page.evaluate(() => window.sonde.topRow());
  check(top && top.name === want.top.name && Math.abs(top.self - want.top.self) <= 0.1,
    'html: the table\'s top row is report --no-children\'s (' + want.top.name + ' ' + want.top.self.toFixed(2) + '%)',
    JSON.stringify(top));
  const sel = await page.evaluate(() => window.sonde.selected);
  check(sel && sel.name === top.name && sel.callers > 0, 'html: the selected function shows its callers and callees',
    JSON.stringify(sel));
  // The icicle view draws the same frames upside down.
  await page.keyboard.press('i');
  const ice = await page.evaluate(() => window.sonde.drawnRects().find(d => d.depth === 0).y);
  await page.keyboard.press('i');
  check(ice === 0, 'html: "i" switches to the icicle view (root row at the top)');
  if (want.shot) await page.screenshot({ path: want.shot, clip: { x: 0, y: 0, width: 1280, height: 640 } });

  // A phone: the page fits the screen and still draws.
  const ph = await open(browser, want.html, { width: 390, height: 844 });
  await ph.page.waitForFunction(() => window.sonde && window.sonde.ready, null, { timeout: 20000 });
  const fit = await ph.page.evaluate(() => ({ sw: document.documentElement.scrollWidth, n: window.sonde.drawnFrames().length }));
  check(fit.sw <= 390 && fit.n > 0, 'html: a 390 px phone screen draws ' + fit.n + ' frames without sideways scrolling',
    JSON.stringify(fit));
  errors.push(...ph.errors);
  check(!errors.length, 'html: no console errors and no network requests', errors.join(' | '));
}

async function checkDiff(browser) {
  const { page, errors } = await open(browser, want.diff, { width: 1280, height: 900 });
  await page.waitForFunction(() => window.sonde && window.sonde.ready, null, { timeout: 20000 });
  const d = await page.evaluate(() => ({ diff: window.sonde.diff, legend: document.getElementById('legend').textContent }));
  check(d.diff && d.legend.includes('grew'), 'html diff: differential mode with its legend', JSON.stringify(d));
  // The function whose work was changed on purpose: its share moved as
  // report says, and its frames are red when it grew, blue when it shrank.
  const fn = want.diffFn;
  const got = await page.evaluate(n => ({ pts: window.sonde.diffOf(n),
    fills: window.sonde.drawnRects().filter(r => r.name === n).map(r => r.fill) }), fn.name);
  const rgb = f => f.match(/\d+/g).map(Number);
  const red = got.fills.length && got.fills.every(f => { const [r, , b] = rgb(f); return r > b; });
  const blue = got.fills.length && got.fills.every(f => { const [r, , b] = rgb(f); return b > r; });
  check(Math.abs(got.pts - fn.points) <= 0.1 && (fn.points > 0 ? red : blue),
    'html diff: ' + fn.name + ' moved ' + got.pts.toFixed(2) + ' points (report: ' + fn.points.toFixed(2) +
    ') and is drawn ' + (fn.points > 0 ? 'red' : 'blue'), JSON.stringify(got));
  await page.mouse.move(1, 1);
  const r0 = await page.evaluate(n => window.sonde.drawnRects().find(r => r.name === n), fn.name);
  const box = await page.locator('#flame').boundingBox();
  await page.mouse.move(box.x + r0.x + r0.w / 2, box.y + r0.y + r0.h / 2);
  const tipText = await page.evaluate(() => document.getElementById('tip').textContent);
  check(/before [\d.]+%, after [\d.]+%/.test(tipText), 'html diff: hover shows both shares', tipText);
  check(!errors.length, 'html diff: no console errors', errors.join(' | '));
}

async function checkSvg(browser) {
  const { page, errors } = await open(browser, want.svg, { width: 1280, height: 900 });
  const t = await page.evaluate(() => Array.from(document.querySelectorAll('title')).map(e => e.textContent));
  const missing = want.frames.filter(f => !t.some(x => x.startsWith(f + ' (')));
  check(t.length > 0 && !missing.length, 'svg: opens with ' + t.length + ' titled frames, the expected among them',
    'missing ' + missing.join(', '));
  check(!errors.length, 'svg: no console errors', errors.join(' | '));
}

(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sonde-chromium-'));
  // A persistent context on a fresh directory: playwright's way to pass
  // --user-data-dir, which it refuses among the args.
  const browser = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    await checkHtml(browser);
    if (want.diff) await checkDiff(browser);
    await checkSvg(browser);
  } catch (e) {
    fail('browser run: ' + (e && e.stack || e));
  } finally {
    await browser.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
})();
