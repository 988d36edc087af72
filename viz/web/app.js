// elect's election replay. The page never holds a whole run: the server
// cuts it into chunks of events, each with the state before its first
// event (a keyframe), and says where they are (GET /index: each chunk's
// first event and times, the timeline's marks, the chart's samples). The
// page fetches the few chunks around the moment it shows (GET /chunk?k=K,
// typed arrays, see viz/chunk.go) and replays from a keyframe to the event
// it wants. A live run is the same index, growing: the page asks it what
// is new a few times a second.

const MAX_MESSAGES_DRAWN = 3000; // beyond that, an aggregate count instead
const NS = 1e6;                  // nanoseconds per millisecond
const EVERYONE = -2;             // the peer of a broadcast's send: every node in range
const CACHED_CHUNKS = 8;         // chunks the page keeps: a few MB each
const POLL_MS = 300;             // how often a growing index is asked again
const LISTED_NODES = 500;        // nodes in the accessible list, at most

const $ = (id) => document.getElementById(id);

// gen numbers what states hold: a state's linksGen changes whenever its
// links do, its nodesGen whenever a node's look does (life, state,
// leader), so that a picture of either can be kept until then.
let gen = 0;

// decodeChunk reads a chunk as viz/chunk.go writes it, as views on the
// fetched bytes.
function decodeChunk(buf) {
  const h = new Uint32Array(buf, 0, 8);
  if (h[0] !== 0x68636c65 || h[1] !== 1) throw new Error('the server sent a chunk this page cannot read');
  const [n, nodes, links, types, kfBytes, textBytes] = h.slice(2);
  let off = 32;
  const take = (Type, len) => { const a = new Type(buf, off, len); off += Type.BYTES_PER_ELEMENT * len; return a; };
  const head = take(Float64Array, 8);
  const kf = {
    i: head[0], t: head[1], elections: head[2], leaderlessTime: head[3], aliveTime: head[4],
    aliveN: head[5], ledN: head[6], sentTotal: head[7],
    sent: take(Float64Array, types), value: take(Float64Array, nodes), idxNum: take(Float64Array, nodes),
    leader: take(Int32Array, nodes), idxID: take(Int32Array, nodes), links: take(Int32Array, 2 * links),
    alive: take(Uint8Array, nodes), state: take(Uint8Array, nodes),
  };
  off = 32 + kfBytes;
  const ch = {
    first: head[0], n, kf,
    t: take(Float64Array, n), b: take(Float64Array, n),
    node: take(Int32Array, n), peer: take(Int32Array, n), a: take(Int32Array, n), c: take(Int32Array, n),
    kind: take(Uint8Array, n), flag: take(Uint8Array, n),
  };
  off = 32 + kfBytes + Math.ceil(34 * n / 8) * 8;
  ch.text = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, off, textBytes)));
  return ch;
}

// Model finds its way in the run through the server's index, and answers
// "what was the state after event i" from the chunks it fetches.
class Model {
  constructor(info) {
    this.header = info.header;
    this.n = info.header.nodes;
    this.types = info.header.message_types;
    this.states = info.states;
    this.chunkEvents = info.chunk_events;
    this.K = Object.fromEntries(info.kinds.map((name, k) => [name, k]));
    this.normCode = this.states.indexOf('Norm');
    this.cache = new Map(); // chunk number -> { n, p: promise of the chunk, used }
    this.used = 0;
    this.update(info);
  }

  // update takes a newer index: more of the run read, or lived.
  update(info) {
    this.info = info;
    this.chunks = info.chunks;
    this.events = info.events;
    this.end = info.end_ms;
    this.done = info.done;
  }

  // chunk fetches chunk k (or takes it from the cache, while it has as
  // many events as the index says).
  chunk(k) {
    const want = this.chunks[k][1];
    let c = this.cache.get(k);
    if (!c || c.n !== want) {
      c = { n: want, p: this.fetchGzip(`chunk?k=${k}`).then((b) => { c.ready = decodeChunk(b); return c.ready; }) };
      c.p.catch(() => { if (this.cache.get(k) === c) this.cache.delete(k); });
      this.cache.set(k, c);
      if (this.cache.size > CACHED_CHUNKS) {
        let old = -1, oldest = Infinity;
        for (const [j, x] of this.cache) if (x.used < oldest && j !== k) { old = j; oldest = x.used; }
        this.cache.delete(old);
      }
    }
    c.used = ++this.used;
    return c.p;
  }

  // loaded is chunk k when it is at hand, else null.
  loaded(k) {
    const c = this.cache.get(k);
    return c && c.ready && k < this.chunks.length && c.n === this.chunks[k][1] ? c.ready : null;
  }

  // chunkOf is the chunk that holds event i (the last for i = events).
  chunkOf(i) { return Math.max(0, Math.min(Math.floor(i / this.chunkEvents), this.chunks.length - 1)); }

  // chunkAt is the last chunk that starts at or before ms (-1: none), the
  // one whose events end the run up to ms.
  chunkAt(ms) {
    let lo = 0, hi = this.chunks.length; // the first chunk that starts after ms
    while (lo < hi) { const mid = (lo + hi) >> 1; if (this.chunks[mid][2] <= ms) lo = mid + 1; else hi = mid; }
    return lo - 1;
  }

  // count is how many events happen at or before ms.
  async count(ms) {
    const k = this.chunkAt(ms);
    if (k < 0) return 0;
    const ch = await this.chunk(k);
    let a = 0, b = ch.n;
    while (a < b) { const mid = (a + b) >> 1; if (ch.t[mid] / NS <= ms) a = mid + 1; else b = mid; }
    return ch.first + a;
  }

