// elect's election replay: reads /trace (JSON lines: a header, then one
// event per line, "t" in nanoseconds) and /layout, and shows the run at any
// moment of it. The state at a moment is the trace replayed up to it, from
// the nearest keyframe, so scrubbing anywhere stays quick.

const KEYFRAME = 2000;          // events between saved states
const MAX_MESSAGES_DRAWN = 3000; // beyond that, an aggregate count instead
const NS = 1e6;                  // nanoseconds per millisecond
const EVERYONE = -2;             // the peer of a broadcast's send: every node in range

const $ = (id) => document.getElementById(id);

// loadReplay reads a whole trace.
async function loadReplay() {
  const traceText = await fetch('trace').then((r) => r.text());
  const lines = traceText.split('\n').filter((l) => l !== '');
  return { header: JSON.parse(lines[0]), events: lines.slice(1).map((l) => JSON.parse(l)) };
}

// openLive follows a run as it goes: the header and the events so far,
// then every event as a server-sent event. It resolves once the links of
// time 0 are known (the layout needs them), and passes later events to
// onEvent, and the run's end to onEnd.
function openLive(onEvent, onEnd) {
  return new Promise((resolve, reject) => {
    const es = new EventSource('events');
    let header = null;
    let early = [];
    const settle = () => { if (early) { const ev = early; early = null; resolve({ header, events: ev }); } };
    es.onmessage = (m) => {
      const x = JSON.parse(m.data);
      if (!header) { header = x; return; }
      if (early) {
        if (x.t === 0) { early.push(x); return; }
        settle();
      }
      onEvent(x);
    };
    es.addEventListener('end', () => { es.close(); settle(); onEnd(); });
    es.onerror = () => { if (!header) { es.close(); reject(new Error('no live run here')); } };
    setTimeout(() => { if (header) settle(); }, 500);
  });
}

// Model holds the trace and answers "what was the state at event i".
class Model {
  constructor(header, events) {
    this.header = header;
    this.events = [];
    this.n = header.nodes;
    this.types = header.message_types;
    this.end = 0;
    this.frames = [];
    this.byNode = Array.from({ length: this.n }, () => []);
    this.final = this.fresh();
    for (const e of events) this.append(e);
    this.samples = this.sample();
  }

  // append adds the next event of the run (a live run grows so).
  append(e) {
    const i = this.events.length;
    if (i % KEYFRAME === 0) this.frames.push(this.copy(this.final));
    this.events.push(e);
    if (e.node !== undefined && e.node < this.n && (e.ev === 'status' || e.ev === 'crash' ||
        e.ev === 'restart' || e.ev === 'recover' || e.ev === 'elect')) {
      this.byNode[e.node].push(i);
    }
    this.apply(this.final, e);
    this.end = Math.max(this.end, e.t / NS);
  }

  fresh() {
    return {
      i: 0, t: 0,
      value: new Float64Array(this.n), alive: new Uint8Array(this.n),
      leader: new Int32Array(this.n).fill(-1), state: new Array(this.n).fill(''),
      index: new Array(this.n).fill(null),
      links: new Set(), sent: new Float64Array(this.types.length),
      elections: 0, leaderlessTime: 0, aliveTime: 0, aliveN: 0, ledN: 0,
    };
  }

  copy(s) {
    return {
      i: s.i, t: s.t, value: s.value.slice(), alive: s.alive.slice(), leader: s.leader.slice(),
      state: s.state.slice(), index: s.index.slice(), links: new Set(s.links), sent: s.sent.slice(),
      elections: s.elections, leaderlessTime: s.leaderlessTime, aliveTime: s.aliveTime,
      aliveN: s.aliveN, ledN: s.ledN,
    };
  }

