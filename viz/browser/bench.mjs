// Measures the replay page on a trace: node bench.mjs URL (SHOT=FILE keeps
// a screenshot of the run's middle moment)
// Prints, as one JSON line: the time to the first frame (from asking for
// the page to the run shown at its start; as elect viz starts, and the
// median of five once it has read the trace), the tab's JavaScript heap after
// a garbage collection (first frame, then after the seeks and playing),
// the time of a seek to a random moment of what the server has read
// (fetching its chunk, replaying to the moment, drawing), the time a frame
// takes to draw while zooming, panning and playing at 1x, and the frames
// per second while playing (just after a jump, and then from a moment whose
// chunk is at hand).
import { chromium } from 'playwright-core';

const [url] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const max = (xs) => Math.max(...xs);
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const cdp = await page.context().newCDPSession(page);
  const heapMB = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    // The JavaScript heap, the array buffers' memory outside it (the
    // chunks) and Blink's own heap (the document): the tab's heap in all.
    const u = await cdp.send('Runtime.getHeapUsage');
    return Math.round((u.usedSize + (u.backingStorageSize || 0) + (u.embedderHeapUsedSize || 0)) / 1e6);
  };
  // A browser already running, as a user's is; nothing of the page cached.
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.goto(url + 'style.css');
  const open = async () => {
    const t0 = Date.now();
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 120000 });
    return Date.now() - t0;
  };
  // The first opening races the server's reading of the trace (elect viz
  // just started); the next five come after it.
  const firstFrameMS = await open();
  const heapFirstMB = await heapMB();
  // Wait for the whole trace to be read, so the seeks range over all of it.
  await page.waitForFunction(() => window.viz.model.done, null, { timeout: 600000, polling: 500 });
  const again = [];
  for (let k = 0; k < 5; k++) again.push(await open());
  const firstFrameReadMS = median(again);
  const r = await page.evaluate(async () => {
    const v = window.viz;
    const seeks = [];
    for (let k = 0; k < 20; k++) {
      const ms = Math.random() * v.end;
      const a = performance.now();
      await v.seek(ms);
      seeks.push(performance.now() - a);
    }
    return { nodes: v.model.n, events: v.model.events, seeks };
  });
  // Zoom with the wheel and pan by dragging, at a moment in the middle.
  await page.evaluate(() => window.viz.seek(window.viz.end / 2));
  const box = await page.$eval('#net', (c) => { const b = c.getBoundingClientRect(); return { x: b.left + b.width / 2, y: b.top + b.height / 2 }; });
  await page.evaluate(() => { window.viz.view.frames = []; });
  await page.mouse.move(box.x, box.y);
  for (let k = 0; k < 10; k++) await page.mouse.wheel(0, -120);
  await page.mouse.down();
  await page.mouse.move(box.x + 200, box.y + 100, { steps: 20 });
  await page.mouse.up();
  await page.dblclick('#net');
  const zoomPan = await page.evaluate(() => window.viz.view.frames.slice());
  // SHOT=FILE keeps a picture of the middle moment (docs/viz-10000.png).
  if (process.env.SHOT) { await page.evaluate(() => window.viz.idle()); await page.screenshot({ path: process.env.SHOT }); }
  // play seeks to the fraction at of the run, waits settle ms, then plays
  // 3 s at 1x: the frames a second, each frame's drawing time, and how
  // much of the run it played.
  const play = (at, settle) => page.evaluate(async ([at, settle]) => {
    const v = window.viz;
    await v.seek(v.end * at);
    document.getElementById('speed').value = '1';
    document.getElementById('speed').dispatchEvent(new Event('change'));
    await new Promise((done) => setTimeout(done, settle));
    v.view.frames = [];
    const from = v.view.ms;
    document.getElementById('play').click();
    let frames = 0;
    const start = performance.now();
    await new Promise((done) => {
      const tick = () => { frames++; if (performance.now() - start < 3000) requestAnimationFrame(tick); else done(); };
      requestAnimationFrame(tick);
    });
    document.getElementById('play').click();
    return { fps: frames / 3, draws: v.view.frames.slice(), playedMS: v.view.ms - from };
  }, [at, settle]);
  // From a quarter of the run, just after the jump (the clock waits for
  // the chunk), then from the middle, its chunk at hand.
  const played = await play(1 / 4, 0);
  const settledFPS = (await play(1 / 2, 500)).fps;
  const heapAfterMB = await heapMB();
  console.log(JSON.stringify({
    firstFrameMS, firstFrameReadMS, heapFirstMB, heapAfterMB, nodes: r.nodes, events: r.events,
    seekMedianMS: Math.round(median(r.seeks)), seekMaxMS: Math.round(max(r.seeks)),
    zoomPanDrawMedianMS: +median(zoomPan).toFixed(1), zoomPanDrawMaxMS: +max(zoomPan).toFixed(1), zoomPanFrames: zoomPan.length,
    playDrawMedianMS: +median(played.draws).toFixed(1), playDrawMaxMS: +max(played.draws).toFixed(1), playFPS: +played.fps.toFixed(1), playSettledFPS: +settledFPS.toFixed(1),
    playedMSin3s: Math.round(played.playedMS),
  }));
} finally {
  await browser.close();
}
