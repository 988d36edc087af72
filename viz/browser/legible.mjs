// What replay.mjs checks of the page's words and looks (issue 37): that a
// researcher can read the run. small() on the 16-node run whose every
// expectation the Go test works out (want.legible); big() on the
// 10,000-node run with a leader's crash, a partition and a heal, whose
// pictures it takes (want.shots: a directory, or none).

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// at shows the run at ms and waits until it is drawn.
async function at(page, ms) {
  await page.evaluate(async (ms) => { await window.viz.seek(ms); await window.viz.idle(); }, ms);
}

const net = (page) => page.evaluate(() => {
  const n = window.viz.view.net;
  return { looks: n.looks, crosses: n.crosses, pulses: n.pulses, leaders: n.leaders, cutLinks: n.cutLinks, idsDrawn: n.idsDrawn, radius: n.radius(), zoom: n.zoom };
});

const counter = (page, name) => page.$eval(`#counters dd[data-counter="${name}"]`, (d) => d.textContent).catch(() => '(none)');
const logText = (page) => page.$$eval('#log li[data-i]', (lis) => lis.map((li) => li.textContent));

// clickNode clicks node v where it is drawn, to the fraction of a pixel.
async function clickNode(page, v) {
  const [x, y] = await page.evaluate((v) => window.viz.view.xy(v), v);
  const box = await page.$eval('#net', (c) => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top }; });
  await page.mouse.click(box.x + x, box.y + y);
  await page.evaluate(() => window.viz.idle());
}

async function key(page, k) {
  await page.keyboard.press(k);
  await page.evaluate(() => window.viz.idle());
}

