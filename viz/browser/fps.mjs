import { chromium } from 'playwright-core';
const [url] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(url);
await page.waitForSelector('body[data-ready="true"]', { timeout: 120000 });
await page.waitForFunction(() => window.viz.model.done, null, { timeout: 600000, polling: 500 });
const out = [];
for (const f of [0.25, 0.5, 0.75, 0.3]) {
  out.push(await page.evaluate(async (f) => {
    const v = window.viz; await v.seek(v.end * f);
    document.getElementById('speed').value = '1'; document.getElementById('speed').dispatchEvent(new Event('change'));
    await new Promise((r) => setTimeout(r, 500));
    document.getElementById('play').click();
    let frames = 0; const start = performance.now();
    await new Promise((done) => { const tick = () => { frames++; if (performance.now() - start < 3000) requestAnimationFrame(tick); else done(); }; requestAnimationFrame(tick); });
    document.getElementById('play').click();
    return +(frames / 3).toFixed(1);
  }, f));
}
console.log(process.env.LABEL || '', out.join(' '));
await browser.close();
