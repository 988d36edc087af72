// view.js: the moment shown and how the page gets there. A View holds the
// state after the first i events, at ms (the state the other parts read),
// and seeks, steps and plays through the run; each new moment it hands to
// the timeline, the network, the side panel, the card of the node
// selected, the event log and the chart.

import { $, afterPaint } from './common.js';
import { NS } from './data.js';
import { Network } from './network.js';
import { Panel } from './panel.js';
import { Card } from './card.js';
import { Log } from './log.js';
import { Chart } from './chart.js';
import { Timeline } from './timeline.js';

const DETAILS_EVERY_MS = 500;    // a node's details are written again at most this often while playing
// The counters and the accessible list of nodes are written again at most
// this often while playing: text that changes 60 times a second cannot be
// read, and at 10,000 nodes its layout and paint cost the frames.
const WORDS_EVERY_MS = 100;

// showError says what went wrong in the page's error box (#error).
export function showError(text) {
  const box = $('error');
  if (box.dataset.text === text) return;
  box.dataset.text = text;
  box.hidden = false;
  $('error-text').textContent = text;
}

export class View {
  constructor(model, pos, what, live) {
    this.what = what;
    this.model = model;
    this.live = live;
    this.ms = 0;
    this.i = 0;
    this.seq = 0;   // the latest seek: an older one that ends later is dropped
    this.busy = 0;  // seeks and fetches under way (idle waits for none)
    this.playing = false;
    this.speed = 1;
    this.selected = -1;
    this.net = new Network(this, pos, (v) => this.select(v));
    this.panel = new Panel(this);
    this.card = new Card(this);
    this.log = new Log(this);
    this.chart = new Chart(model);
    this.timeline = new Timeline(this);
    this.refresh();
  }

  // The network's picture, for tests and bench.mjs (window.viz.view): node
  // v's place on the canvas, the zoom, the nodes' places in the layout's
  // units, a step's arrow, the links drawn as one-way arrows ({from, to}:
  // to hears from, not the other way) and those cut both ways (not drawn,
  // [a, b]), the clocks whose jump is drawn, the last frames' drawing
  // times.
  xy(v) { return this.net.xy(v); }
  get zoom() { return this.net.zoom; }
  get cx() { return this.net.cx; }
  get cy() { return this.net.cy; }
  get arrow() { return this.net.arrow; }
  get oneWay() { return this.net.oneWay || []; }
  get bothWays() { return this.net.bothWays || []; }
  get flashes() { return this.net.flashes || []; }
  get frames() { return this.net.frames; }
  set frames(f) { this.net.frames = f; }

  // refresh takes what the index says now: the run's length, the title,
  // the marks, the chart; a live run's end is followed.
  refresh() {
    const m = this.model;
    this.timeline.stretch();
    const sofar = `${m.events.toLocaleString('en')} events, ${(m.end / 1000).toFixed(3)} s`;
    let title = `${this.what}: ${sofar}`;
    if (this.live) title = m.done ? `${title} (run over)` : `${this.what} (live)`;
    else if (!m.done) title += ' so far (reading the trace…)';
    $('title').textContent = title;
    if (m.info.error) showError(`the trace stopped being read: ${m.info.error}`);
    // A trace of a header and no event: said so, over the network.
    const empty = m.done && m.events === 0;
    $('empty').hidden = !empty;
    if (empty) $('empty').textContent = `This trace holds no events: only its header (${m.n} nodes). There is nothing to replay.`;
    // The marks and the chart wait for the first frame.
    if (!this.started) return;
    this.timeline.marks();
    this.chart.draw(this.ms);
    if (this.following) this.seek(m.end);
  }

  // follow keeps the view at the end of a live run, until the user
  // scrubs or pauses.
  follow() {
    this.following = true;
    this.timeline.button(true);
    this.seek(this.model.end);
  }

