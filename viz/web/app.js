// elect's election replay: the page's entry. It reads what the server says
// of the run (its mode, layout and index), builds the view of it, and, while
// the index grows (a live run, or a trace still being read), asks it again.
// The parts: data.js (the run, from the server's index and chunks),
// layout.js (where nodes stand), view.js (the moment shown: seeking and
// playing), network.js (with nodes.js and overlay.js), timeline.js,
// panel.js (with components.js), card.js, log.js (with words.js) and
// chart.js (what each draws), keys.js (the keyboard and the search),
// icons.js, net.js and common.js (what they share).

import { $, afterPaint, whenIdle, leaderColour, TYPE_COLOURS } from './common.js';
import { Model, fetchIndex } from './data.js';
import { fetchAgain } from './net.js';
import { iconButtons } from './icons.js';
import { wireKeys } from './keys.js';
import { place } from './layout.js';
import { hashMS } from './timeline.js';
import { View, showError } from './view.js';

const POLL_MS = 300;             // how often a growing index is asked again

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// timing holds when (performance.now) the page reached its first frame's
// steps, for bench.mjs and the console.
const timing = { main: performance.now() };

async function main() {
  iconButtons();
  let [mode, layout, info] = await Promise.all([
    fetchAgain('mode').then((r) => r.json()).catch(() => ({ live: false })),
    fetchAgain('layout').then((r) => r.json()),
    fetchIndex(),
  ]);
  // Wait for the network at time 0 (the layout lays it out), or the end.
  while (!info.done && info.end_ms === 0) { await sleep(100); info = await fetchIndex(); }
  if (info.events === 0 && info.error) throw new Error(info.error);
  const model = new Model(info);
  const hash = location.hash; // before the view writes its own moment there
  // The first moment's state (the address's, else the start; a live run
  // over, its end) is on its way while the view is built.
  const at = mode.live && !info.done ? null : Math.min(hashMS(hash) ?? (mode.live ? model.end : 0), model.end);
  const first = at === null ? null : model.stateAt(at);
  const h = info.header;
  const what = `${h.algorithm} on ${h.topology || h.nodes + ' nodes'}, seed ${h.seed}`;
  timing.index = performance.now();
  const view = new View(model, await place(model, layout), what, mode.live);
  timing.view = performance.now();
  // For tests and the console: viz.seek(ms), viz.end, viz.model, viz.view,
  // viz.events(from, to), viz.idle(), viz.leaderColour(id), viz.typeColours.
  window.viz = {
    seek: (ms) => view.seek(ms), get end() { return model.end; }, model, view,
    events: (from, to) => model.slice(from, to), idle: () => view.idle(),
    leaderColour, typeColours: TYPE_COLOURS, timing,
  };
  wireKeys(view);
  if (first === null) view.follow();
  else await view.task(first.then((s) => { timing.state = performance.now(); view.state = s; view.present(s.i, at); }));
  timing.ready = performance.now();
  document.body.dataset.ready = 'true';
  // Then, once the first frame is painted and the page idle, what can
  // wait for it: the timeline's marks, the components, fetching chunks
  // ahead; then the log, and the links at the start, against which the
  // network marks those a partition cut.
  await afterPaint();
  await whenIdle();
  view.started = true;
  view.refresh();
  view.panel.listComponents();
  setTimeout(() => {
    view.log.update(true);
    if (layout && layout.tracks) return;
    model.stateAt(0).then((s) => { model.first = { links: Float64Array.from(s.links) }; view.net.linksKey = null; view.net.draw(); }).catch(() => {});
  }, 250);
  // A growing index (a live run, or a trace still being read): ask it
  // again until it is all there.
  for (let failed = 0; !model.done;) {
    await sleep(POLL_MS);
    try {
      info = await fetchIndex();
      failed = 0;
    } catch {
      // The server went (elect viz stopped, or the run's process): what
      // is at hand stays, and the title says so.
      if (++failed === 3) showError('the server has stopped: what is at hand stays, the rest cannot be fetched');
      continue;
    }
    const ended = info.done;
    model.update(info);
    view.refresh();
    if (ended && mode.live) { view.pause(); view.seek(model.end); }
  }
}

main().catch((err) => {
  $('title').textContent = 'elect: no run shown';
  showError(`cannot show this run: ${err.message || err}`);
  document.body.dataset.ready = 'error';
});