  // stateAt asks the server for the state after every event at or before
  // ms: a chunk of no events, whose keyframe it is. It comes as it is: a
  // small response is quicker so than compressed.
  async stateAt(ms) {
    const r = await fetch(`state?ms=${ms}`);
    if (!r.ok) throw new Error(`state at ${ms} ms: ${await r.text()}`);
    return this.fromKeyframe(decodeChunk(await r.arrayBuffer()));
  }

  // fetchGzip fetches what the server compressed with gzip (a sixth of its
  // size: the browser moves a response's bytes slower than it undoes gzip).
  async fetchGzip(url) {
    const r = await fetch(url);
    if (!r.ok) throw new Error(`${url}: ${await r.text()}`);
    return new Response(r.body.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
  }

  // fromKeyframe is a state of its own, the chunk's first.
  fromKeyframe(ch) {
    const k = ch.kf, links = new Set();
    for (let j = 0; j < k.links.length; j += 2) links.add(k.links[j] * this.n + k.links[j + 1]);
    return {
      i: k.i, t: k.t, value: k.value.slice(), alive: k.alive.slice(), leader: k.leader.slice(),
      state: k.state.slice(), idxNum: k.idxNum.slice(), idxID: k.idxID.slice(), links, sent: k.sent.slice(),
      sentTotal: k.sentTotal, elections: k.elections, leaderlessTime: k.leaderlessTime, aliveTime: k.aliveTime,
      aliveN: k.aliveN, ledN: k.ledN, linksGen: ++gen, nodesGen: ++gen,
    };
  }

  // advance brings state s to event i (i >= s.i), through the chunks,
  // which must be at hand (need fetches them).
  advance(s, i) {
    while (s.i < i) {
      const k = this.chunkOf(s.i), ch = this.loaded(k);
      // A chunk gone from the cache, or grown since it came (a live run's
      // last): the caller starts again from a keyframe.
      if (!ch || !this.replay(s, ch, i)) break; // nothing more in the index
    }
  }

  // replay applies to state s the events of chunk ch from s's up to event
  // i (or the chunk's end), and says whether there were any.
  replay(s, ch, i) {
    const from = s.i - ch.first, to = Math.min(i, ch.first + ch.n) - ch.first;
    for (let j = from; j < to; j++) this.apply(s, ch, j);
    return to > from;
  }

  // need fetches the chunks between events from and to.
  need(from, to) {
    if (to <= from) return Promise.resolve([]);
    const ks = [];
    for (let k = this.chunkOf(from); k <= this.chunkOf(Math.max(from, to - 1)); k++) ks.push(this.chunk(k));
    return Promise.all(ks);
  }

  // at is the state after the first i events: from the keyframe of the
  // chunk that holds event i, replayed to it.
  async at(i) {
    // The end of a chunk at hand is as good as the start of the next,
    // which would be fetched.
    const k = this.chunkOf(i), before = k > 0 ? this.loaded(k - 1) : null;
    const ch = before && i === before.first + before.n ? before : await this.chunk(k);
    const s = this.fromKeyframe(ch);
    this.replay(s, ch, i);
    return s;
  }

  // apply advances state s over event j of chunk ch (and the time before
  // it): viz/state.go's apply, which made the keyframes, in the page.
  apply(s, ch, j) {
    const t = ch.t[j] / NS;
    if (t > s.t) {
      s.aliveTime += s.aliveN * (t - s.t);
      s.leaderlessTime += (s.aliveN - s.ledN) * (t - s.t);
      s.t = t;
    }
    s.i++;
    const K = this.K, kind = ch.kind[j], v = ch.node[j];
    if (kind === K.send) {
      const k = ch.a[j];
      if (k >= 0 && k < s.sent.length) s.sent[k]++;
      s.sentTotal++;
      return;
    }
    if (v < 0 || v >= this.n) return;
    if (kind !== K.link_up && kind !== K.link_down) s.nodesGen = ++gen;
    const led = () => (s.alive[v] && s.state[v] === this.normCode && s.leader[v] >= 0 ? 1 : 0);
    switch (kind) {
      case K.node: s.value[v] = ch.b[j]; if (!s.alive[v]) { s.alive[v] = 1; s.aliveN++; } break;
      case K.value: s.value[v] = ch.b[j]; break;
      case K.link_up: { const p = ch.peer[j]; if (p >= 0 && p < this.n) { s.links.add(this.linkKey(v, p)); s.linksGen = ++gen; } break; }
      case K.link_down: { const p = ch.peer[j]; if (p >= 0 && p < this.n) { s.links.delete(this.linkKey(v, p)); s.linksGen = ++gen; } break; }
      case K.crash:
        if (s.alive[v]) { s.ledN -= led(); s.alive[v] = 0; s.aliveN--; }
        s.leader[v] = -1; s.state[v] = 0;
        break;
      case K.restart: case K.recover: if (!s.alive[v]) { s.alive[v] = 1; s.aliveN++; s.ledN += led(); } break;
      case K.status: {
        const num = ch.b[j], id = ch.c[j];
        if (id === v && (num !== 0 || id !== 0) && (s.idxNum[v] !== num || s.idxID[v] !== id)) s.elections++;
        s.ledN -= led();
        s.leader[v] = ch.a[j]; s.state[v] = ch.flag[j]; s.idxNum[v] = num; s.idxID[v] = id;
        s.ledN += led();
        break;
      }
    }
  }

  // linkKey is the number that stands for the link a-b in a state's set
  // (numbers hash and compare faster than strings); ends splits it.
  linkKey(a, b) { return a < b ? a * this.n + b : b * this.n + a; }
  ends(k) { return [Math.floor(k / this.n), k % this.n]; }

  // event is event j of chunk ch as an object, as the trace writes it
  // (for the console, tests and step mode).
  event(ch, j) {
    const kinds = this.info.kinds, kind = kinds[ch.kind[j]];
    const e = { i: ch.first + j, t: ch.t[j], ev: kind, node: ch.node[j] };
    if (ch.peer[j] !== -1) e.peer = ch.peer[j];
    if (kind === 'send' || kind === 'deliver' || kind === 'drop') e.msg = { type: this.types[ch.a[j]] };
    if (kind === 'status') { e.leader = ch.a[j]; e.state = this.states[ch.flag[j]]; e.index = [ch.b[j], ch.c[j]]; }
    if (kind === 'node' || kind === 'value') e.value = ch.b[j];
    if (kind === 'report' || kind === 'panic' || kind === 'act') e.text = ch.text[ch.a[j]];
    return e;
  }

  // slice is events from to to as objects.
  async slice(from, to) {
    to = Math.min(to, this.events);
    const out = [];
    for (let i = from; i < to;) {
      const ch = await this.chunk(this.chunkOf(i));
      for (; i < Math.min(to, ch.first + ch.n); i++) out.push(this.event(ch, i - ch.first));
      if (ch.first + ch.n <= i && ch.n < this.chunkEvents) break;
    }
    return out;
  }
}

// compact writes a count short: 950, 12k, 3.4M.
// short writes a count exactly up to 100,000, then compact.
function short(v) { return v >= 1e5 ? compact(v) : String(v); }

function compact(v) {
  if (v >= 1e6) return `${(v / 1e6).toFixed(v >= 1e7 ? 0 : 1)}M`;
  if (v >= 1e3) return `${(v / 1e3).toFixed(v >= 1e4 ? 0 : 1)}k`;
  return `${v}`;
}

// palette gives each leader and each message type a colour of its own.
function hue(k) { return (k * 137.508) % 360; }
const leaderColours = [];
function leaderColour(l) { return l < 0 ? '#9a9a9a' : (leaderColours[l] ||= `hsl(${hue(l)}, 65%, 50%)`); }
const typeColours = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
function typeColour(k) { return typeColours[k % typeColours.length]; }

// place lays the nodes out: the layout's positions, or a circle for small
// networks, a grid for large ones, relaxed along the initial links.
async function place(model, layout) {
  const n = model.n;
  if (layout) {
    return { x: layout.x, y: layout.y, w: layout.width || 1, h: layout.height || 1, tracks: layout.tracks };
  }
  const x = new Float64Array(n), y = new Float64Array(n);
  const side = Math.ceil(Math.sqrt(n));
  for (let v = 0; v < n; v++) {
    if (n <= 64) {
      const a = 2 * Math.PI * v / n;
      x[v] = 0.5 + 0.45 * Math.cos(a); y[v] = 0.5 + 0.45 * Math.sin(a);
    } else {
      x[v] = (v % side + 0.5) / side; y[v] = (Math.floor(v / side) + 0.5) / side;
    }
  }
  if (n <= 2000) relax(model, (await model.at(await model.count(0))).links, x, y, n <= 200 ? 300 : 60);
  return { x, y, w: 1, h: 1 };
}

// relax pulls linked nodes (up, a state's links) together and pushes all
// apart (a few rounds of a spring layout over the links at time 0).
function relax(model, up, x, y, rounds) {
  const links = [...up].map((k) => model.ends(k));
  const n = model.n, k = 1 / Math.sqrt(n);
  for (let round = 0; round < rounds; round++) {
    const dx = new Float64Array(n), dy = new Float64Array(n);
    for (let a = 0; a < n; a++) {
      for (let b = a + 1; b < n; b++) {
        const ex = x[a] - x[b], ey = y[a] - y[b];
        const d2 = ex * ex + ey * ey + 1e-9;
        const f = k * k / d2;
        dx[a] += ex * f; dy[a] += ey * f; dx[b] -= ex * f; dy[b] -= ey * f;
      }
    }
    for (const [a, b] of links) {
      const ex = x[a] - x[b], ey = y[a] - y[b];
      const d = Math.sqrt(ex * ex + ey * ey) + 1e-9;
      const f = d / k;
      dx[a] -= ex * f; dy[a] -= ey * f; dx[b] += ex * f; dy[b] += ey * f;
    }
    const step = 0.02 * (1 - round / rounds);
    for (let v = 0; v < n; v++) {
      const d = Math.sqrt(dx[v] * dx[v] + dy[v] * dy[v]) + 1e-9;
      x[v] = Math.min(0.98, Math.max(0.02, x[v] + dx[v] / d * Math.min(d, step)));
      y[v] = Math.min(0.98, Math.max(0.02, y[v] + dy[v] / d * Math.min(d, step)));
    }
  }
}

class View {
  constructor(model, pos, what, live) {
    this.what = what;
    this.model = model;
    this.pos = pos;
    this.live = live;
    this.ms = 0;
    this.i = 0;
    this.seq = 0;   // the latest seek: an older one that ends later is dropped
    this.busy = 0;  // seeks and fetches under way (idle waits for none)
    this.playing = false;
    this.speed = 1;
    this.selected = -1;
    this.zoom = 1; this.panX = 0; this.panY = 0; // the view's zoom about the fitted network
    this.canvas = $('net');
    // Under the canvas that takes the pointer and shows the messages, two
    // layers: the links and the nodes, each drawn again only when it
    // changed; the browser puts the three together.
    [this.linksLayer, this.nodesLayer] = ['links', 'nodes'].map((name) => {
      const c = document.createElement('canvas');
      c.className = 'layer';
      c.setAttribute('aria-hidden', 'true');
      c.dataset.layer = name;
      this.canvas.before(c);
      return c;
    });
    this.items = [];
    this.shown = { leader: new Int32Array(model.n).fill(-3), state: new Int8Array(model.n).fill(-1) };
    // The accessible list of nodes, one item a node, for networks a
    // person could go through that way: past that its layout and style
    // cost the page more than all its drawing.
    const list = $('nodes');
    for (let v = 0; v < Math.min(model.n, LISTED_NODES); v++) {
      const li = document.createElement('li');
      li.dataset.nodeId = v;
      list.appendChild(li);
      this.items.push(li);
    }
    if (model.n > LISTED_NODES) {
      const li = document.createElement('li');
      li.textContent = `${model.n} nodes, too many to list: click one on the network for its state`;
      list.appendChild(li);
    }
    this.legend();
    this.wire();
    this.refresh();
  }