// small checks the 16-node run against want (legible_test.go's legible).
export async function small(page, want, fail) {
  const l = want.legible;
  // The crash, where it happened: a cross, a pulse, and the nodes that
  // still follow the crashed leader hollow.
  await at(page, l.crash_ms);
  let got = await net(page);
  if (!got.crosses.includes(l.crashed) || !got.pulses.includes(l.crashed)) fail(`at the crash (${l.crash_ms} ms) crosses ${got.crosses}, pulses ${got.pulses}, want ${l.crashed} in both`);
  if (got.looks.orphan !== l.followers) fail(`at the crash ${got.looks.orphan} nodes drawn following a crashed leader, want ${l.followers}`);
  if (await counter(page, 'of them, a leader that crashed') !== `${l.followers} nodes`) fail(`the counter of nodes following a crashed leader says ${await counter(page, 'of them, a leader that crashed')}`);
  if (!(await logText(page)).some((t) => t.includes(`node ${l.crashed} crashes`))) fail(`the log at the crash: ${JSON.stringify(await logText(page))}`);
  // The log filtered by kind: the crash alone.
  await page.selectOption('#log-kind', 'crash');
  const crashes = await logText(page);
  if (crashes.length !== 1 || !crashes[0].includes(`node ${l.crashed} crashes`)) fail(`the log of crashes: ${JSON.stringify(crashes)}`);
  await page.selectOption('#log-kind', 'changes');

  // An election: its nodes drawn as such, apart from those with no leader.
  await at(page, l.elect_ms);
  got = await net(page);
  if (got.looks.electing !== l.electing.length) fail(`at ${l.elect_ms} ms ${got.looks.electing} nodes drawn electing, want ${l.electing.length} (${l.electing})`);
  if (await counter(page, 'in an election now') !== `${l.electing.length} ${l.electing.length === 1 ? 'node' : 'nodes'}`) fail(`the counter of nodes electing says ${await counter(page, 'in an election now')}`);

  // The partition: the leaders labelled, listed, each component with its
  // size; their colours apart from each other and from the messages'.
  await at(page, want.shot_ms);
  got = await net(page);
  if (!same(got.leaders, l.leaders)) fail(`at ${want.shot_ms} ms the leaders labelled are ${got.leaders}, want ${l.leaders}`);
  if (await counter(page, 'leader ids') !== l.leaders.join(', ')) fail(`"leader ids" says ${await counter(page, 'leader ids')}, want ${l.leaders.join(', ')}`);
  if (await counter(page, 'without a leader now') !== '0 nodes') fail(`"without a leader now" says ${await counter(page, 'without a leader now')}`);
  if (!/^\d+\.\d\d %$/.test(await counter(page, 'leaderless node-time so far'))) fail(`"leaderless node-time so far" says ${await counter(page, 'leaderless node-time so far')}`);
  const sizes = await page.$$eval('#components li[data-size]', (lis) => lis.map((li) => Number(li.dataset.size)));
  if (!same(sizes, l.components)) fail(`the components' sizes ${sizes}, want ${l.components}`);
  const colours = await page.evaluate((ls) => ({ leaders: ls.map((v) => window.viz.leaderColour(v)), types: window.viz.typeColours }), l.leaders);
  if (new Set(colours.leaders).size !== colours.leaders.length || colours.leaders.some((c) => colours.types.includes(c))) fail(`leaders' colours ${colours.leaders}, messages' ${colours.types}`);
  // A leader keeps its colour wherever the view goes.
  await at(page, 0);
  await at(page, want.shot_ms);
  const again = await page.evaluate((ls) => ls.map((v) => window.viz.leaderColour(v)), l.leaders);
  if (!same(again, colours.leaders)) fail(`the leaders' colours went from ${colours.leaders} to ${again}`);

  // Details in view: the card beside the node clicked, with since when it
  // has had its leader; the panel's details say the same.
  await clickNode(page, 0);
  const card = await page.$eval('#card', (c) => ({ hidden: c.hidden, text: c.textContent }));
  if (card.hidden || !card.text.includes('node 0:')) fail(`clicking node 0, the card: ${JSON.stringify(card)}`);
  const since = await page.textContent('#detail-since');
  if (!since.startsWith(`since ${(l.since_ms / 1000).toFixed(3)} s`)) fail(`node 0's leader since: ${since}, want ${(l.since_ms / 1000).toFixed(3)} s`);
  // Hover names a node.
  const [hx, hy] = await page.evaluate(() => window.viz.view.xy(3));
  const box = await page.$eval('#net', (c) => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top }; });
  await page.mouse.move(box.x + hx + 2, box.y + hy + 1);
  await page.waitForTimeout(100);
  const tip = await page.$eval('#tip', (t) => ({ hidden: t.hidden, text: t.textContent }));
  if (tip.hidden || !/^node 3: value .*, (leader|no leader)/.test(tip.text)) fail(`hovering node 3: ${JSON.stringify(tip)}`);

  // The keyboard: / searches, Enter finds; ? lists the keys, Escape closes;
  // space plays and pauses; the arrows step and seek.
  await page.mouse.move(1, 1);
  await key(page, 'Escape');
  await key(page, '/');
  await page.keyboard.type('9');
  await key(page, 'Enter');
  if (await page.evaluate(() => window.viz.view.selected) !== 9) fail(`searching 9 selected ${await page.evaluate(() => window.viz.view.selected)}`);
  await page.fill('#search', '99');
  await key(page, 'Enter');
  if (!(await page.textContent('#search-note')).includes('no node 99')) fail(`searching 99: ${await page.textContent('#search-note')}`);
  await key(page, 'Escape');
  await key(page, '?');
  if (await page.$eval('#help', (h) => h.hidden)) fail('? did not list the keys');
  await key(page, 'Escape');
  if (!(await page.$eval('#help', (h) => h.hidden))) fail('Escape did not close the keys');
  await key(page, 'Space');
  if (!(await page.evaluate(() => window.viz.view.playing))) fail('space did not play');
  await page.waitForTimeout(150);
  await key(page, 'Space');
  if (await page.evaluate(() => window.viz.view.playing)) fail('space did not pause');
  await at(page, want.shot_ms);
  const i0 = await page.evaluate(() => window.viz.view.i);
  await key(page, 'ArrowRight');
  const stepped = await page.evaluate(() => ({ i: window.viz.view.i, now: document.getElementById('log-now').textContent, li: document.querySelector('#log li.stepped')?.textContent }));
  if (stepped.i !== i0 + 1 || !stepped.li || !stepped.now.includes(stepped.li.replace(/^[\d.]+ s /, ''))) fail(`→ from event ${i0}: ${JSON.stringify(stepped)}`);
  await key(page, 'ArrowLeft');
  if (await page.evaluate(() => window.viz.view.i) !== i0) fail(`← did not go back to event ${i0}`);
  const from = await page.evaluate(() => window.viz.view.ms);
  await key(page, 'Shift+ArrowRight');
  const ms = await page.evaluate(() => window.viz.view.ms);
  if (Math.abs(ms - (from + 1000)) > 1e-6) fail(`shift → went from ${from} to ${ms} ms, want a second on`);

  // The log filtered by node; a click on an event goes just after it.
  await page.selectOption('#log-kind', 'all');
  await page.fill('#log-node', '14');
  const of14 = await page.$$eval('#log li[data-i]', (lis) => lis.map((li) => ({ i: Number(li.dataset.i), text: li.textContent })));
  if (!of14.length || of14.some((e) => !/\b14\b/.test(e.text.replace(/^[\d.]+ s /, '')))) fail(`the log of node 14: ${JSON.stringify(of14)}`);
  if (of14.length) {
    await page.click(`#log li[data-i="${of14[0].i}"]`);
    await page.evaluate(() => window.viz.idle());
    const ev = Number(await page.getAttribute('body', 'data-events'));
    if (ev !== of14[0].i + 1) fail(`a click on event ${of14[0].i} in the log shows ${ev} events`);
  }
  await page.fill('#log-node', '');
  await page.selectOption('#log-kind', 'changes');

  // Icons drawn, not a font's; a favicon.
  const buttons = await page.$$eval('#timeline > button', (bs) => bs.map((b) => ({ id: b.id, text: b.textContent.trim(), svg: !!b.querySelector('svg') })));
  for (const b of buttons) if (b.text || !b.svg) fail(`the ${b.id} button: ${JSON.stringify(b)}`);
  const fav = await page.evaluate(async () => (await fetch('favicon.svg')).status);
  if (fav !== 200) fail(`favicon.svg: ${fav}`);
  await page.evaluate(() => { window.viz.view.select(-1); window.viz.view.net.fitAll(); });
}

