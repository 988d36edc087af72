// data.js: the run, as the server gives it. The page never holds a whole
// run: the server cuts it into chunks of events, each with the state
// before its first event (a keyframe), and says where they are (GET
// /index: each chunk's first event and times, the timeline's marks, the
// chart's samples). The page fetches the few chunks around the moment it
// shows (GET /chunk?k=K, typed arrays, see viz/chunk.go) and replays from
// a keyframe to the event it wants. A live run is the same index, growing:
// the page asks it what is new a few times a second.

import { leaderRanks } from './common.js';
import { fetchAgain } from './net.js';

export const NS = 1e6;           // nanoseconds per millisecond
const CACHED_CHUNKS = 8;         // chunks the page keeps: a few MB each

// gen numbers what states hold: a state's linksGen changes whenever its
// links do (up, down, a direction cut or carrying again), its nodesGen
// whenever a node's look does (life, state, leader, gray state), so that a
// picture of either can be kept until then.
let gen = 0;

// GRAY_TRUE is the gray state of a node that runs true: its clock at
// 1,000,000 ppm of true time, on time, never jumped. A state's gray map
// holds only the nodes that do not (viz/state.go's grayNode).
export const GRAY_TRUE = Object.freeze({ rate: 1e6, slow: 0, jumped: 0, jumpMS: -1, jumpBy: 0 });
const isTrue = (g) => g.rate === 1e6 && g.slow === 0 && g.jumped === 0 && g.jumpMS === -1 && g.jumpBy === 0;

// decodeChunk reads a chunk as viz/chunk.go writes it, as views on the
// fetched bytes.
function decodeChunk(buf) {
  const h = new Uint32Array(buf, 0, 10);
  if (h[0] !== 0x68636c65 || h[1] !== 4) throw new Error('the server sent a chunk this page cannot read');
  const [n, nodes, links, types, kfBytes, textBytes, cuts, grays] = h.slice(2);
  let off = 40;
  const take = (Type, len) => { const a = new Type(buf, off, len); off += Type.BYTES_PER_ELEMENT * len; return a; };
  const head = take(Float64Array, 9);
  const kf = {
    i: head[0], t: head[1], elections: head[2], leaderlessTime: head[3], aliveTime: head[4],
    aliveN: head[5], ledN: head[6], sentTotal: head[7], valueChanges: head[8],
    sent: take(Float64Array, types), value: take(Float64Array, nodes), idxNum: take(Float64Array, nodes),
    since: take(Float64Array, nodes), gray: take(Float64Array, 5 * grays),
    leader: take(Int32Array, nodes), idxID: take(Int32Array, nodes), links: take(Int32Array, 2 * links),
    cuts: take(Int32Array, 2 * cuts), grayNodes: take(Int32Array, grays),
    alive: take(Uint8Array, nodes), state: take(Uint8Array, nodes),
  };
  off = 40 + kfBytes;
  const ch = {
    first: head[0], n, kf,
    t: take(Float64Array, n), b: take(Float64Array, n),
    node: take(Int32Array, n), peer: take(Int32Array, n), a: take(Int32Array, n), c: take(Int32Array, n),
    kind: take(Uint8Array, n), flag: take(Uint8Array, n),
  };
  off = 40 + kfBytes + Math.ceil(34 * n / 8) * 8;
  ch.text = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, off, textBytes)));
  return ch;
}