  legend() {
    const ul = $('legend');
    this.legendCounts = this.model.types.map((name, k) => {
      const li = document.createElement('li');
      li.innerHTML = `<span><span class="swatch" style="background:${typeColour(k)}"></span>${name}</span><span>0</span>`;
      ul.appendChild(li);
      return li.lastChild;
    });
  }

  wire() {
    const scrub = $('scrub');
    scrub.addEventListener('input', () => { this.pause(); this.seek(Number(scrub.value)); });
    $('play').addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    $('start').addEventListener('click', () => { this.pause(); this.seek(0); });
    $('end').addEventListener('click', () => { this.pause(); this.seek(this.model.end); });
    $('next').addEventListener('click', () => this.step());
    $('speed').addEventListener('change', (e) => { this.speed = Number(e.target.value); });
    this.canvas.addEventListener('click', (e) => { if (!this.dragged) this.pick(e); this.dragged = false; });
    this.wireZoom();
    window.addEventListener('hashchange', () => this.fromHash());
  }

  // wireZoom: the wheel (and a trackpad's pinch, which comes as a wheel
  // with ctrl) zooms about the pointer, a drag pans, a double click fits
  // the whole network again.
  wireZoom() {
    const c = this.canvas;
    c.addEventListener('wheel', (e) => {
      e.preventDefault();
      const r = c.getBoundingClientRect();
      const mx = e.clientX - r.left, my = e.clientY - r.top;
      const f = Math.exp(-e.deltaY * (e.ctrlKey ? 0.01 : 0.002));
      const z = Math.min(64, Math.max(0.25, this.zoom * f));
      const k = z / this.zoom;
      this.panX = mx - (mx - this.panX) * k;
      this.panY = my - (my - this.panY) * k;
      this.zoom = z;
      this.draw();
    }, { passive: false });
    let from = null;
    c.addEventListener('pointerdown', (e) => { from = { x: e.clientX, y: e.clientY, px: this.panX, py: this.panY }; this.dragged = false; });
    window.addEventListener('pointermove', (e) => {
      if (!from) return;
      const dx = e.clientX - from.x, dy = e.clientY - from.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) this.dragged = true;
      if (this.dragged) { this.panX = from.px + dx; this.panY = from.py + dy; this.draw(); }
    });
    window.addEventListener('pointerup', () => { from = null; });
    c.addEventListener('dblclick', () => { this.zoom = 1; this.panX = 0; this.panY = 0; this.draw(); });
  }

