import { chromium } from 'playwright-core';
import fs from 'fs';
const [url, out] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(url);
await page.waitForSelector('body[data-ready="true"]', { timeout: 120000 });
await page.waitForFunction(() => window.viz.model.done, null, { timeout: 600000, polling: 500 });
await page.evaluate(async () => { const v = window.viz; await v.seek(v.end / 4); document.getElementById('speed').value = '1'; document.getElementById('speed').dispatchEvent(new Event('change')); });
if (!process.env.NOWAIT) await new Promise((r) => setTimeout(r, 1000));
if (!process.env.NOTRACE) await browser.startTracing(page, { path: out, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink', 'cc', 'gpu', 'viz'] });
const fps = await page.evaluate(async () => {
  document.getElementById('play').click();
  let frames = 0; const start = performance.now();
  await new Promise((done) => { const tick = () => { frames++; if (performance.now() - start < 3000) requestAnimationFrame(tick); else done(); }; requestAnimationFrame(tick); });
  document.getElementById('play').click();
  return frames / 3;
});
if (!process.env.NOTRACE) await browser.stopTracing();
console.log('fps', fps);
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await page.evaluate(async () => { const v = window.viz; await v.seek(v.end / 3); });
await cdp.send('Profiler.start');
await page.evaluate(async () => { document.getElementById('play').click(); await new Promise((r) => setTimeout(r, 3000)); document.getElementById('play').click(); });
const { profile } = await cdp.send('Profiler.stop');
const self = {}; const byId = {}; for (const n of profile.nodes) byId[n.id] = n;
const dt = {}; for (let i = 0; i < profile.samples.length; i++) { dt[profile.samples[i]] = (dt[profile.samples[i]] || 0) + (profile.timeDeltas[i] || 0); }
for (const n of profile.nodes) { const cf = n.callFrame; const k = cf.functionName + ' ' + cf.url.split('/').pop() + ':' + cf.lineNumber; self[k] = (self[k] || 0) + (dt[n.id] || 0); }
for (const [k, d] of Object.entries(self).sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log('self', (d / 1000).toFixed(0).padStart(6), 'ms', k);
const incl = {}; const tot = (n) => { let t = dt[n.id] || 0; for (const c of n.children || []) t += tot(byId[c]); n.tot = t; return t; };
tot(profile.nodes[0]);
const seen = {}; for (const n of profile.nodes) { const cf = n.callFrame; const k = cf.functionName + ' ' + cf.url.split('/').pop() + ':' + cf.lineNumber; incl[k] = (incl[k] || 0) + n.tot; }
for (const [k, d] of Object.entries(incl).sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log('incl', (d / 1000).toFixed(0).padStart(6), 'ms', k);

await browser.close();
// aggregate: per thread, per name, total dur of complete events
if (process.env.NOTRACE) process.exit(0);
const tr = JSON.parse(fs.readFileSync(out)); const ev = tr.traceEvents || tr;
const names = {}; for (const e of ev) if (e.name === 'thread_name') names[e.pid + ':' + e.tid] = e.args.name;
const agg = {};
for (const e of ev) if (e.ph === 'X' && e.dur) { const k = (names[e.pid + ':' + e.tid] || e.tid) + ' | ' + e.name; agg[k] = (agg[k] || 0) + e.dur; }
for (const [k, d] of Object.entries(agg).sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log((d / 1000).toFixed(0).padStart(7), 'ms', k);