// values checks what the page says of the values changing (want.values,
// value_test.go's valueView): at each moment the log's words (the
// changes' filter lets value events through) and its line for the last
// event, the card of the node selected (which follows the moment), the
// counter of value changes; and the timeline's value marks, in words.
export async function values(page, want, fail) {
  const titles = await page.$$eval('#marks .mark.value', (ms) => ms.map((m) => m.title.replace(/^[\d.]+ s: /, '')));
  if (!same(titles, want.value_marks)) fail(`the value marks say ${JSON.stringify(titles)}, want ${JSON.stringify(want.value_marks)}`);
  await page.selectOption('#log-kind', 'changes');
  let selected = -1;
  for (const w of want.values) {
    await at(page, w.ms);
    if (w.node !== selected) { await clickNode(page, w.node); selected = w.node; }
    await at(page, w.ms);
    const log = await logText(page), now = await page.textContent('#log-now');
    if (!log.some((t) => t.endsWith(` ${w.log}`))) fail(`at ${w.ms} ms the log: ${JSON.stringify(log)}, want ${JSON.stringify(w.log)}`);
    if (!now.endsWith(`: ${w.log}`)) fail(`at ${w.ms} ms the log's last event: ${JSON.stringify(now)}, want ${JSON.stringify(w.log)}`);
    const card = await page.$eval('#card', (c) => ({ hidden: c.hidden, text: c.textContent }));
    if (card.hidden || !card.text.trim().startsWith(w.card)) fail(`at ${w.ms} ms node ${w.node}'s card: ${JSON.stringify(card)}, want ${JSON.stringify(w.card)}`);
    const counted = await counter(page, 'value changes so far');
    if (counted !== w.counter) fail(`at ${w.ms} ms "value changes so far" says ${counted}, want ${w.counter}`);
  }
  await page.evaluate(() => window.viz.view.select(-1));
}

