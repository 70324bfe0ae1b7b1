// SPDX-License-Identifier: LGPL-2.1-only
// Loads a speedscope export into the speedscope app itself (the npm
// package's dist/release, opened from file:// the way its own CLI opens a
// file: #localProfilePath= to a script that hands the file over) in
// headless Chromium, and checks what the app shows against the file:
// no console errors, the title and profile list (name and total weight
// per thread), the sandwich table's self and total per function, and the
// app's own export of what it loaded (every stack with its weight).
// Prints one PASS/FAIL line per check (tests/cli/test_export.sh runs it).
//
//   node speedscope.js FILE.speedscope.json [TOP]
//
// TOP: the function report --no-children puts first for the first
// profile's thread; the sandwich table must put it first too.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

const file = path.resolve(process.argv[2]);
const want = JSON.parse(fs.readFileSync(file, 'utf8'));
const reportTop = process.argv[3];
let failed = 0;
const pass = m => console.log('PASS: ' + m);
const fail = m => { failed++; console.log('FAIL: ' + m); };
const check = (ok, m, why) => (ok ? pass(m) : fail(m + (why ? ': ' + why : '')));

// "39.25ms", "250.00µs", "1.20s" in nanoseconds (the unit sonde writes).
function parseTime(t) {
  const m = /^([0-9.]+)\s*(ns|µs|us|ms|s)\b/.exec(t.trim());
  if (!m) return NaN;
  return parseFloat(m[1]) * { ns: 1, 'µs': 1e3, us: 1e3, ms: 1e6, s: 1e9 }[m[2]];
}
// The app prints 2 decimals of its unit: equal within that rounding.
const near = (shown, exact) => Math.abs(shown - exact) <= Math.max(exact * 0.005, 10);

// Per profile: "frame;frame;..." to the stack's summed weight, from a
// sampled profile (sonde's) or an evented one (the app's export): there
// the time between two events belongs to the stack open in between.
function stacksOf(doc, p) {
  const names = doc.shared.frames.map(f => f.name);
  const m = new Map();
  const add = (s, w) => {
    const k = s.map(f => names[f]).join(';');
    if (s.length && w) m.set(k, (m.get(k) || 0) + w);
  };
  if (p.type === 'evented') {
    const open = [];
    let at = p.startValue;
    for (const e of p.events) {
      add(open, e.at - at);
      at = e.at;
      if (e.type === 'O') open.push(e.frame);
      else open.pop();
    }
  } else {
    p.samples.forEach((s, i) => add(s, p.weights[i]));
  }
  return m;
}

// Self and total weight per function name of one profile.
function functionsOf(doc, p) {
  const names = doc.shared.frames.map(f => f.name);
  const fns = new Map();
  p.samples.forEach((s, i) => {
    const w = p.weights[i];
    new Set(s.map(f => names[f])).forEach(n => {
      const e = fns.get(n) || { self: 0, total: 0 };
      e.total += w;
      fns.set(n, e);
    });
    if (s.length) fns.get(names[s[s.length - 1]]).self += w;
  });
  return fns;
}

const sum = a => a.reduce((x, y) => x + y, 0);