  // apply advances state s over event e (and the time before it). The
  // live and led counts are kept as they change, so that time advances in
  // constant time whatever the network's size.
  apply(s, e) {
    const t = e.t / NS;
    if (t > s.t) {
      s.aliveTime += s.aliveN * (t - s.t);
      s.leaderlessTime += (s.aliveN - s.ledN) * (t - s.t);
      s.t = t;
    }
    s.i++;
    const v = e.node;
    const led = () => (s.alive[v] && s.state[v] === 'Norm' && s.leader[v] >= 0 ? 1 : 0);
    switch (e.ev) {
      case 'node': s.value[v] = e.value || 0; if (!s.alive[v]) { s.alive[v] = 1; s.aliveN++; } break;
      case 'value': s.value[v] = e.value || 0; break;
      case 'link_up': s.links.add(this.linkKey(v, e.peer)); break;
      case 'link_down': s.links.delete(this.linkKey(v, e.peer)); break;
      case 'crash':
        if (s.alive[v]) { s.ledN -= led(); s.alive[v] = 0; s.aliveN--; }
        s.leader[v] = -1; s.state[v] = '';
        break;
      case 'restart': case 'recover': if (!s.alive[v]) { s.alive[v] = 1; s.aliveN++; s.ledN += led(); } break;
      case 'status': {
        const old = s.index[v];
        const idx = e.index || [0, 0];
        if (idx[1] === v && (idx[0] !== 0 || idx[1] !== 0) && (!old || old[0] !== idx[0] || old[1] !== idx[1])) s.elections++;
        s.ledN -= led();
        s.leader[v] = e.leader; s.state[v] = e.state; s.index[v] = idx;
        s.ledN += led();
        break;
      }
      case 'send': {
        const k = this.types.indexOf(e.msg && e.msg.type);
        if (k >= 0) s.sent[k]++;
        break;
      }
    }
  }

  // linkKey is the number that stands for the link a-b in a state's set
  // (numbers hash and compare faster than strings); ends splits it.
  linkKey(a, b) { return a < b ? a * this.n + b : b * this.n + a; }
  ends(k) { return [Math.floor(k / this.n), k % this.n]; }

  // at returns the state after the first i events.
  at(i) {
    const f = Math.min(Math.floor(i / KEYFRAME), this.frames.length - 1);
    if (f < 0) return this.fresh();
    const s = this.copy(this.frames[f]);
    for (let j = s.i; j < i; j++) this.apply(s, this.events[j]);
    return s;
  }

  // count is how many events happen at or before ms.
  count(ms) {
    let lo = 0, hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.events[mid].t / NS <= ms) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  // sample takes 200 points of the run for the chart.
  sample() {
    const out = [];
    const points = 200;
    for (let p = 0; p <= points; p++) {
      const ms = this.end * p / points;
      const s = this.at(this.count(ms));
      let sent = 0;
      for (const x of s.sent) sent += x;
      out.push({ ms, sent, leaderless: s.aliveN - s.ledN, alive: s.aliveN });
    }
    return out;
  }
}



// compact writes a count short: 950, 12k, 3.4M.
function compact(v) {
  if (v >= 1e6) return `${(v / 1e6).toFixed(v >= 1e7 ? 0 : 1)}M`;
  if (v >= 1e3) return `${(v / 1e3).toFixed(v >= 1e4 ? 0 : 1)}k`;
  return `${v}`;
}

// palette gives each leader and each message type a colour of its own.
function hue(k) { return (k * 137.508) % 360; }
function leaderColour(l) { return l < 0 ? '#9a9a9a' : `hsl(${hue(l)}, 65%, 50%)`; }
const typeColours = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
function typeColour(k) { return typeColours[k % typeColours.length]; }

// place lays the nodes out: the layout's positions, or a circle for small
// networks, a grid for large ones, relaxed along the initial links.
function place(model, layout) {
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
  if (n <= 2000) relax(model, x, y, n <= 200 ? 300 : 60);
  return { x, y, w: 1, h: 1 };
}