// empty checks a trace of no events says so.
export async function empty(page, fail) {
  const box = await page.$eval('#empty', (e) => ({ hidden: e.hidden, text: e.textContent }));
  if (box.hidden || !box.text.includes('no events')) fail(`an empty trace: ${JSON.stringify(box)}`);
  const looks = await page.evaluate(() => window.viz.view.net.looks);
  if (looks.crashed !== 0) fail(`an empty trace draws ${looks.crashed} nodes crashed`);
}

// broken checks a trace cut short says where, in the error's box.
export async function broken(page, fail) {
  await page.waitForFunction(() => window.viz.model.done, null, { timeout: 30000 });
  await page.waitForFunction(() => !document.getElementById('error').hidden, null, { timeout: 5000 }).catch(() => {});
  // In a box of its own, coloured, not in the title's grey.
  const box = await page.$eval('#error', (e) => ({ hidden: e.hidden, text: e.textContent, bg: getComputedStyle(e).backgroundColor }));
  if (box.hidden || !box.text.includes('stopped') || box.bg === 'rgba(0, 0, 0, 0)') fail(`a trace cut short: ${JSON.stringify(box)}`);
  if ((await page.textContent('#title')).includes('stopped')) fail(`the error is in the title: ${await page.textContent('#title')}`);
}