(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sonde-speedscope-'));
  const loader = path.join(dir, 'load.js');
  fs.writeFileSync(loader, 'speedscope.loadFileFromBase64(' + JSON.stringify(path.basename(file)) + ', ' +
    JSON.stringify(fs.readFileSync(file).toString('base64')) + ');\n');
  const app = path.resolve(__dirname, 'node_modules/speedscope/dist/release/index.html');
  const browser = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    acceptDownloads: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    const errors = [];
    page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', e => errors.push(String(e)));
    page.on('request', r => { if (!r.url().startsWith('file:')) errors.push('network request: ' + r.url()); });
    await page.goto('file://' + app + '#localProfilePath=' + loader);
    const first = want.profiles[want.activeProfileIndex || 0];
    await page.getByText(first.name, { exact: false }).first().waitFor({ timeout: 30000 });

    // The title bar: the first thread's profile, one of N.
    const text = await page.evaluate(() => document.body.innerText);
    const n = want.profiles.length;
    check(text.includes(first.name + ' (1/' + n + ')') || (n === 1 && text.includes(first.name)),
      'speedscope app: opens the file on ' + first.name + ' (1/' + n + ')', text.slice(0, 200));

    // The profile list: every thread with its total weight.
    const rows = await page.evaluate(() => Array.from(document.querySelectorAll('tr'))
      .map(tr => Array.from(tr.querySelectorAll('td')).map(td => td.textContent))
      .filter(c => c.length === 3));
    const bad = want.profiles.filter(p => {
      const r = rows.find(c => c[1] === p.name);
      return !r || !near(parseTime(r[2]), sum(p.weights));
    });
    check(rows.length === n && !bad.length,
      'speedscope app: lists the ' + n + ' thread profiles with their total weights (' +
      rows.map(r => r[1] + ' ' + r[2]).join(', ') + ')',
      'wrong: ' + bad.map(p => p.name + ' ' + sum(p.weights)).join(', ') + ' shown: ' + JSON.stringify(rows));

    // The sandwich table of the first profile: self and total per function.
    await page.getByText('Sandwich').first().click();
    await page.getByText('Symbol Name').first().waitFor({ timeout: 10000 });
    const lines = (await page.evaluate(() => document.body.innerText)).split('\n').map(l => l.trim());
    const shown = [];
    for (let i = lines.indexOf('Total\tSelf\tSymbol Name') + 1; i > 0 && i + 2 < lines.length; i += 3) {
      const total = parseTime(lines[i]), self = parseTime(lines[i + 1]);
      if (isNaN(total) || isNaN(self)) break;
      shown.push({ name: lines[i + 2], total, self });
    }
    const fns = functionsOf(want, first);
    const wrong = shown.filter(r => {
      const e = fns.get(r.name);
      return !e || !near(r.self, e.self) || !near(r.total, e.total);
    });
    const top = [...fns.entries()].sort((a, b) => b[1].self - a[1].self)[0];
    check(shown.length > 0 && !wrong.length && shown[0].name === top[0] &&
      (!reportTop || reportTop === top[0]),
      'speedscope app: the sandwich table shows ' + shown.length + ' functions with the file\'s self and total weights, ' +
      top[0] + ' first' + (reportTop ? ' as in report' : ''), 'report: ' + reportTop + ' wrong: ' + JSON.stringify(wrong.slice(0, 3)) + ' first: ' + JSON.stringify(shown[0]));

    // What the app loaded, as it exports it: every stack and its weight.
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByText('Export').first().click()]);
    const back = JSON.parse(fs.readFileSync(await dl.path(), 'utf8'));
    const diffs = [];
    want.profiles.forEach(p => {
      const q = back.profiles.find(x => x.name === p.name);
      if (!q) { diffs.push(p.name + ': missing'); return; }
      const a = stacksOf(want, p), b = stacksOf(back, q);
      if (a.size !== b.size) diffs.push(p.name + ': ' + a.size + ' stacks vs ' + b.size);
      a.forEach((w, k) => { if (b.get(k) !== w) diffs.push(p.name + ': ' + k + ' ' + w + ' vs ' + b.get(k)); });
    });
    check(back.profiles.length === n && !diffs.length,
      'speedscope app: its export of what it loaded has the file\'s frames and weights, stack by stack (' +
      sum(want.profiles.map(p => stacksOf(want, p).size)) + ' stacks)', diffs.slice(0, 3).join(' | '));
    check(!errors.length, 'speedscope app: no console errors', errors.join(' | '));
  } catch (e) {
    fail('speedscope app: ' + (e && e.stack || e));
  } finally {
    await browser.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
})();