// relax pulls linked nodes together and pushes all apart (a few rounds of
// a spring layout over the links at time 0).
function relax(model, x, y, rounds) {
  const links = [...model.at(model.count(0)).links].map((k) => model.ends(k));
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
  constructor(model, pos, title) {
    $('title').textContent = title;
    this.title = title;
    this.model = model;
    this.pos = pos;
    this.ms = 0;
    this.playing = false;
    this.speed = 1;
    this.selected = -1;
    this.zoom = 1; this.panX = 0; this.panY = 0; // the view's zoom about the fitted network
    this.canvas = $('net');
    this.ctx = this.canvas.getContext('2d');
    this.items = [];
    const list = $('nodes');
    for (let v = 0; v < model.n; v++) {
      const li = document.createElement('li');
      li.dataset.nodeId = v;
      list.appendChild(li);
      this.items.push(li);
    }
    this.legend();
    this.wire();
    this.seek(0);
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
    scrub.max = this.model.end;
    scrub.addEventListener('input', () => { this.pause(); this.seek(Number(scrub.value)); });
    $('play').addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    $('start').addEventListener('click', () => { this.pause(); this.seek(0); });
    $('end').addEventListener('click', () => { this.pause(); this.seek(this.model.end); });
    $('next').addEventListener('click', () => this.step());
    $('speed').addEventListener('change', (e) => { this.speed = Number(e.target.value); });
    this.canvas.addEventListener('click', (e) => { if (!this.dragged) this.pick(e); this.dragged = false; });
    window.addEventListener('resize', () => this.draw());
    this.wireZoom();
    this.marks();
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

  // marks puts on the timeline a mark for every crash, restart, recovery,
  // cut (links going down together: a partition), heal (links coming back
  // together), report and election started; a click goes there.
  marks() {
    const strip = $('marks');
    // A live run calls this every second: nothing to redo while no event came.
    if (!strip || this.marked === this.model.events.length) return;
    this.marked = this.model.events.length;
    strip.textContent = '';
    const ev = this.model.events, end = Math.max(this.model.end, 1);
    const found = [];
    const add = (t, kind, what) => {
      const last = found[found.length - 1];
      if (last && last.kind === kind && t - last.t < end / 400) { last.n++; return; }
      found.push({ t, kind, what, n: 1 });
    };
    for (let i = 0; i < ev.length; i++) {
      const e = ev[i], t = e.t / NS;
      switch (e.ev) {
        case 'crash': add(t, 'crash', `node ${e.node} crashes`); break;
        case 'restart': add(t, 'restart', `node ${e.node} restarts`); break;
        case 'recover': add(t, 'recover', `node ${e.node} recovers`); break;
        case 'report': add(t, 'report', `node ${e.node} reports: ${e.text}`); break;
        case 'link_down': case 'link_up': {
          if (e.moved || t === 0) break;
          let j = i;
          while (j + 1 < ev.length && ev[j + 1].t === e.t && ev[j + 1].ev === e.ev) j++;
          if (j > i) add(t, e.ev === 'link_down' ? 'cut' : 'heal', `${j - i + 1} links ${e.ev === 'link_down' ? 'cut: a partition' : 'back: a heal'}`);
          i = j;
          break;
        }
        case 'status':
          if (e.state === 'Elect' && e.index && e.index[1] === e.node) add(t, 'election', `node ${e.node} starts an election`);
          break;
      }
    }
    for (const m of found.slice(0, 500)) {
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
    const m = /t=([0-9.]+)(ms|s)?/.exec(hash);
    if (!m) return false;
    const v = Number(m[1]);
    if (!Number.isFinite(v)) return false;
    this.pause();
    this.seek(m[2] === 'ms' ? v : v * 1000);
    return true;
  }

  // arrive takes an event of a live run; the view shows it at the next
  // frame when it follows the run's end.
  arrive(e) {
    this.model.append(e);
    if (!this.dirty) {
      this.dirty = true;
      requestAnimationFrame(() => {
        this.dirty = false;
        $('scrub').max = this.model.end;
        if (this.following) this.seek(this.model.end);
        if (performance.now() - (this.sampled || 0) > 1000) {
          this.model.samples = this.model.sample();
          this.marks();
          this.sampled = performance.now();
        }
      });
    }
  }

  // follow keeps the view at the end of a live run, until the user
  // scrubs or pauses.
  follow() {
    this.following = true;
    $('title').textContent = this.title + ' (live)';
    $('play').textContent = '⏸';
    $('play').setAttribute('aria-label', 'pause');
    this.seek(this.model.end);
  }

  // over says the live run has ended.
  over() {
    this.live = false;
    this.following = false;
    this.model.samples = this.model.sample();
    this.marks(); // the whole run's, now that it has ended
    $('title').textContent = `${this.title}: ${this.model.events.length} events, ${(this.model.end / 1000).toFixed(3)} s (run over)`;
    this.pause();
    this.seek(this.model.end);
  }

  play() {
    if (this.live) { this.follow(); return; }
    if (this.ms >= this.model.end) this.seek(0);
    this.playing = true;
    $('play').textContent = '⏸';
    $('play').setAttribute('aria-label', 'pause');
    let last = performance.now();
    const tick = (now) => {
      if (!this.playing) return;
      const next = Math.min(this.model.end, this.ms + (now - last) * this.speed);
      last = now;
      this.seek(next);
      if (next >= this.model.end) { this.pause(); return; }
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

  // seek shows the run at ms (milliseconds of run time).
  seek(ms) {
    this.ms = Math.max(0, Math.min(ms, this.model.end));
    this.show(this.model.count(this.ms));
  }

  // step shows the run one event further, even among events of the same
  // instant (step mode): a message sent is drawn as an arrow from its
  // sender to its receiver.
  step() {
    this.pause();
    if (this.i >= this.model.events.length) return;
    this.ms = this.model.events[this.i].t / NS;
    this.show(this.i + 1);
  }

  // show shows the state after the first i events, at this.ms.
  show(i) {
    if (this.state && i >= this.state.i && i - this.state.i < KEYFRAME) {
      // Forward a little (playing): go on from the state shown.
      for (let j = this.state.i; j < i; j++) this.model.apply(this.state, this.model.events[j]);
    } else {
      this.state = this.model.at(i);
    }
    this.i = i;
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
    const s = this.state;
    for (let v = 0; v < this.model.n; v++) {
      const li = this.items[v];
      const alive = s.alive[v] ? 'true' : 'false';
      const leader = String(s.leader[v]);
      const state = s.alive[v] ? s.state[v] : 'crashed';
      if (li.dataset.leader !== leader || li.dataset.state !== state || li.dataset.alive !== alive) {
        li.dataset.leader = leader; li.dataset.state = state; li.dataset.alive = alive;
        li.textContent = s.alive[v] ? `node ${v}: ${state || 'booting'}, leader ${leader < 0 ? 'none' : leader}` : `node ${v}: crashed`;
      }
    }
    let sent = 0;
    s.sent.forEach((c, k) => { sent += c; this.legendCounts[k].textContent = c; });
    const leaders = new Set();
    for (let v = 0; v < this.model.n; v++) {
      if (s.alive[v] && s.state[v] === 'Norm' && s.leader[v] >= 0) leaders.add(s.leader[v]);
    }
    const alive = s.aliveN, led = s.ledN;
    const frac = s.aliveTime > 0 ? (100 * s.leaderlessTime / s.aliveTime).toFixed(2) + '%' : '–';
    $('counters').innerHTML = [
      ['time', (this.ms / 1000).toFixed(3) + ' s'], ['events', `${this.i} / ${this.model.events.length}`],
      ['live nodes', alive], ['following a leader', led], ['leaders', [...leaders].sort((a, b) => a - b).join(', ') || 'none'],
      ['messages sent', sent], ['elections started', s.elections], ['without a leader', frac],
    ].map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('');
    this.chart();
    if (this.selected >= 0) this.details(this.selected);
  }

  chart() {
    const c = $('chart'), g = c.getContext('2d');
    const w = c.width, h = c.height, smp = this.model.samples, end = this.model.end;
    g.clearRect(0, 0, w, h);
    // The plot area, with room for the axes' labels.
    const L = 34, R = w - 6, T = 6, B = h - 16, pw = R - L, ph = B - T;
    const maxSent = Math.max(1, ...smp.map((p) => p.sent));
    const maxLess = Math.max(1, this.model.n);
    const X = (ms) => L + (end > 0 ? pw * ms / end : 0);
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
    g.fillStyle = '#d62728'; g.fillText(`${maxLess} n`, L - 3, T + 18);
    g.fillStyle = '#555'; g.fillText('0', L - 3, B);
    const x = X(this.ms);
    g.strokeStyle = '#222'; g.beginPath(); g.moveTo(x, T); g.lineTo(x, B); g.stroke();
  }

  // fit works out where the network goes on the canvas (once a frame:
  // asking the page for the canvas's size is costly).
  fit() {
    const r = this.canvas.getBoundingClientRect();
    const pad = 24, p = this.pos;
    this.box = { r, pad, scale: Math.min((r.width - 2 * pad) / p.w, (r.height - 2 * pad) / p.h) };
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

  // xy is node v's place on the canvas.
  xy(v) {
    if (!this.box) this.fit();
    if (!this.cx) this.positions();
    const { pad, scale } = this.box;
    return [(pad + this.cx[v] * scale) * this.zoom + this.panX, (pad + this.cy[v] * scale) * this.zoom + this.panY];
  }

  draw() {
    this.fit();
    this.positions();
    const c = this.canvas, dpr = window.devicePixelRatio || 1;
    const r = this.box.r;
    if (c.width !== Math.round(r.width * dpr) || c.height !== Math.round(r.height * dpr)) {
      c.width = Math.round(r.width * dpr); c.height = Math.round(r.height * dpr);
    }
    const g = this.ctx, s = this.state, n = this.model.n;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, r.width, r.height);
    g.strokeStyle = '#ccc'; g.lineWidth = 1;
    g.beginPath();
    for (const k of s.links) {
      const [a, b] = this.model.ends(k);
      const [ax, ay] = this.xy(a), [bx, by] = this.xy(b);
      g.moveTo(ax, ay); g.lineTo(bx, by);
    }
    g.stroke();
    this.messages(g);
    const rad = n > 1000 ? 2 : n > 200 ? 4 : 8;
    // Nodes of one colour are filled as one path: a few fills a frame,
    // not one a node.
    const groups = new Map();
    const electing = [], crashed = [], leaders = [];
    for (let v = 0; v < n; v++) {
      if (!s.alive[v]) { crashed.push(v); continue; }
      const led = s.state[v] === 'Norm' && s.leader[v] >= 0;
      const colour = led ? leaderColour(s.leader[v]) : '#9a9a9a';
      if (!groups.has(colour)) groups.set(colour, []);
      groups.get(colour).push(v);
      if (s.state[v] !== 'Norm') electing.push(v);
      if (led && s.leader[v] === v) leaders.push(v);
    }
    const circles = (vs, extra) => {
      g.beginPath();
      for (const v of vs) { const [x, y] = this.xy(v); g.moveTo(x + rad + extra, y); g.arc(x, y, rad + extra, 0, 2 * Math.PI); }
    };
    circles(crashed, 0); g.fillStyle = '#e4e4e4'; g.fill(); g.strokeStyle = '#aaa'; g.stroke();
    for (const [colour, vs] of groups) { circles(vs, 0); g.fillStyle = colour; g.fill(); }
    circles(electing, 0); g.strokeStyle = '#333'; g.setLineDash([2, 2]); g.stroke(); g.setLineDash([]);
    circles(leaders, 4); g.strokeStyle = '#111'; g.lineWidth = 2; g.stroke(); g.lineWidth = 1;
    if (n <= 64) {
      // Small networks name their nodes, and the state of those not in Norm.
      g.fillStyle = '#222'; g.font = '11px system-ui';
      for (let v = 0; v < n; v++) {
        const [x, y] = this.xy(v);
        const st = s.alive[v] && s.state[v] && s.state[v] !== 'Norm' ? ' ' + s.state[v] : '';
        g.fillText(String(v) + st, x + rad + 2, y - rad);
      }
    }
    if (this.selected >= 0) {
      const [x, y] = this.xy(this.selected);
      g.beginPath(); g.arc(x, y, rad + 7, 0, 2 * Math.PI); g.strokeStyle = '#0a58ca'; g.lineWidth = 2; g.stroke(); g.lineWidth = 1;
    }
  }

  // messages draws the messages sent in the last moments as dots moving
  // from sender to receiver, or, when there are too many, says how many.
  messages(g) {
    const last = this.i > 0 ? this.model.events[this.i - 1] : null;
    if (!this.playing && last && last.ev === 'send' && last.peer >= 0 && last.peer < this.model.n) {
      // Stepping: the message just sent, as an arrow to its receiver.
      const [ax, ay] = this.xy(last.node), [bx, by] = this.xy(last.peer);
      const len = Math.hypot(bx - ax, by - ay) || 1, ux = (bx - ax) / len, uy = (by - ay) / len;
      const tx = bx - ux * 9, ty = by - uy * 9; // stop short of the node
      g.strokeStyle = g.fillStyle = typeColour(this.model.types.indexOf(last.msg && last.msg.type));
      g.lineWidth = 2;
      g.beginPath(); g.moveTo(ax, ay); g.lineTo(tx, ty); g.stroke();
      g.beginPath(); g.moveTo(tx, ty); g.lineTo(tx - ux * 9 - uy * 5, ty - uy * 9 + ux * 5); g.lineTo(tx - ux * 9 + uy * 5, ty - uy * 9 - ux * 5); g.closePath(); g.fill();
      g.lineWidth = 1;
      this.arrow = { from: last.node, to: last.peer };
    } else {
      this.arrow = null;
    }
    const span = Math.max(5, 50 * this.speed / 10); // ms of run time a dot takes to cross
    const from = this.model.count(this.ms - span), to = this.i;
    const shown = to - from;
    let drawn = 0;
    if (shown <= MAX_MESSAGES_DRAWN * 4) {
      for (let j = from; j < to; j++) {
        const e = this.model.events[j];
        if (e.ev !== 'send' || e.peer === undefined) continue;
        if (++drawn > MAX_MESSAGES_DRAWN) break;
        const f = Math.min(1, (this.ms - e.t / NS) / span);
        const colour = typeColour(this.model.types.indexOf(e.msg && e.msg.type));
        const [ax, ay] = this.xy(e.node);
        if (e.peer === EVERYONE) { // a broadcast: one ring widening from the sender
          g.beginPath(); g.arc(ax, ay, 4 + 26 * f, 0, 2 * Math.PI);
          g.strokeStyle = colour; g.stroke();
          continue;
        }
        const [bx, by] = this.xy(e.peer);
        g.beginPath(); g.arc(ax + (bx - ax) * f, ay + (by - ay) * f, 3, 0, 2 * Math.PI);
        g.fillStyle = colour; g.fill();
      }
    }
    $('status').textContent = drawn > MAX_MESSAGES_DRAWN || shown > MAX_MESSAGES_DRAWN * 4
      ? `${shown} events in the last ${span.toFixed(0)} ms: too many to draw one by one` : '';
  }

  pick(e) {
    const r = this.canvas.getBoundingClientRect();
    const px = e.clientX - r.left, py = e.clientY - r.top;
    let best = -1, bestD = 400;
    for (let v = 0; v < this.model.n; v++) {
      const [x, y] = this.xy(v);
      const d = (x - px) ** 2 + (y - py) ** 2;
      if (d < bestD) { best = v; bestD = d; }
    }
    this.selected = best;
    this.draw();
    if (best >= 0) this.details(best); else $('details').textContent = 'Click a node.';
  }

  details(v) {
    const s = this.state, m = this.model;
    const hist = m.byNode[v].filter((i) => i < this.i).slice(-12).map((i) => {
      const e = m.events[i];
      const what = e.ev === 'status' ? `${e.state}, leader ${e.leader}` : e.ev;
      return `<li>${(e.t / NS / 1000).toFixed(3)} s: ${what}</li>`;
    }).join('');
    const idx = s.index[v];
    // Its neighbours now: the links up at it.
    const nbrs = [];
    for (const k of s.links) {
      const [a, b] = m.ends(k);
      if (a === v) nbrs.push(b); else if (b === v) nbrs.push(a);
    }
    nbrs.sort((a, b) => a - b);
    // Its last messages, sent or received, looking back a while.
    const msgs = [];
    for (let j = this.i - 1; j >= Math.max(0, this.i - 50000) && msgs.length < 8; j--) {
      const e = m.events[j];
      if (e.ev === 'send' && e.node === v) msgs.push(`${(e.t / NS / 1000).toFixed(3)} s: sent ${e.msg ? e.msg.type : ''} to ${e.peer === -2 ? 'everyone' : e.peer}`);
      else if (e.ev === 'deliver' && e.node === v) msgs.push(`${(e.t / NS / 1000).toFixed(3)} s: got ${e.msg ? e.msg.type : ''} from ${e.peer}`);
    }
    const shown = nbrs.length > 24 ? `${nbrs.slice(0, 24).join(', ')} and ${nbrs.length - 24} more` : nbrs.join(', ') || 'none';
    $('details').innerHTML = `<dl>
      <dt>node</dt><dd>${v}</dd><dt>value</dt><dd>${s.value[v]}</dd>
      <dt>alive</dt><dd>${s.alive[v] ? 'yes' : 'no'}</dd>
      <dt>state</dt><dd>${s.alive[v] ? s.state[v] || 'booting' : 'crashed'}</dd>
      <dt>leader</dt><dd>${s.leader[v] < 0 ? 'none' : s.leader[v]}</dd>
      <dt>index</dt><dd>${idx ? `⟨${idx[0]}, ${idx[1]}⟩` : '–'}</dd>
      <dt>neighbours</dt><dd id="detail-neighbours">${shown}</dd></dl>
      <h3>last messages</h3><ol id="detail-messages">${msgs.map((x) => `<li>${x}</li>`).join('') || '<li>none yet</li>'}</ol>
      <h3>last changes</h3><ol>${hist}</ol>`;
  }
}

async function main() {
  const [mode, layout] = await Promise.all([
    fetch('mode').then((r) => r.json()).catch(() => ({ live: false })),
    fetch('layout').then((r) => r.json()),
  ]);
  let view = null;
  const pending = [];
  let ended = !mode.live;
  if (!mode.live && mode.events > mode.max_events) {
    throw new Error(`this trace holds ${mode.events.toLocaleString('en')} events, more than the page can hold (${mode.max_events.toLocaleString('en')}): ` +
      'elect check FILE checks it whatever its length; for the page, make a shorter or smaller run (elect sim --duration, --topology)');
  }
  const run = mode.live
    ? await openLive((e) => (view ? view.arrive(e) : pending.push(e)), () => { ended = true; if (view) view.over(); })
    : await loadReplay();
  const model = new Model(run.header, run.events);
  const hash = location.hash; // before the view writes its own moment there
  const h = run.header;
  const what = `${h.algorithm} on ${h.topology || h.nodes + ' nodes'}, seed ${h.seed}`;
  view = new View(model, place(model, layout), mode.live ? what : `${what}: ${model.events.length} events, ${(model.end / 1000).toFixed(3)} s`);
  for (const e of pending) view.arrive(e);
  if (mode.live) { if (ended) view.over(); else { view.live = true; view.follow(); } }
  // For tests and the console: viz.seek(ms), viz.end, viz.model, viz.view.
  window.viz = { seek: (ms) => view.seek(ms), get end() { return model.end; }, model, view };
  if (!mode.live) view.fromHash(hash);
  document.body.dataset.ready = 'true';
}

main().catch((err) => {
  $('title').textContent = 'cannot show this run: ' + err;
  document.body.dataset.ready = 'error';
});
