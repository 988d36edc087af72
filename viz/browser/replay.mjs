// Drives elect viz's replay page in headless Chromium: go test ./viz runs
// it as   node replay.mjs URL EXPECTED.json SCREENSHOT.png
// EXPECTED holds each node's final state and its state at an earlier
// moment ("before"), and says whether the page shows a live run; the page
// must show both, read from the nodes'
// data-leader, data-state and data-alive attributes. For a run with gray
// failures ("gray") it checks what the page draws of them at some moments,
// and for one whose values change ("values") what it says of them;
// what a reader needs of a crash, an election and a partition, in words and
// looks, legible.mjs checks ("legible", and "big" for the 10,000-node run,
// whose pictures it takes into "shots"), and that an empty or broken trace
// says so.
// Exit status 1 and a line per mismatch when it does not.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { small, empty, broken, big, values } from './legible.mjs';

const [url, expectedPath, shot] = process.argv.slice(2);
const want = JSON.parse(readFileSync(expectedPath, 'utf8'));
const failures = [];
const notes = [];    // what the page could not fetch or wrote as an error
let page;

// open loads the page at address until it has started (body[data-ready]).
// The machine's network changing under the browser (go test runs the
// emulator's tests, which add and remove interfaces, beside these) aborts
// the requests in flight (net::ERR_NETWORK_CHANGED), a module's among
// them, and a page whose module did not load never starts: it is then
// loaded again, as its user would, at most three times.
async function open(address) {
  for (let attempt = 1; ; attempt++) {
    let changed;
    const networkChanged = new Promise((done) => {
      changed = (r) => { if ((r.failure()?.errorText || '').includes('ERR_NETWORK_CHANGED')) done(true); };
    });
    page.on('requestfailed', changed);
    try {
      await page.goto(address);
      const ready = page.waitForSelector('body[data-ready]', { timeout: 30000 }).then(() => 'ready', (err) => err);
      // After a network change the page gets 3 s more to start anyway.
      const grace = networkChanged.then(() => new Promise((done) => setTimeout(() => done('changed'), 3000)));
      const first = await Promise.race([ready, grace]);
      if (first === 'ready') return;
      if (first instanceof Error) throw first;
      if (attempt === 3) throw new Error(`the network changed under the browser ${attempt} times while it loaded ${address}`);
      notes.push(`the network changed under the browser while it loaded ${address}: loading it again`);
    } finally {
      page.off('requestfailed', changed);
    }
  }
}

