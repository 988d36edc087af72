import { chromium } from 'playwright-core';
const [url] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(url);
await page.waitForSelector('body[data-ready="true"]', { timeout: 120000 });
await page.waitForFunction(() => window.viz.model.done, null, { timeout: 600000, polling: 500 });
console.log(await page.evaluate(async () => {
  const v = window.viz; await v.seek(v.end / 4);
  const { components } = await import('./components.js'); v.view.log.update(true); await new Promise(r=>setTimeout(r,300));
  const out = [];
  for (let k = 0; k < 5; k++) { let a = performance.now(); components(v.model, v.view.state); const b = performance.now(); v.view.panel.compKey = null; v.view.panel.listComponents(); const c = performance.now(); v.view.log.update(true); const d = performance.now(); document.body.offsetTop; const e = performance.now(); out.push([+(b - a).toFixed(1), +(c - b).toFixed(1), +(d - c).toFixed(1), +(e - d).toFixed(1)]); await new Promise(r=>requestAnimationFrame(r)); }
  return JSON.stringify(out);
}));
await browser.close();