// big checks the 10,000-node run and takes its pictures.
export async function big(page, want, fail) {
  // A picture: the pointer out of the way, the panel at its top (but
  // for the zoom's, whose node's details it shows).
  const shot = async (name, top = true) => {
    if (!want.shots) return;
    if (top) { await page.mouse.move(2, 780); await page.evaluate(() => { document.querySelector('aside').scrollTop = 0; }); }
    await page.evaluate(() => window.viz.idle());
    await page.screenshot({ path: `${want.shots}/viz-${name}.png` });
  };
  await page.waitForFunction(() => window.viz.model.done, null, { timeout: 300000, polling: 500 });
  await page.evaluate(() => window.viz.view.refresh());
  const marks = await page.evaluate(() => window.viz.model.info.marks);
  const first = (kind, after = -1) => marks.find((m) => m.kind === kind && m.t > after);
  const crash = first('crash'), cut = first('cut'), heal = first('heal');
  if (!crash || !cut || !heal) { fail(`marks: crash ${!!crash}, cut ${!!cut}, heal ${!!heal}`); return; }

  // Hit-testing at the full view: a click on a node's spot picks it.
  const n = await page.evaluate(() => window.viz.model.n);
  await at(page, crash.t / 2);
  let missed = [];
  for (let k = 0; k < 25; k++) {
    const v = Math.floor(((k * 7919) % n));
    await clickNode(page, v);
    const sel = await page.evaluate(() => window.viz.view.selected);
    if (sel !== v) missed.push(`${v}→${sel}`);
  }
  if (missed.length) fail(`clicks on nodes' spots picked others: ${missed.join(' ')}`);
  await page.evaluate(() => window.viz.view.select(-1));

  // The crash: a cross and a pulse where it happened; its followers hollow.
  const crashed = Number(/node (\d+)/.exec(crash.what)[1]);
  await at(page, crash.t);
  let got = await net(page);
  if (!got.crosses.includes(crashed) || !got.pulses.includes(crashed)) fail(`at the crash crosses ${got.crosses}, pulses ${got.pulses}, want ${crashed}`);
  if (!(got.looks.orphan > 100)) fail(`at the crash ${got.looks.orphan} nodes drawn following the crashed leader`);
  if (!(await logText(page)).some((t) => t.includes(`node ${crashed} crashes`))) fail(`the log at the crash: ${JSON.stringify(await logText(page))}`);
  await shot('crash');

  // The election after it: the moment the nodes that lost their leader
  // (hollow, or with none) turn to electing (diamonds), as many of each
  // as can be: the first moment some elect, found every 100 ms, then
  // every 5 ms before it, then every half.
  let best = { t: crash.t, both: -1 };
  const look = async (t) => {
    await at(page, t);
    const k = (await net(page)).looks, both = Math.min(k.orphan + k.none, k.electing);
    if (both > best.both) best = { t, both, electing: k.electing, orphan: k.orphan, none: k.none };
    return k.electing;
  };
  let t1 = crash.t + 100;
  while (t1 < cut.t && !(await look(t1))) t1 += 100;
  for (let t = t1 - 100; t <= t1; t += 5) await look(t);
  const around = best.t;
  for (let t = around - 5; t <= around + 5; t += 0.5) await look(t);
  if (!(best.both > 0)) fail(`no moment after the crash with nodes electing and nodes that lost their leader: ${JSON.stringify(best)}`);
  await at(page, best.t);
  await shot('electing');

  // The partition: two sides, a leader each, labelled; the cut links
  // marked; the components listed.
  await at(page, heal.t - 300);
  got = await net(page);
  if (!(got.cutLinks > 0)) fail(`in the partition no link drawn cut: ${got.cutLinks}`);
  if (!(got.leaders.length >= 2)) fail(`in the partition the leaders labelled: ${got.leaders}`);
  const comps = await page.$$eval('#components li[data-size]', (lis) => lis.map((li) => ({ size: Number(li.dataset.size), leaders: li.dataset.leaders })));
  if (comps.length < 2 || comps[0].size < 1000 || comps[1].size < 1000) fail(`the components in the partition: ${JSON.stringify(comps.slice(0, 3))}`);
  await page.selectOption('#log-kind', 'status');
  await shot('partition');
  await page.selectOption('#log-kind', 'changes');
  await at(page, heal.t + 3000);
  got = await net(page);
  if (got.cutLinks !== 0) fail(`after the heal ${got.cutLinks} links drawn cut`);

  // Zoom that reveals: a node searched comes to the middle, the nodes
  // grown to carry their ids; hovering names one.
  await at(page, crash.t + 300);
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await key(page, '/');
  await page.keyboard.type(String(crashed));
  await key(page, 'Enter');
  got = await net(page);
  if (!(got.radius >= 6) || !(got.idsDrawn > 0)) fail(`searching ${crashed}: radius ${got.radius}, ids drawn ${got.idsDrawn}, zoom ${got.zoom}`);
  const [x, y] = await page.evaluate((v) => window.viz.view.xy(v), crashed);
  const box = await page.$eval('#net', (c) => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; });
  if (Math.abs(x - box.w / 2) > 1 || Math.abs(y - box.h / 2) > 1) fail(`node ${crashed} searched is at (${x}, ${y}), not the middle`);
  // Hover a node below and to the right, clear of the card.
  const near = await page.evaluate((v) => { const n = window.viz.view.net, [x, y] = n.xy(v); let best = -1, d = Infinity; for (let u = 0; u < n.model.n; u++) { const e = (n.sx[u] - x - 120) ** 2 + (n.sy[u] - y - 110) ** 2; if (e < d) { d = e; best = u; } } return best; }, crashed);
  const [nx, ny] = await page.evaluate((v) => window.viz.view.xy(v), near);
  await page.mouse.move(box.x + nx + 1, box.y + ny);
  await page.waitForTimeout(100);
  const tip = await page.$eval('#tip', (t) => ({ hidden: t.hidden, text: t.textContent }));
  if (tip.hidden || !tip.text.startsWith(`node ${near}:`)) fail(`hovering node ${near}: ${JSON.stringify(tip)}`);
  await shot('zoom', false);
}