// idle waits until the page has shown what the last action asked for.
const idle = () => page.evaluate(() => window.viz.idle());

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
try {
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => failures.push(`page error: ${e.message}`));
  // What the page could not fetch (a request cut short by leaving the
  // page among them), and what it wrote as an error: said after the
  // failures, if any (a page that never gets ready says why).
  page.on('requestfailed', (r) => notes.push(`request failed: ${r.url()}: ${r.failure()?.errorText}`));
  page.on('console', (m) => { if (m.type() === 'error') notes.push(`console: ${m.text()}`); });
  await open(url);
  if (await page.getAttribute('body', 'data-ready') !== 'true') {
    failures.push(`the page did not load the trace: ${await page.textContent('#title')}: ${await page.textContent('#error-text')}`);
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
        const got = await page.evaluate(async (ms) => { await window.viz.seek(ms); const v = window.viz.view; return [Array.from(v.cx), Array.from(v.cy)]; }, m.ms);
        for (let i = 0; i < m.x.length; i++) {
          if (Math.abs(got[0][i] - m.x[i]) > 1e-6 || Math.abs(got[1][i] - m.y[i]) > 1e-6) {
            failures.push(`at ${m.ms} ms node ${i} is drawn at (${got[0][i]}, ${got[1][i]}), want (${m.x[i]}, ${m.y[i]})`);
            break;
          }
        }
      }
    }
    if (want.gray) {
      // Gray failures: at each moment, the links drawn one way and those
      // cut both ways, the nodes off true time or slow (the list's
      // data-rate and data-slow), the clocks whose jump is drawn, and the
      // details of a node clicked.
      const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
      for (const g of want.gray) {
        const got = await page.evaluate(async (ms) => {
          await window.viz.seek(ms);
          await window.viz.idle();
          const v = window.viz.view, rate = {}, slow = {};
          for (const li of document.querySelectorAll('#nodes li')) {
            if (li.dataset.rate) rate[li.dataset.nodeId] = Number(li.dataset.rate);
            if (li.dataset.slow) slow[li.dataset.nodeId] = Number(li.dataset.slow);
          }
          return { one_way: v.oneWay, both_ways: v.bothWays, flashes: v.flashes, rate, slow };
        }, g.ms);
        for (const k of ['one_way', 'both_ways', 'flashes', 'rate', 'slow']) {
          const w = g[k] ?? [];
          if (!same(got[k], w)) failures.push(`at ${g.ms} ms: ${k} ${JSON.stringify(got[k])}, want ${JSON.stringify(w)}`);
        }
        if (!g.details) continue;
        await page.click('#net', { position: await page.evaluate((v) => {
          const [x, y] = window.viz.view.xy(v);
          return { x, y };
        }, g.node) });
        await idle();
        for (const [id, text] of Object.entries(g.details)) {
          const el = await page.$(`#${id}`);
          const shown = el ? await el.textContent() : '(none)';
          if (shown !== text) failures.push(`at ${g.ms} ms node ${g.node}'s ${id} says ${JSON.stringify(shown)}, want ${JSON.stringify(text)}`);
        }
      }
      const kinds = await page.$$eval('#marks .mark', (ms) => ms.map((m) => m.dataset.kind));
      for (const k of want.gray_marks || []) if (!kinds.includes(k)) failures.push(`no ${k} mark on the timeline: ${kinds.join(',')}`);
    }
    const fail = (f) => failures.push(f);
    if (want.values) await values(page, want, fail);
    if (want.big) {
      await big(page, want, fail);
      await page.screenshot({ path: shot });
    } else if (want.broken) {
      await broken(page, fail);
      await page.screenshot({ path: shot });
    } else if (want.empty) {
      await empty(page, fail);
      for (const b of ['#play', '#next', '#end', '#start']) { await page.click(b); await idle(); }
      const events = Number(await page.getAttribute('body', 'data-events'));
      if (events !== 0) failures.push(`a trace of no events shows ${events}`);
      await page.screenshot({ path: shot });
    } else if (!want.final) {
      await page.screenshot({ path: shot });
    } else {
    // Play a moment: time must move.
    await page.click('#play');
    await page.waitForTimeout(300);
    await page.click('#play');
    await idle();
    if (Number(await page.getAttribute('body', 'data-time')) <= 0) failures.push('playing did not move the time');
    // The counters, written a few times a second while playing, catch up
    // with the moment once paused.
    const paused = await page.evaluate(() => [(window.viz.view.ms / 1000).toFixed(3) + ' s', window.viz.view.i.toLocaleString('en')]);
    const counted = await page.$$eval('#counters dd', (dds) => dds.slice(0, 2).map((d) => d.textContent));
    if (counted[0] !== paused[0] || !counted[1].startsWith(paused[1] + " event")) failures.push(`paused at ${paused[0]}, event ${paused[1]}, the counters say ${counted}`);

    // Step to the end.
    await page.click('#end');
    await idle();
    compare('at the end', await nodes(), want.final);
    const events = Number(await page.getAttribute('body', 'data-events'));
    if (events !== want.events) failures.push(`at the end the page has replayed ${events} events, want ${want.events}`);

    // Scrub back to before the crash.
    await page.$eval('#scrub', (el, ms) => { el.value = ms; el.dispatchEvent(new Event('input')); }, want.before.ms);
    await idle();
    compare(`at ${want.before.ms} ms`, await nodes(), want.before.nodes);

    // Click the first node: its details come up.
    await page.click('#net', { position: await page.evaluate(() => {
      const [x, y] = window.viz.view.xy(0);
      return { x, y };
    }) });
    await idle();
    const details = await page.textContent('#details');
    if (!details.includes('value')) failures.push(`clicking node 0 shows no details: ${details}`);
    const nbrs = await page.textContent('#detail-neighbours');
    if (!/^\d/.test(nbrs)) failures.push(`node 0's neighbours: ${nbrs}`);
    if (await page.$$eval('#detail-messages li', (lis) => lis.length) === 0) failures.push('node 0 shows no last messages');

    // Step mode: the next event, a message sent, drawn as an arrow from
    // its sender to its receiver.
    const k = await page.evaluate(async () => (await window.viz.events(100, 20000)).find((e) => e.ev === 'send' && e.peer >= 0).i);
    await page.evaluate(async (k) => { const [e] = await window.viz.events(k, k + 1); await window.viz.view.show(k, e.t / 1e6); }, k);
    await page.click('#next');
    await idle();
    const stepped = await page.evaluate(() => ({ i: window.viz.view.i, arrow: window.viz.view.arrow }));
    const [sent] = await page.evaluate((k) => window.viz.events(k, k + 1), k);
    if (stepped.i !== k + 1 || !stepped.arrow || stepped.arrow.from !== sent.node || stepped.arrow.to !== sent.peer) {
      failures.push(`a step onto event ${k} (${JSON.stringify(sent)}) shows ${stepped.i} events and arrow ${JSON.stringify(stepped.arrow)}`);
    }
    // ... and written in words, in the log, in view.
    const said = `${sent.node} sent ${sent.msg.type} to ${sent.peer}`;
    const logged = await page.evaluate(() => {
      const li = document.querySelector('#log li.stepped'), box = document.getElementById('log');
      const r = li && li.getBoundingClientRect(), b = box.getBoundingClientRect();
      return { now: document.getElementById('log-now').textContent, li: li && li.textContent, inView: !!r && r.top >= b.top - 1 && r.bottom <= b.bottom + 1 };
    });
    if (!logged.now.includes(said) || !logged.li || !logged.li.includes(said) || !logged.inView) failures.push(`the step onto ${said}, in the log: ${JSON.stringify(logged)}`);

    // The timeline marks the crash; a click on the mark goes there, and
    // the address then names that moment.
    // The partition and the heal are marked too, and the new leader.
    const kinds = await page.$$eval('#marks .mark', (ms) => ms.map((m) => m.dataset.kind));
    for (const k of ['cut', 'heal', 'elected', 'election']) if (!kinds.includes(k)) failures.push(`no ${k} mark on the timeline: ${kinds.join(',')}`);
    const crash = await page.$('#marks .mark.crash');
    if (!crash) {
      failures.push(`no crash on the timeline: ${await page.$$eval('#marks .mark', (ms) => ms.map((m) => m.dataset.kind).join(','))}`);
    } else {
      const at = Number(await crash.getAttribute('data-t'));
      await crash.click();
      await idle();
      const now = Number(await page.getAttribute('body', 'data-time'));
      if (Math.abs(now - at) > 1e-6) failures.push(`clicking the crash's mark (${at} ms) went to ${now} ms`);
      const hash = await page.evaluate(() => location.hash);
      if (hash !== `#t=${(at / 1000).toFixed(3)}s`) failures.push(`after the mark, the address says ${hash}`);
    }

    // The wheel zooms about the pointer, a drag pans, a double click fits.
    const box = await page.$eval('#net', (c) => { const r = c.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; });
    const before = await page.evaluate(() => window.viz.view.xy(0));
    await page.mouse.move(box.x, box.y);
    await page.mouse.wheel(0, -500);
    const zoomed = await page.evaluate(() => ({ z: window.viz.view.zoom, p: window.viz.view.xy(0) }));
    if (!(zoomed.z > 1.5)) failures.push(`the wheel left the zoom at ${zoomed.z}`);
    await page.mouse.move(box.x, box.y);
    await page.mouse.down();
    await page.mouse.move(box.x + 60, box.y + 30, { steps: 4 });
    await page.mouse.up();
    const panned = await page.evaluate(() => window.viz.view.xy(0));
    if (Math.abs(panned[0] - zoomed.p[0] - 60) > 1 || Math.abs(panned[1] - zoomed.p[1] - 30) > 1) failures.push(`dragging by (60, 30) moved node 0 from ${zoomed.p} to ${panned}`);
    await page.dblclick('#net');
    const fitted = await page.evaluate(() => window.viz.view.xy(0));
    if (Math.abs(fitted[0] - before[0]) > 1e-6 || Math.abs(fitted[1] - before[1]) > 1e-6) failures.push(`a double click left node 0 at ${fitted}, not where it was fitted, ${before}`);

    if (want.legible && !want.live) await small(page, want, fail);

    // The picture: the moment the expectations name (two leaders, say),
    // node 0's details open.
    await page.$eval('#scrub', (el, ms) => { el.value = ms; el.dispatchEvent(new Event('input')); }, want.shot_ms);
    await idle();
    await page.click('#net', { position: await page.evaluate(() => {
      const [x, y] = window.viz.view.xy(0);
      return { x, y };
    }) });
    await idle();
    await page.screenshot({ path: shot });

    // Last: an address with a moment opens the run there.
    // (From elsewhere: from the page itself, only the hash would change.)
    await page.goto('about:blank');
    await open(url + '#t=1.5s');
    const opened = Number(await page.getAttribute('body', 'data-time'));
    if (Math.abs(opened - 1500) > 1e-6) failures.push(`#t=1.5s opened the run at ${opened} ms`);
    // And a new moment in the address, the page open, goes there.
    await page.evaluate(() => { location.hash = '#t=7.25s'; });
    await page.waitForFunction(() => document.body.dataset.time === '7250', null, { timeout: 10000 }).catch(() => {});
    await idle();
    const moved = Number(await page.getAttribute('body', 'data-time'));
    if (Math.abs(moved - 7250) > 1e-6) failures.push(`#t=7.25s in the address of the open page went to ${moved} ms`);
    }
  }
} catch (err) {
  failures.push(String(err.stack || err));
} finally {
  await browser.close();
}
for (const f of failures) console.error(f);
if (failures.length) for (const n of notes) console.error(`(${n})`);
process.exit(failures.length ? 1 : 0);
