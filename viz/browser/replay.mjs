// Drives elect viz's replay page in headless Chromium: go test ./viz runs
// it as   node replay.mjs URL EXPECTED.json SCREENSHOT.png
// EXPECTED holds each node's final state and its state at an earlier
// moment ("before"), and says whether the page shows a live run; the page
// must show both, read from the nodes'
// data-leader, data-state and data-alive attributes. Exit status 1 and a
// line per mismatch when it does not.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [url, expectedPath, shot] = process.argv.slice(2);
const want = JSON.parse(readFileSync(expectedPath, 'utf8'));
const failures = [];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => failures.push(`page error: ${e.message}`));
  await page.goto(url);
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  if (await page.getAttribute('body', 'data-ready') !== 'true') {
    failures.push(`the page did not load the trace: ${await page.textContent('#title')}`);
  } else {
    const nodes = () => page.$$eval('#nodes li', (lis) => lis.map((li) => ({
      id: Number(li.dataset.nodeId), leader: Number(li.dataset.leader),
      state: li.dataset.state, alive: li.dataset.alive === 'true',
    })));
    const compare = (when, got, expected) => {
      if (got.length !== expected.length) failures.push(`${when}: ${got.length} nodes on the page, want ${expected.length}`);
      for (const w of expected) {
        const g = got.find((x) => x.id === w.id);
        if (!g || g.alive !== w.alive || g.leader !== w.leader || g.state !== w.state) {
          failures.push(`${when}: node ${w.id} shows ${JSON.stringify(g)}, want ${JSON.stringify(w)}`);
        }
      }
    };

    if (want.live) {
      // A live run: the page follows its end while it goes, then says it
      // is over.
      if (!(await page.textContent('#title')).includes('(live)')) failures.push(`a live run's title: ${await page.textContent('#title')}`);
      const t1 = Number(await page.getAttribute('body', 'data-time'));
      await page.waitForTimeout(700);
      const t2 = Number(await page.getAttribute('body', 'data-time'));
      if (!(t2 > t1)) failures.push(`following a live run, the time went from ${t1} to ${t2} ms`);
      await page.waitForFunction(() => document.getElementById('title').textContent.includes('(run over)'), null, { timeout: 60000 });
    }

    if (want.moving) {
      // Moving nodes stand where the simulator had them, in metres.
      for (const m of want.moving) {
        const got = await page.evaluate((ms) => { window.viz.seek(ms); const v = window.viz.view; return [Array.from(v.cx), Array.from(v.cy)]; }, m.ms);
        for (let i = 0; i < m.x.length; i++) {
          if (Math.abs(got[0][i] - m.x[i]) > 1e-6 || Math.abs(got[1][i] - m.y[i]) > 1e-6) {
            failures.push(`at ${m.ms} ms node ${i} is drawn at (${got[0][i]}, ${got[1][i]}), want (${m.x[i]}, ${m.y[i]})`);
            break;
          }
        }
      }
    }
    if (!want.final) {
      await page.screenshot({ path: shot });
    } else {
    // Play a moment: time must move.
    await page.click('#play');
    await page.waitForTimeout(300);
    await page.click('#play');
    if (Number(await page.getAttribute('body', 'data-time')) <= 0) failures.push('playing did not move the time');

    // Step to the end.
    await page.click('#end');
    compare('at the end', await nodes(), want.final);
    const events = Number(await page.getAttribute('body', 'data-events'));
    if (events !== want.events) failures.push(`at the end the page has replayed ${events} events, want ${want.events}`);

    // Scrub back to before the crash.
    await page.$eval('#scrub', (el, ms) => { el.value = ms; el.dispatchEvent(new Event('input')); }, want.before.ms);
    compare(`at ${want.before.ms} ms`, await nodes(), want.before.nodes);

    // Click the first node: its details come up.
    await page.click('#net', { position: await page.evaluate(() => {
      const [x, y] = window.viz.view.xy(0);
      return { x, y };
    }) });
    const details = await page.textContent('#details');
    if (!details.includes('value')) failures.push(`clicking node 0 shows no details: ${details}`);

    // The picture: the moment the expectations name (two leaders, say).
    await page.$eval('#scrub', (el, ms) => { el.value = ms; el.dispatchEvent(new Event('input')); }, want.shot_ms);
    await page.screenshot({ path: shot });
    }
  }
} finally {
  await browser.close();
}
for (const f of failures) console.error(f);
process.exit(failures.length ? 1 : 0);
