import { chromium } from 'playwright-core';
const [url] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
const cdp = await page.context().newCDPSession(page);
await cdp.send('Network.enable'); await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
await page.addInitScript(() => { new MutationObserver(() => { if (document.body && document.body.dataset.ready === 'true' && !window.readyAt) window.readyAt = performance.now(); }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] }); });
await page.goto(url);
await page.waitForSelector('body[data-ready="true"]', { timeout: 120000 });
await page.waitForFunction(() => window.viz.model.done, null, { timeout: 600000, polling: 500 });
for (let k = 0; k < 5; k++) {
  const t0 = Date.now();
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120000 });
  const all = Date.now() - t0;
  const t = await page.evaluate(() => { const t = window.viz.timing || {}; const nav = performance.getEntriesByType('navigation')[0]; return { dcl: Math.round(nav.domContentLoadedEventEnd), main: Math.round(t.main), index: Math.round(t.index), view: Math.round(t.view), state: Math.round(t.state), ready: Math.round(t.ready), readyAt: Math.round(window.readyAt), res: performance.getEntriesByType('resource').map((r) => r.name.split('/').pop().slice(0,12) + ':' + Math.round(r.startTime) + '-' + Math.round(r.responseEnd)).join(' ') }; });
  console.log(process.env.LABEL || '', all, JSON.stringify(t));
}
await browser.close();