  // refresh takes what the index says now: the run's length, the title,
  // the marks, the chart; a live run's end is followed.
  refresh() {
    const m = this.model;
    $('scrub').max = m.end;
    const sofar = `${m.events.toLocaleString('en')} events, ${(m.end / 1000).toFixed(3)} s`;
    let title = `${this.what}: ${sofar}`;
    if (this.live) title = m.done ? `${title} (run over)` : `${this.what} (live)`;
    else if (!m.done) title += ' so far (reading the trace…)';
    if (m.info.error) title += `: stopped: ${m.info.error}`;
    $('title').textContent = title;
    // The marks and the chart wait for the first frame.
    if (!this.started) return;
    this.marks();
    this.chart();
    if (this.following) this.seek(m.end);
  }

  // marks puts on the timeline the index's marks (every crash, restart,
  // recovery, partition, heal, message lost, report, panic, election started and
  // leader elected), those of a kind close together as one; a click goes
  // there.
  marks() {
    const strip = $('marks'), list = this.model.info.marks, end = Math.max(this.model.end, 1);
    let counted = 0;
    for (const x of list) counted += x.n;
    const key = `${list.length}:${counted}:${end}`;
    if (!strip || this.marked === key) return;
    this.marked = key;
    strip.textContent = '';
    // Marks of a kind closer than a four-hundredth of the run are one:
    // at most 400 a kind, whatever the others.
    const found = [], last = new Map();
    for (const x of list) {
      const l = last.get(x.kind);
      if (l && x.t - l.t < end / 400) { l.n += x.n; continue; }
      const m = { ...x };
      last.set(x.kind, m);
      found.push(m);
    }
    for (const m of found) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'mark ' + m.kind;
      b.dataset.kind = m.kind;
      b.dataset.t = m.t;
      b.style.left = `${(100 * m.t) / end}%`;
      b.title = `${(m.t / 1000).toFixed(3)} s: ${m.what}${m.n > 1 ? ` (and ${m.n - 1} more)` : ''}`;
      b.setAttribute('aria-label', b.title);
      b.addEventListener('click', () => { this.pause(); this.seek(m.t); });
      strip.appendChild(b);
    }
  }

  // fromHash goes to the moment the address names: #t=12.5s (or ms).
  fromHash(hash = location.hash) {
    const ms = hashMS(hash);
    if (ms === null) return null;
    this.pause();
    return this.seek(ms);
  }

  // follow keeps the view at the end of a live run, until the user
  // scrubs or pauses.
  follow() {
    this.following = true;
    $('play').textContent = '⏸';
    $('play').setAttribute('aria-label', 'pause');
    this.seek(this.model.end);
  }

  play() {
    if (this.live && !this.model.done) { this.follow(); return; }
    if (this.ms >= this.model.end) this.seek(0);
    this.playing = true;
    $('play').textContent = '⏸';
    $('play').setAttribute('aria-label', 'pause');
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
    this.playing = false;
    this.following = false;
    $('play').textContent = '▶';
    $('play').setAttribute('aria-label', 'play');
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
      m.chunk(k).then(() => { if (seq === this.seq) this.draw(); }).catch(() => {});
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
      if (seq === this.seq) await this.show(i + 1, ch.t[i - ch.first] / NS, seq);
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
    $('scrub').value = this.ms;
    $('clock').value = (this.ms / 1000).toFixed(3) + ' s';
    document.body.dataset.time = this.ms;
    document.body.dataset.events = this.i;
    if (!this.playing && !this.following) {
      // The address carries the moment shown, for sharing it.
      history.replaceState(null, '', `#t=${(this.ms / 1000).toFixed(3)}s`);
    }
    this.draw();
    this.describe();
  }

  // describe keeps the accessible list and the counters in step.
  describe() {
    const s = this.state, n = this.model.n, shown = this.shown, names = this.model.states;
    for (let v = 0; v < this.items.length; v++) {
      const leader = s.alive[v] ? s.leader[v] : -2;
      const state = s.alive[v] ? s.state[v] : -2;
      if (shown.leader[v] === leader && shown.state[v] === state) continue;
      shown.leader[v] = leader; shown.state[v] = state;
      const li = this.items[v];
      li.dataset.leader = String(s.leader[v]);
      li.dataset.state = s.alive[v] ? names[s.state[v]] : 'crashed';
      li.dataset.alive = s.alive[v] ? 'true' : 'false';
      li.textContent = s.alive[v] ? `node ${v}: ${names[s.state[v]] || 'booting'}, leader ${s.leader[v] < 0 ? 'none' : s.leader[v]}` : `node ${v}: crashed`;
    }
    s.sent.forEach((c, k) => { this.legendCounts[k].textContent = c; });
    const leaders = new Set(), norm = this.model.normCode;
    for (let v = 0; v < n; v++) {
      if (s.alive[v] && s.state[v] === norm && s.leader[v] >= 0) leaders.add(s.leader[v]);
    }
    const frac = s.aliveTime > 0 ? (100 * s.leaderlessTime / s.aliveTime).toFixed(2) + '%' : '–';
    const named = [...leaders].sort((a, b) => a - b);
    const counters = [
      ['time', (this.ms / 1000).toFixed(3) + ' s'], ['events', `${short(this.i)} / ${short(this.model.events)}`],
      ['live nodes', s.aliveN], ['following a leader', s.ledN],
      ['leaders', named.length > 12 ? `${named.slice(0, 12).join(', ')} and ${named.length - 12} more` : named.join(', ') || 'none'],
      ['messages sent', s.sentTotal], ['elections started', s.elections], ['without a leader', frac],
    ];
    // Written once, then only the values that changed: a frame's DOM
    // work stays small.
    if (!this.counterCells) {
      $('counters').innerHTML = counters.map(([k]) => `<dt>${k}</dt><dd></dd>`).join('');
      this.counterCells = [...$('counters').querySelectorAll('dd')];
    }
    counters.forEach(([, v], k) => {
      const text = String(v), cell = this.counterCells[k];
      if (cell.textContent !== text) cell.textContent = text;
    });
    if (this.started) this.chart();
    if (this.selected >= 0) this.details(this.selected);
  }

  // chart draws the index's samples: messages sent (to their most) and
  // nodes without a leader (of all), the moments with no leader at all
  // shaded, and where the view is.
  chart() {
    const c = $('chart'), g = c.getContext('2d'), m = this.model, info = m.info;
    const w = c.width, h = c.height;
    const L = 34, R = w - 6, T = 6, B = h - 16, end = m.end;
    const X = (ms) => L + (end > 0 ? (R - L) * ms / end : 0);
    // The curves change only with the index: drawn once for it, then
    // copied each frame under the cursor.
    if (this.charted !== info) {
      this.charted = info;
      this.chartPicture = this.drawChart(w, h, L, R, T, B, X);
    }
    g.clearRect(0, 0, w, h);
    g.drawImage(this.chartPicture, 0, 0);
    const x = X(this.ms);
    g.strokeStyle = '#222'; g.beginPath(); g.moveTo(x, T); g.lineTo(x, B); g.stroke();
  }

  drawChart(w, h, L, R, T, B, X) {
    const m = this.model, info = m.info, step = info.sample_step_ms, end = m.end;
    const c = document.createElement('canvas');
    c.width = w; c.height = h;
    const g = c.getContext('2d');
    const smp = info.samples.map((p, k) => ({ ms: k * step, sent: p[0], leaderless: p[1], alive: p[2] }));
    smp.push({ ms: end, sent: info.now[0], leaderless: info.now[1], alive: info.now[2] });
    const ph = B - T;
    let maxSent = 1;
    for (const p of smp) maxSent = Math.max(maxSent, p.sent);
    const maxLess = Math.max(1, m.n);
    // Intervals with no leader at all (every live node leaderless), shaded.
    g.fillStyle = 'rgba(213, 94, 0, 0.15)';
    for (let k = 0; k + 1 < smp.length; k++) {
      if (smp[k].leaderless > 0 && smp[k].leaderless >= smp[k].alive) g.fillRect(X(smp[k].ms), T, Math.max(1, X(smp[k + 1].ms) - X(smp[k].ms)), ph);
    }
    const line = (f, colour) => {
      g.beginPath(); g.strokeStyle = colour;
      smp.forEach((p, k) => { const x = X(p.ms), y = B - ph * f(p); k ? g.lineTo(x, y) : g.moveTo(x, y); });
      g.stroke();
    };
    line((p) => p.sent / maxSent, '#1f77b4');
    line((p) => p.leaderless / maxLess, '#d62728');
    // Axes: time in seconds below; messages (blue, left) scaled to their
    // most, nodes without a leader (red) to all nodes.
    g.strokeStyle = '#888'; g.beginPath(); g.moveTo(L, T); g.lineTo(L, B); g.lineTo(R, B); g.stroke();
    g.fillStyle = '#555'; g.font = '9px system-ui, sans-serif';
    g.textAlign = 'left'; g.fillText('0', L - 2, h - 4);
    g.textAlign = 'right'; g.fillText(`${(end / 1000).toFixed(end < 10000 ? 1 : 0)} s`, R, h - 4);
    g.textAlign = 'center'; g.fillText('time', (L + R) / 2, h - 4);
    g.textAlign = 'right';
    g.fillStyle = '#1f77b4'; g.fillText(compact(maxSent), L - 3, T + 8);
    g.fillStyle = '#d62728'; g.fillText(`${compact(maxLess)} n`, L - 3, T + 18);
    g.fillStyle = '#555'; g.fillText('0', L - 3, B);
    return c;
  }

  // fit works out where the network goes on the canvas (once a frame:
  // asking the page for the canvas's size is costly).
  fit() {
    // The canvas's box is asked of the page only when it changed size:
    // asked each frame, after the counters changed, it would make the
    // browser lay the page out again then and there.
    if (!this.rect) {
      this.rect = this.canvas.getBoundingClientRect();
      new ResizeObserver(() => { this.rect = this.canvas.getBoundingClientRect(); this.draw(); }).observe(this.canvas);
    }
    const r = this.rect;
    const pad = 24, p = this.pos;
    const scale = Math.min((r.width - 2 * pad) / p.w, (r.height - 2 * pad) / p.h);
    // Centred: the margin left over by the scale's tighter side, halved.
    this.box = { r, scale, ox: pad + (r.width - 2 * pad - p.w * scale) / 2, oy: pad + (r.height - 2 * pad - p.h * scale) / 2 };
  }

  // positions brings moving nodes to where they are at this.ms: along
  // their legs, standing still between them (as the simulator moved them).
  positions() {
    const p = this.pos;
    if (!p.tracks) { this.cx = p.x; this.cy = p.y; return; }
    if (!this.cx || this.cx === p.x) { this.cx = Float64Array.from(p.x); this.cy = Float64Array.from(p.y); }
    const ms = this.ms;
    for (let v = 0; v < p.tracks.length; v++) {
      const legs = p.tracks[v];
      let lo = 0, hi = legs.length; // the first leg that ends at or after ms
      while (lo < hi) { const mid = (lo + hi) >> 1; if (legs[mid].t1 < ms) lo = mid + 1; else hi = mid; }
      let x = p.x[v], y = p.y[v];
      if (lo < legs.length) {
        const g = legs[lo];
        if (ms < g.t0) {
          if (lo > 0) { x = legs[lo - 1].x1; y = legs[lo - 1].y1; }
        } else {
          const f = g.t1 > g.t0 ? (ms - g.t0) / (g.t1 - g.t0) : 1;
          x = g.x0 + (g.x1 - g.x0) * f; y = g.y0 + (g.y1 - g.y0) * f;
        }
      } else if (legs.length) {
        x = legs[legs.length - 1].x1; y = legs[legs.length - 1].y1;
      }
      this.cx[v] = x; this.cy[v] = y;
    }
  }

  // screen works out every node's place on the canvas, once a frame.
  screen() {
    this.fit();
    this.positions();
    const n = this.model.n, { ox, oy, scale } = this.box;
    if (!this.sx || this.sx.length !== n) { this.sx = new Float32Array(n); this.sy = new Float32Array(n); }
    for (let v = 0; v < n; v++) {
      this.sx[v] = (ox + this.cx[v] * scale) * this.zoom + this.panX;
      this.sy[v] = (oy + this.cy[v] * scale) * this.zoom + this.panY;
    }
  }

  // xy is node v's place on the canvas.
  xy(v) {
    if (!this.sx) this.screen();
    return [this.sx[v], this.sy[v]];
  }

  draw() {
    if (!this.state) return;
    const t0 = performance.now();
    this.screen();
    const c = this.canvas, dpr = window.devicePixelRatio || 1;
    const r = this.box.r, W = r.width, H = r.height;
    for (const layer of [c, this.linksLayer, this.nodesLayer]) {
      if (layer.width !== Math.round(W * dpr) || layer.height !== Math.round(H * dpr)) {
        layer.width = Math.round(W * dpr); layer.height = Math.round(H * dpr);
      }
    }
    const s = this.state, sx = this.sx, sy = this.sy;
    const off = (v) => sx[v] < -10 || sy[v] < -10 || sx[v] > W + 10 || sy[v] > H + 10;
    const view = `${this.zoom}:${this.panX}:${this.panY}:${c.width}x${c.height}`;
    const layer = (canvas) => {
      const g = canvas.getContext('2d');
      g.setTransform(dpr, 0, 0, dpr, 0, 0);
      g.clearRect(0, 0, W, H);
      return g;
    };
    // Moving nodes move every frame: their layers too.
    const moving = !!this.pos.tracks;
    if (moving || this.linksKey !== `${s.linksGen}:${view}`) {
      this.linksKey = `${s.linksGen}:${view}`;
      this.drawLinks(layer(this.linksLayer), off);
    }
    if (moving || this.nodesKey !== `${s.nodesGen}:${view}`) {
      this.nodesKey = `${s.nodesGen}:${view}`;
      this.drawNodes(layer(this.nodesLayer), off);
    }
    const g = layer(c);
    this.messages(g);
    if (this.selected >= 0) {
      const v = this.selected;
      g.beginPath(); g.arc(sx[v], sy[v], this.radius() + 7, 0, 2 * Math.PI); g.strokeStyle = '#0a58ca'; g.lineWidth = 2; g.stroke(); g.lineWidth = 1;
    }
    // The time a frame takes to draw, for the browser test and
    // bench.mjs: the last 120 frames.
    (this.frames ||= []).push(performance.now() - t0);
    if (this.frames.length > 120) this.frames.shift();
  }

  radius() { const n = this.model.n; return n > 1000 ? 2 : n > 200 ? 4 : 8; }

  drawLinks(g, off) {
    const s = this.state, n = this.model.n, sx = this.sx, sy = this.sy;
    g.strokeStyle = '#ccc'; g.lineWidth = 1;
    g.beginPath();
    for (const k of s.links) {
      const a = Math.floor(k / n), b = k - a * n;
      if (off(a) && off(b)) continue;
      g.moveTo(sx[a], sy[a]); g.lineTo(sx[b], sy[b]);
    }
    g.stroke();
  }

  drawNodes(g, off) {
    const s = this.state, n = this.model.n, sx = this.sx, sy = this.sy, rad = this.radius();
    // Nodes of one colour are filled as one path: a few fills a frame,
    // not one a node. Many small nodes are squares, which fill faster.
    const groups = new Map();
    const electing = [], crashed = [], leaders = [], norm = this.model.normCode;
    for (let v = 0; v < n; v++) {
      if (off(v)) continue;
      if (!s.alive[v]) { crashed.push(v); continue; }
      const led = s.state[v] === norm && s.leader[v] >= 0;
      const colour = led ? leaderColour(s.leader[v]) : '#9a9a9a';
      let group = groups.get(colour);
      if (!group) groups.set(colour, group = []);
      group.push(v);
      if (s.state[v] !== norm) electing.push(v);
      if (led && s.leader[v] === v) leaders.push(v);
    }
    const square = rad <= 2 && this.zoom < 2;
    const shapes = (vs, extra) => {
      g.beginPath();
      const q = rad + extra;
      for (const v of vs) {
        if (square && !extra) g.rect(sx[v] - q, sy[v] - q, 2 * q, 2 * q);
        else { g.moveTo(sx[v] + q, sy[v]); g.arc(sx[v], sy[v], q, 0, 2 * Math.PI); }
      }
    };
    shapes(crashed, 0); g.fillStyle = '#e4e4e4'; g.fill(); g.strokeStyle = '#aaa'; g.stroke();
    for (const [colour, vs] of groups) { shapes(vs, 0); g.fillStyle = colour; g.fill(); }
    if (!square) { shapes(electing, 0); g.strokeStyle = '#333'; g.setLineDash([2, 2]); g.stroke(); g.setLineDash([]); }
    shapes(leaders, 4); g.strokeStyle = '#111'; g.lineWidth = 2; g.stroke(); g.lineWidth = 1;
    if (n <= 64) {
      // Small networks name their nodes, and the state of those not in Norm.
      g.fillStyle = '#222'; g.font = '11px system-ui';
      for (let v = 0; v < n; v++) {
        const st = s.alive[v] && s.state[v] && s.state[v] !== norm ? ' ' + this.model.states[s.state[v]] : '';
        g.fillText(String(v) + st, sx[v] + rad + 2, sy[v] - rad);
      }
    }
  }

  // messages draws the messages sent in the last moments as dots moving
  // from sender to receiver, or, when there are too many, says how many.
  // It reads only the chunks at hand.
  messages(g) {
    const m = this.model, i = this.i, sx = this.sx, sy = this.sy;
    const lastCh = i > 0 ? m.loaded(m.chunkOf(i - 1)) : null;
    const lj = lastCh ? i - 1 - lastCh.first : -1;
    if (!this.playing && lastCh && lj < lastCh.n && lastCh.kind[lj] === m.K.send && lastCh.peer[lj] >= 0 && lastCh.peer[lj] < m.n) {
      // Stepping: the message just sent, as an arrow to its receiver.
      const from = lastCh.node[lj], to = lastCh.peer[lj];
      const ax = sx[from], ay = sy[from], bx = sx[to], by = sy[to];
      const len = Math.hypot(bx - ax, by - ay) || 1, ux = (bx - ax) / len, uy = (by - ay) / len;
      const tx = bx - ux * 9, ty = by - uy * 9; // stop short of the node
      g.strokeStyle = g.fillStyle = typeColour(lastCh.a[lj]);
      g.lineWidth = 2;
      g.beginPath(); g.moveTo(ax, ay); g.lineTo(tx, ty); g.stroke();
      g.beginPath(); g.moveTo(tx, ty); g.lineTo(tx - ux * 9 - uy * 5, ty - uy * 9 + ux * 5); g.lineTo(tx - ux * 9 + uy * 5, ty - uy * 9 - ux * 5); g.closePath(); g.fill();
      g.lineWidth = 1;
      this.arrow = { from, to };
    } else {
      this.arrow = null;
    }
    const span = Math.max(5, 50 * this.speed / 10); // ms of run time a dot takes to cross
    const since = this.ms - span;
    // The sends of the last span, newest first, as far as chunks are at hand.
    let shown = 0, drawn = 0;
    for (let k = m.chunkOf(Math.max(0, i - 1)); k >= 0 && i > 0; k--) {
      const ch = m.loaded(k);
      if (!ch) break;
      let j = Math.min(ch.n, i - ch.first) - 1;
      for (; j >= 0 && ch.t[j] / NS >= since; j--) {
        shown++;
        if (ch.kind[j] !== m.K.send || ch.peer[j] === -1 || drawn >= MAX_MESSAGES_DRAWN) continue;
        drawn++;
        const f = Math.min(1, (this.ms - ch.t[j] / NS) / span);
        const colour = typeColour(ch.a[j]);
        const a = ch.node[j], b = ch.peer[j];
        if (b === EVERYONE) { // a broadcast: one ring widening from the sender
          g.beginPath(); g.arc(sx[a], sy[a], 4 + 26 * f, 0, 2 * Math.PI);
          g.strokeStyle = colour; g.stroke();
          continue;
        }
        if (b < 0 || b >= m.n) continue;
        g.beginPath(); g.arc(sx[a] + (sx[b] - sx[a]) * f, sy[a] + (sy[b] - sy[a]) * f, 3, 0, 2 * Math.PI);
        g.fillStyle = colour; g.fill();
      }
      if (j >= 0) break;
    }
    const status = drawn >= MAX_MESSAGES_DRAWN
      ? `${shown} events in the last ${span.toFixed(0)} ms: too many to draw one by one` : '';
    if ($('status').textContent !== status) $('status').textContent = status;
  }

  pick(e) {
    const r = this.canvas.getBoundingClientRect();
    const px = e.clientX - r.left, py = e.clientY - r.top;
    let best = -1, bestD = 400;
    this.screen();
    for (let v = 0; v < this.model.n; v++) {
      const d = (this.sx[v] - px) ** 2 + (this.sy[v] - py) ** 2;
      if (d < bestD) { best = v; bestD = d; }
    }
    this.selected = best;
    this.draw();
    if (best >= 0) this.details(best); else $('details').textContent = 'Click a node.';
  }

  // details shows node v: its state now, its neighbours, and (asked of
  // the server, which looks back through the run) its last messages and
  // changes.
  details(v) {
    const s = this.state, m = this.model;
    const nbrs = [];
    for (const k of s.links) {
      const [a, b] = m.ends(k);
      if (a === v) nbrs.push(b); else if (b === v) nbrs.push(a);
    }
    nbrs.sort((a, b) => a - b);
    const shown = nbrs.length > 24 ? `${nbrs.slice(0, 24).join(', ')} and ${nbrs.length - 24} more` : nbrs.join(', ') || 'none';
    const state = s.alive[v] ? m.states[s.state[v]] || 'booting' : 'crashed';
    $('details').innerHTML = `<dl>
      <dt>node</dt><dd>${v}</dd><dt>value</dt><dd>${s.value[v]}</dd>
      <dt>alive</dt><dd>${s.alive[v] ? 'yes' : 'no'}</dd>
      <dt>state</dt><dd>${state}</dd>
      <dt>leader</dt><dd>${s.leader[v] < 0 ? 'none' : s.leader[v]}</dd>
      <dt>index</dt><dd>${s.idxID[v] >= 0 ? `⟨${s.idxNum[v]}, ${s.idxID[v]}⟩` : '–'}</dd>
      <dt>neighbours</dt><dd id="detail-neighbours">${shown}</dd></dl>
      <h3>last messages</h3><ol id="detail-messages"><li>…</li></ol>
      <h3>last changes</h3><ol id="detail-changes"><li>…</li></ol>`;
    const at = this.i, key = `${v}:${at}`;
    if (this.asked === key) { this.showHistory(this.told); return; }
    this.asked = key;
    this.task(fetch(`node?v=${v}&i=${at}`).then((r) => r.json()).then((h) => {
      if (this.asked !== key) return;
      this.told = h;
      this.showHistory(h);
    }).catch(() => {}));
  }

  // showHistory fills in a node's last messages and changes.
  showHistory(h) {
    if (!h || !$('detail-messages')) return;
    const items = (xs) => xs.map((x) => `<li>${(x.t / 1000).toFixed(3)} s: ${x.what}</li>`).join('') ||
      `<li>none in the last ${h.looked_back.toLocaleString('en')} events</li>`;
    $('detail-messages').innerHTML = items(h.messages);
    $('detail-changes').innerHTML = items(h.changes);
  }
}

// hashMS is the moment an address names (#t=12.5s, or ms), or null.
function hashMS(hash) {
  const m = /t=([0-9.]+)(ms|s)?/.exec(hash);
  const v = m ? Number(m[1]) : NaN;
  if (!Number.isFinite(v)) return null;
  return m[2] === 'ms' ? v : v * 1000;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

async function index() {
  const r = await fetch('index');
  if (!r.ok) throw new Error(`index: ${await r.text()}`);
  return r.json();
}

async function main() {
  let [mode, layout, info] = await Promise.all([
    fetch('mode').then((r) => r.json()).catch(() => ({ live: false })),
    fetch('layout').then((r) => r.json()),
    index(),
  ]);
  // Wait for the network at time 0 (the layout lays it out), or the end.
  while (!info.done && info.end_ms === 0) { await sleep(100); info = await index(); }
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
      info = await index();
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
