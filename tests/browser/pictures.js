// SPDX-License-Identifier: LGPL-2.1-only
// Opens the HTML profile and the SVG flame graph in headless Chromium and
// checks what a person would: the frames are drawn, a click zooms, search
// reports the share report gives, the top row is report's top row.
// Prints one PASS/FAIL line per check (tests/cli/test_html.sh runs it).
//
//   node pictures.js EXPECT.json
//
// EXPECT: { html, svg, diff?, shot, frames: [names], top: {name, self},
//           search: {q, share}, sonde, data, threads?: {html, data} }
// With sonde and data, a range dragged on the timeline and threads picked
// in the lanes are checked against sonde report --time / --tid / --comm.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
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

  // Click the last expected frame: it then fills the width. Its widest
  // rect: a sample taken in a prologue skips a caller, and leaves the
  // same function as a sliver elsewhere in the graph.
  const target = want.frames[want.frames.length - 1];
  const r = await page.evaluate(n => window.sonde.drawnRects().filter(d => d.name === n).reduce((a, d) => (!a || d.w > a.w ? d : a), null), target);
  const box = await page.locator('#flame').boundingBox();
  const before = await page.evaluate(() => window.sonde.drawnFrames().length);
  await page.mouse.click(box.x + r.x + Math.min(r.w / 2, 5), box.y + r.y + r.h / 2);
  const z = await page.evaluate(n => ({ zoom: window.sonde.zoom, r: window.sonde.drawnRects().filter(d => d.name === n).reduce((a, d) => (!a || d.w > a.w ? d : a), null),
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
  if (want.sonde) await checkTimeline(page, errors);

  // A phone: the page fits the screen and still draws.
  const ph = await open(browser, want.html, { width: 390, height: 844 });
  await ph.page.waitForFunction(() => window.sonde && window.sonde.ready, null, { timeout: 20000 });
  const fit = await ph.page.evaluate(() => ({ sw: document.documentElement.scrollWidth, n: window.sonde.drawnFrames().length }));
  check(fit.sw <= 390 && fit.n > 0, 'html: a 390 px phone screen draws ' + fit.n + ' frames without sideways scrolling',
    JSON.stringify(fit));
  errors.push(...ph.errors);
  check(!errors.length, 'html: no console errors and no network requests', errors.join(' | '));
}

// report --no-children's samples with @args: the total and the top symbol's.
function reportSamples(data, args) {
  const out = execFileSync(want.sonde, ['report', '-i', data, '--json', '--no-children', '-g', 'none',
    '--sort', 'sym', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const ents = JSON.parse(out).events[0].entries;
  ents.sort((a, b) => b.samples - a.samples || (a.sym < b.sym ? -1 : 1));
  return { total: ents.reduce((a, e) => a + e.samples, 0), top: ents[0] };
}

// What the page shows against report: the flame root's samples and the
// samples of report's top function in the page's table.
async function shown(page, rep) {
  return page.evaluate(n => ({ root: window.sonde.rootSamples(), fn: window.sonde.funcSamples(n),
    info: document.getElementById('tlinfo').textContent, top: window.sonde.topRow() }), rep.top.sym);
}

async function checkTimeline(page, errors) {
  await page.waitForFunction(() => window.sonde.timeline && window.sonde.timeline.ready, null, { timeout: 20000 });
  const all = await page.evaluate(() => window.sonde.rootSamples());
  const box = await page.locator('#tlcanvas').boundingBox();
  check(box && box.height > 0 && box.width > 100, 'html: the timeline shows ' +
    (await page.evaluate(() => window.sonde.timeline.lanes)) + ' lane(s)', JSON.stringify(box));
  // Drag over the middle fifth of the recording.
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  const range = await page.evaluate(() => window.sonde.timeline.range);
  const sec = us => (us / 1e6).toFixed(6);
  const rep = reportSamples(want.data, ['--time', sec(range.startUs) + ',' + sec(range.endUs)]);
  const got = await shown(page, rep);
  check(range && got.root === rep.total && got.root < all && got.fn === rep.top.samples &&
    got.top.samples === rep.top.samples,
  'html: a timeline drag keeps ' + got.root + ' of ' + all + ' samples, the top function ' + rep.top.sym + ' ' +
    got.fn + ' (report --time ' + sec(range.startUs) + ',' + sec(range.endUs) + ': ' + rep.total + ', ' +
    rep.top.samples + ')', JSON.stringify({ range, got, rep }));
  await page.keyboard.press('Escape');
  const back = await page.evaluate(() => ({ root: window.sonde.rootSamples(), range: window.sonde.timeline.range }));
  check(back.root === all && !back.range, 'html: Esc clears the range (' + back.root + ' samples again)', JSON.stringify(back));
  void errors;
}

async function checkThreads(browser) {
  const { page, errors } = await open(browser, want.threads.html, { width: 1280, height: 900 });
  await page.waitForFunction(() => window.sonde && window.sonde.timeline && window.sonde.timeline.ready, null, { timeout: 20000 });
  const lanes = await page.evaluate(() => window.sonde.timeline.threads);
  const all = await page.evaluate(() => window.sonde.rootSamples());
  // Untick the first lane: the others stay.
  await page.locator('#tllabels input').first().uncheck();
  const kept = await page.evaluate(() => window.sonde.timeline.threads);
  const tids = kept.map(t => t.tid).join(',');
  let rep = reportSamples(want.threads.data, ['--tid', tids]);
  let got = await shown(page, rep);
  check(lanes.length >= 3 && kept.length === lanes.length - 1 && got.root === rep.total && got.root < all &&
    got.fn === rep.top.samples,
  'html: unticking thread ' + lanes[0].tid + ' keeps ' + got.root + ' of ' + all + ' samples, ' + rep.top.sym + ' ' + got.fn +
    ' (report --tid ' + tids + ': ' + rep.total + ', ' + rep.top.samples + ')', JSON.stringify({ lanes, got, rep }));
  // One thread alone, with a range on top of it.
  for (let k = 2; k < lanes.length; k++) await page.locator('#tllabels input').nth(k).uncheck();
  const box = await page.locator('#tlcanvas').boundingBox();
  await page.mouse.move(box.x + box.width * 0.1, box.y + 4);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.7, box.y + 4, { steps: 3 });
  await page.mouse.up();
  const range = await page.evaluate(() => window.sonde.timeline.range);
  const sec = us => (us / 1e6).toFixed(6);
  rep = reportSamples(want.threads.data, ['--tid', String(lanes[1].tid), '--time', sec(range.startUs) + ',' + sec(range.endUs)]);
  got = await shown(page, rep);
  check(got.root === rep.total && got.fn === rep.top.samples,
    'html: thread ' + lanes[1].tid + ' and a range keep ' + got.root + ' samples (report --tid --time: ' + rep.total + ')',
    JSON.stringify({ range, got, rep }));
  // The command menu: every thread of that command.
  const comm = lanes[0].comm;
  await page.selectOption('#tlcomm', comm);
  await page.click('#tlclear');
  await page.selectOption('#tlcomm', comm);
  rep = reportSamples(want.threads.data, ['--comm', comm]);
  got = await shown(page, rep);
  check(got.root === rep.total && got.fn === rep.top.samples, 'html: the command menu keeps ' + comm + '\'s ' +
    got.root + ' samples (report --comm: ' + rep.total + ')', JSON.stringify({ got, rep }));
  await page.keyboard.press('Escape');
  check(await page.evaluate(a => window.sonde.rootSamples() === a && window.sonde.timeline.threads.length ===
    window.sonde.timeline.lanes, all), 'html: Esc selects every thread again');
  // A phone: the lanes fit and a drag still works with touch-sized lanes.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(150);
  const fit = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth,
    w: document.getElementById('tlcanvas').clientWidth }));
  check(fit.sw <= 390 && fit.w > 150, 'html: the timeline fits a 390 px phone screen (' + fit.w + ' px of lanes)', JSON.stringify(fit));
  if (want.threads.shot) await page.screenshot({ path: want.threads.shot });
  check(!errors.length, 'html threads: no console errors', errors.join(' | '));
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
  const r0 = await page.evaluate(n => window.sonde.drawnRects().filter(d => d.name === n).reduce((a, d) => (!a || d.w > a.w ? d : a), null), fn.name);
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
    if (want.threads) await checkThreads(browser);
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
