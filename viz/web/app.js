// elect's election replay: the page's entry. It reads what the server says
// of the run (its mode, layout and index), builds the view of it, and, while
// the index grows (a live run, or a trace still being read), asks it again.
// The parts: data.js (the run, from the server's index and chunks),
// layout.js (where nodes stand), view.js (the moment shown: seeking and
// playing), network.js, timeline.js, panel.js and chart.js (what each
// draws), common.js (what they share).

import { $ } from './common.js';
import { Model, fetchIndex } from './data.js';
import { place } from './layout.js';
import { hashMS } from './timeline.js';
import { View } from './view.js';

const POLL_MS = 300;             // how often a growing index is asked again

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

async function main() {
  let [mode, layout, info] = await Promise.all([
    fetch('mode').then((r) => r.json()).catch(() => ({ live: false })),
    fetch('layout').then((r) => r.json()),
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
  const view = new View(model, await place(model, layout), what, mode.live);
  // For tests and the console: viz.seek(ms), viz.end, viz.model, viz.view,
  // viz.events(from, to), viz.idle().
  window.viz = {
    seek: (ms) => view.seek(ms), get end() { return model.end; }, model, view,
    events: (from, to) => model.slice(from, to), idle: () => view.idle(),
  };
  if (first === null) view.follow();
  else await view.task(first.then((s) => { view.state = s; view.present(s.i, at); }));
  document.body.dataset.ready = 'true';
  // Then what can wait for the first frame: the timeline's marks, and
  // fetching chunks ahead.
  view.started = true;
  view.refresh();
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
      if (++failed === 3) $('title').textContent += ' (the server has stopped)';
      continue;
    }
    const ended = info.done;
    model.update(info);
    view.refresh();
    if (ended && mode.live) { view.pause(); view.seek(model.end); }
  }
}

main().catch((err) => {
  $('title').textContent = 'cannot show this run: ' + err;
  document.body.dataset.ready = 'error';
});