  play() {
    if (this.live && !this.model.done) { this.follow(); return; }
    if (this.ms >= this.model.end) this.seek(0);
    this.playing = true;
    this.timeline.button(true);
    let last = performance.now(), pending = null;
    const tick = (now) => {
      if (!this.playing) return;
      // While a chunk is on its way the clock waits for it, then goes
      // on as far as real time went.
      if (!pending) {
        const next = Math.min(this.model.end, this.ms + (now - last) * this.speed);
        last = now;
        pending = this.seek(next).finally(() => { pending = null; });
        if (next >= this.model.end) { this.pause(); return; }
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }

  pause() {
    // The words were left behind while playing: they catch up.
    if (this.playing && this.state) this.panel.describe();
    this.playing = false;
    this.following = false;
    this.timeline.button(false);
  }

  // task counts a seek or fetch under way, for idle.
  async task(p) {
    this.busy++;
    try { return await p; } finally { this.busy--; }
  }

  // idle resolves once nothing is under way (for tests: a click's seek
  // has been shown).
  idle() {
    return new Promise((done) => { const check = () => (this.busy ? setTimeout(check, 5) : done()); check(); });
  }

  // seek shows the run at ms (milliseconds of run time). Playing on, or
  // within a chunk at hand, the page replays the events itself; a jump
  // elsewhere asks the server for the state there (a small part of a
  // chunk) and fetches the chunk behind it, for playing on, afterwards.
  seek(ms) {
    const seq = ++this.seq, m = this.model;
    this.log.stepped = -1;
    ms = Math.max(0, Math.min(ms, m.end));
    return this.task((async () => {
      const k = m.chunkAt(ms), s = this.state;
      const near = k < 0 || m.loaded(k) || (s && s.i <= m.chunks[k][0] + m.chunks[k][1] && m.chunkOf(s.i) >= k - 4 && ms >= s.t);
      if (near) {
        const i = await m.count(ms);
        if (seq === this.seq) await this.show(i, ms, seq);
        return;
      }
      const jumped = await m.stateAt(ms);
      if (seq !== this.seq) return;
      this.state = jumped;
      this.present(jumped.i, ms);
      // Messages in flight are drawn from the chunk, once it is here.
      m.chunk(k).then(() => { if (seq === this.seq) this.net.draw(); }).catch(() => {});
    })());
  }

  // step shows the run one event further, even among events of the same
  // instant (step mode): a message sent is drawn as an arrow from its
  // sender to its receiver.
  step() {
    this.pause();
    if (this.i >= this.model.events) return Promise.resolve();
    const seq = ++this.seq, i = this.i;
    return this.task((async () => {
      const ch = await this.model.chunk(this.model.chunkOf(i));
      if (seq !== this.seq) return;
      await this.show(i + 1, ch.t[i - ch.first] / NS, seq);
      if (seq !== this.seq) return;
      // The event in words in the log, and on the canvas.
      this.log.step(i);
      this.net.show(ch.node[i - ch.first]);
    })());
  }

  // back shows the run one event earlier (step mode, backwards).
  back() {
    this.pause();
    if (this.i <= 0) return Promise.resolve();
    const seq = ++this.seq, i = this.i - 1;
    return this.task((async () => {
      let ms = 0;
      if (i > 0) { const ch = await this.model.chunk(this.model.chunkOf(i - 1)); ms = ch.t[i - 1 - ch.first] / NS; }
      if (seq !== this.seq) return;
      await this.show(i, ms, seq);
      if (seq === this.seq && i > 0) this.log.step(i - 1);
    })());
  }

  // show shows the state after the first i events, at ms; seq is the
  // seek it answers, dropped if a later one came.
  async show(i, ms, seq = ++this.seq) {
    const s = this.state, m = this.model;
    // Forward a little (playing): go on from the state shown.
    const forward = s && i >= s.i && i - s.i <= 4 * m.chunkEvents;
    const fresh = forward ? await m.need(s.i, i).then(() => null) : await m.at(i);
    if (seq !== this.seq) return;
    if (fresh) this.state = fresh;
    else m.advance(this.state, i);
    if (this.state.i !== i) this.state = await m.at(i); // a chunk went from the cache, or grew, meanwhile
    if (seq !== this.seq) return;
    this.present(i, ms);
  }

  // present shows this.state, the state after the first i events, at ms.
  present(i, ms) {
    const m = this.model;
    this.i = i;
    this.ms = ms;
    // The chunk after, fetched before it is needed (once the first frame
    // is up: until then it would only slow that down).
    const k = m.chunkOf(i);
    if (this.started && k + 1 < m.chunks.length && i - m.chunks[k][0] > m.chunkEvents / 2) m.chunk(k + 1);
    this.timeline.present();
    this.net.draw();
    const now = performance.now();
    if (!this.playing || now - (this.wordsAt || 0) >= WORDS_EVERY_MS) { this.wordsAt = now; this.panel.describe(); }
    // The log and the components wait for the frame to be painted (the
    // task after the next frame's): a seek is shown first. The first
    // frame's wait for the page to start them (app.js).
    if (!this.pending && this.started) {
      this.pending = true;
      this.task(afterPaint()).then(() => {
        this.pending = false;
        this.panel.listComponents();
        this.log.update();
      });
    }
    if (this.started) this.chart.draw(this.ms);
    if (this.selected >= 0) {
      // Playing, the details (their history asked of the server) are
      // written again twice a second, not every frame.
      if (!this.playing || now - (this.detailsAt || 0) > DETAILS_EVERY_MS) { this.detailsAt = now; this.panel.details(this.selected); }
      this.card.fill(this.selected);
    }
  }

  // select shows node v (-1: none) ringed on the network, its card beside
  // it, and its details in the panel, scrolled into view.
  select(v) {
    this.selected = v;
    this.card.fill(v);
    this.net.draw();
    if (v >= 0) {
      this.panel.details(v);
      $('node-section').scrollIntoView({ block: 'nearest' });
    } else this.panel.clear();
  }
}