// Model finds its way in the run through the server's index, and answers
// "what was the state after event i" from the chunks it fetches.
export class Model {
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
    // Each leader's place in the order leaders were first followed: its
    // colour (common.js's leaderColour).
    const ls = info.leaders || [];
    if (!this.leaderRank) this.leaderRank = new Map();
    for (let r = this.leaderRank.size; r < ls.length; r++) this.leaderRank.set(ls[r], r);
    leaderRanks(this.leaderRank);
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
    const r = await fetchAgain(`state?ms=${ms}`);
    if (!r.ok) throw new Error(`state at ${ms} ms: ${await r.text()}`);
    return this.fromKeyframe(decodeChunk(await r.arrayBuffer()));
  }

  // fetchGzip fetches what the server compressed with gzip (a sixth of its
  // size: the browser moves a response's bytes slower than it undoes gzip),
  // undone in a worker (fetcher.js) so that playing keeps its frames.
  fetchGzip(url) {
    if (!this.fetcher) {
      this.fetcher = new Worker(new URL('fetcher.js', import.meta.url), { type: 'module' });
      this.asked = new Map(); // id -> { done, fail }
      this.nextAsk = 0;
      this.fetcher.onmessage = ({ data: { id, buf, error } }) => {
        const a = this.asked.get(id);
        this.asked.delete(id);
        if (error === undefined) a.done(buf); else a.fail(new Error(error));
      };
      // A worker that cannot start fails what was asked of it.
      this.fetcher.onerror = (e) => {
        for (const a of this.asked.values()) a.fail(new Error(`the page's fetcher: ${e.message || 'did not start'}`));
        this.asked.clear();
      };
    }
    const id = ++this.nextAsk;
    return new Promise((done, fail) => {
      this.asked.set(id, { done, fail });
      this.fetcher.postMessage({ id, url: new URL(url, location.href).href });
    });
  }

  // fromKeyframe is a state of its own, the chunk's first.
  fromKeyframe(ch) {
    const k = ch.kf, links = new Set(), cuts = new Set(), gray = new Map();
    for (let j = 0; j < k.links.length; j += 2) links.add(k.links[j] * this.n + k.links[j + 1]);
    for (let j = 0; j < k.cuts.length; j += 2) cuts.add(k.cuts[j] * this.n + k.cuts[j + 1]);
    k.grayNodes.forEach((v, j) => {
      const g = k.gray.subarray(5 * j, 5 * j + 5);
      gray.set(v, { rate: g[0], slow: g[1], jumped: g[2], jumpMS: g[3], jumpBy: g[4] });
    });
    return {
      i: k.i, t: k.t, value: k.value.slice(), alive: k.alive.slice(), leader: k.leader.slice(),
      state: k.state.slice(), since: k.since.slice(), idxNum: k.idxNum.slice(), idxID: k.idxID.slice(), links, cuts, gray, sent: k.sent.slice(),
      sentTotal: k.sentTotal, valueChanges: k.valueChanges, elections: k.elections, leaderlessTime: k.leaderlessTime, aliveTime: k.aliveTime,
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
    if (kind !== K.link_up && kind !== K.link_down && kind !== K.cut && kind !== K.uncut) s.nodesGen = ++gen;
    const led = () => (s.alive[v] && s.state[v] === this.normCode && s.leader[v] >= 0 ? 1 : 0);
    switch (kind) {
      case K.node: s.value[v] = ch.b[j]; if (!s.alive[v]) { s.alive[v] = 1; s.aliveN++; } break;
      case K.value: s.value[v] = ch.b[j]; s.valueChanges++; break;
      case K.link_up: { const p = ch.peer[j]; if (p >= 0 && p < this.n) { s.links.add(this.linkKey(v, p)); s.linksGen = ++gen; } break; }
      case K.link_down: { const p = ch.peer[j]; if (p >= 0 && p < this.n) { s.links.delete(this.linkKey(v, p)); s.linksGen = ++gen; } break; }
      // A direction cut: what v sends p is lost.
      case K.cut: { const p = ch.peer[j]; if (p >= 0 && p < this.n && p !== v) { s.cuts.add(v * this.n + p); s.linksGen = ++gen; } break; }
      case K.uncut: { const p = ch.peer[j]; if (p >= 0 && p < this.n) { s.cuts.delete(v * this.n + p); s.linksGen = ++gen; } break; }
      case K.clock: this.setGray(s, v, (g) => { g.rate = ch.b[j]; }); break;
      case K.jump: this.setGray(s, v, (g) => { g.jumped += ch.b[j]; g.jumpMS = t; g.jumpBy = ch.b[j]; }); break;
      case K.slow: this.setGray(s, v, (g) => { g.slow = ch.b[j]; }); break;
      case K.crash:
        if (s.alive[v]) { s.ledN -= led(); s.alive[v] = 0; s.aliveN--; }
        s.leader[v] = -1; s.state[v] = 0; s.since[v] = t;
        break;
      case K.restart: case K.recover: if (!s.alive[v]) { s.since[v] = t; s.alive[v] = 1; s.aliveN++; s.ledN += led(); } break;
      case K.status: {
        const num = ch.b[j], id = ch.c[j];
        if (id === v && (num !== 0 || id !== 0) && (s.idxNum[v] !== num || s.idxID[v] !== id)) s.elections++;
        s.ledN -= led();
        if (s.leader[v] !== ch.a[j]) s.since[v] = t;
        s.leader[v] = ch.a[j]; s.state[v] = ch.flag[j]; s.idxNum[v] = num; s.idxID[v] = id;
        s.ledN += led();
        break;
      }
    }
  }

  // grayOf is node v's gray state in state s; setGray changes it, keeping
  // s.gray to the nodes that do not run true.
  grayOf(s, v) { return s.gray.get(v) || GRAY_TRUE; }
  setGray(s, v, change) {
    const g = { ...this.grayOf(s, v) };
    change(g);
    if (isTrue(g)) s.gray.delete(v); else s.gray.set(v, g);
  }

  // cut says the direction from -> to is cut in state s: what from sends
  // to is lost.
  cut(s, from, to) { return s.cuts.has(from * this.n + to); }

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
    if (kind === 'node' || kind === 'value' || kind === 'clock' || kind === 'jump' || kind === 'slow') e.value = ch.b[j];
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

// fetchIndex asks the server for its index of the run (as far as it has
// read or lived it).
export async function fetchIndex() {
  const r = await fetchAgain('index');
  if (!r.ok) throw new Error(`index: ${await r.text()}`);
  return r.json();
}
