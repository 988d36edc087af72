// Measures the replay page on a trace: node bench.mjs URL
// Prints the time to load, the time of a seek (the state at a random
// moment, drawn), and the frames per second while playing.
import { chromium } from 'playwright-core';

const [url] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const t0 = Date.now();
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120000 });
  const load = Date.now() - t0;
  const r = await page.evaluate(async () => {
    const v = window.viz;
    const seeks = [];
    for (let k = 0; k < 40; k++) {
      const ms = Math.random() * v.end;
      const a = performance.now();
      v.seek(ms);
      seeks.push(performance.now() - a);
    }
    seeks.sort((a, b) => a - b);
    v.seek(0);
    document.getElementById('speed').value = '1';
    document.getElementById('speed').dispatchEvent(new Event('change'));
    document.getElementById('play').click();
    let frames = 0;
    const start = performance.now();
    await new Promise((done) => {
      const tick = () => { frames++; if (performance.now() - start < 3000) requestAnimationFrame(tick); else done(); };
      requestAnimationFrame(tick);
    });
    document.getElementById('play').click();
    return { nodes: v.model.n, events: v.model.events.length, seekMedianMS: seeks[20], seekMaxMS: seeks[39], fps: frames / 3 };
  });
  console.log(JSON.stringify({ loadMS: load, ...r }));
} finally {
  await browser.close();
}
