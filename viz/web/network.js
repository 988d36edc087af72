// network.js: the network's picture on the canvas #net: links, nodes in
// their leaders' colours, messages in flight (or a step's arrow), the node
// selected, and the gray failures: a link cut one way as a dashed arrow the
// way it still carries, a clock off true time ringed with its rate, a slow
// node haloed with its lateness, a clock's jump as a ring widening a
// moment; zooming with the wheel, panning by dragging, fitting again on a
// double click, and picking a node with a click.

import { $, leaderColour, typeColour, CUT_COLOUR, CLOCK_COLOUR, SLOW_COLOUR, rateWord, duration, jumpWord } from './common.js';
import { NS } from './data.js';

const MAX_MESSAGES_DRAWN = 3000; // beyond that, an aggregate count instead
const EVERYONE = -2;             // the peer of a broadcast's send: every node in range
const JUMP_FLASH_MS = 1000;      // a clock's jump shows this long (real time, at the view's speed)

// clockIcon draws a small clock centred at (x, y), and leaves the fill
// style colour for its label; hourglassIcon an hourglass. (Drawn: an
// emoji's font is not everywhere.)
function clockIcon(g, x, y, colour) {
  g.strokeStyle = g.fillStyle = colour; g.lineWidth = 1;
  g.beginPath(); g.arc(x, y, 3.5, 0, 2 * Math.PI); g.stroke();
  g.beginPath(); g.moveTo(x, y - 2.5); g.lineTo(x, y); g.lineTo(x + 2, y); g.stroke();
}

function hourglassIcon(g, x, y, colour) {
  g.strokeStyle = g.fillStyle = colour; g.lineWidth = 1;
  g.beginPath(); g.moveTo(x - 3, y - 4); g.lineTo(x + 3, y - 4); g.lineTo(x - 3, y + 4); g.lineTo(x + 3, y + 4); g.closePath(); g.fill();
}

// Network draws view's moment (view.js: its state, event i, ms, whether it
// plays and how fast, the node selected) with the nodes at pos (layout.js);
// a click on the canvas calls pick with the node nearest it (-1: none).
export class Network {
  constructor(view, pos, pick) {
    this.view = view;
    this.model = view.model;
    this.pos = pos;
    this.onPick = pick;
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
    this.canvas.addEventListener('click', (e) => { if (!this.dragged) this.pick(e); this.dragged = false; });
    this.wireZoom();
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

  // positions brings moving nodes to where they are at the view's ms: along
  // their legs, standing still between them (as the simulator moved them).
  positions() {
    const p = this.pos;
    if (!p.tracks) { this.cx = p.x; this.cy = p.y; return; }
    if (!this.cx || this.cx === p.x) { this.cx = Float64Array.from(p.x); this.cy = Float64Array.from(p.y); }
    const ms = this.view.ms;
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
    if (!this.view.state) return;
    const t0 = performance.now();
    this.screen();
    const c = this.canvas, dpr = window.devicePixelRatio || 1;
    const r = this.box.r, W = r.width, H = r.height;
    for (const layer of [c, this.linksLayer, this.nodesLayer]) {
      if (layer.width !== Math.round(W * dpr) || layer.height !== Math.round(H * dpr)) {
        layer.width = Math.round(W * dpr); layer.height = Math.round(H * dpr);
      }
    }
    const s = this.view.state, sx = this.sx, sy = this.sy;
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
    this.jumps(g, off);
    if (this.view.selected >= 0) {
      const v = this.view.selected;
      g.beginPath(); g.arc(sx[v], sy[v], this.radius() + 7, 0, 2 * Math.PI); g.strokeStyle = '#0a58ca'; g.lineWidth = 2; g.stroke(); g.lineWidth = 1;
    }
    // The time a frame takes to draw, for the browser test and
    // bench.mjs: the last 120 frames.
    (this.frames ||= []).push(performance.now() - t0);
    if (this.frames.length > 120) this.frames.shift();
  }

  radius() { const n = this.model.n; return n > 1000 ? 2 : n > 200 ? 4 : 8; }

  // drawLinks draws the links up; of those with a direction cut, one cut
  // one way as a dashed arrow from the node still heard to the one that
  // hears it (oneWay lists them, for tests), one cut both ways not at all,
  // as a link down (bothWays lists them).
  drawLinks(g, off) {
    const s = this.view.state, m = this.model, n = m.n, sx = this.sx, sy = this.sy, cuts = s.cuts;
    const anyCut = cuts.size > 0;
    g.strokeStyle = '#ccc'; g.lineWidth = 1;
    g.beginPath();
    for (const k of s.links) {
      const a = Math.floor(k / n), b = k - a * n;
      if (off(a) && off(b)) continue;
      if (anyCut && (cuts.has(a * n + b) || cuts.has(b * n + a))) continue;
      g.moveTo(sx[a], sy[a]); g.lineTo(sx[b], sy[b]);
    }
    g.stroke();
    this.oneWay = []; this.bothWays = [];
    if (!anyCut) return;
    const stop = this.radius() + 3;
    g.strokeStyle = g.fillStyle = CUT_COLOUR; g.lineWidth = n > 1000 ? 1 : 2;
    for (const k of cuts) {
      const cutFrom = Math.floor(k / n), cutTo = k - cutFrom * n;
      if (!s.links.has(m.linkKey(cutFrom, cutTo))) continue; // down anyway
      if (cuts.has(cutTo * n + cutFrom)) {
        if (cutFrom < cutTo) this.bothWays.push([cutFrom, cutTo]);
        continue;
      }
      // What cutFrom sends is lost; cutTo is still heard by cutFrom.
      const from = cutTo, to = cutFrom;
      this.oneWay.push({ from, to });
      if (off(from) && off(to)) continue;
      const ax = sx[from], ay = sy[from], bx = sx[to], by = sy[to];
      const len = Math.hypot(bx - ax, by - ay) || 1, ux = (bx - ax) / len, uy = (by - ay) / len;
      const tx = bx - ux * stop, ty = by - uy * stop, head = Math.min(9, len / 3);
      g.setLineDash([6, 4]);
      g.beginPath(); g.moveTo(ax + ux * stop, ay + uy * stop); g.lineTo(tx, ty); g.stroke();
      g.setLineDash([]);
      g.beginPath(); g.moveTo(tx, ty);
      g.lineTo(tx - ux * head - uy * head / 2, ty - uy * head + ux * head / 2);
      g.lineTo(tx - ux * head + uy * head / 2, ty - uy * head - ux * head / 2);
      g.closePath(); g.fill();
    }
    g.lineWidth = 1;
    this.oneWay.sort((p, q) => p.from - q.from || p.to - q.to);
  }

  drawNodes(g, off) {
    const s = this.view.state, n = this.model.n, sx = this.sx, sy = this.sy, rad = this.radius();
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
    // Gray nodes: a slow one haloed under it, a clock off true time
    // ringed (dotted) round it; few, so each its own.
    const slow = [], clocked = [];
    for (const [v, gr] of s.gray) {
      if (off(v)) continue;
      if (gr.slow > 0) slow.push(v);
      if (gr.rate !== 1e6) clocked.push(v);
    }
    shapes(slow, Math.max(4, rad * 0.8)); g.fillStyle = 'rgba(140, 109, 31, 0.35)'; g.fill();
    shapes(crashed, 0); g.fillStyle = '#e4e4e4'; g.fill(); g.strokeStyle = '#aaa'; g.stroke();
    for (const [colour, vs] of groups) { shapes(vs, 0); g.fillStyle = colour; g.fill(); }
    if (!square) { shapes(electing, 0); g.strokeStyle = '#333'; g.setLineDash([2, 2]); g.stroke(); g.setLineDash([]); }
    shapes(leaders, 4); g.strokeStyle = '#111'; g.lineWidth = 2; g.stroke(); g.lineWidth = 1;
    shapes(clocked, 2); g.strokeStyle = CLOCK_COLOUR; g.lineWidth = 1.5; g.setLineDash([2, 2]); g.stroke(); g.setLineDash([]); g.lineWidth = 1;
    if (n <= 1000 || this.zoom >= 2) {
      // Their badges: the clock's rate, the lateness, under the node.
      g.font = '10px system-ui';
      for (const [v, gr] of s.gray) {
        if (off(v)) continue;
        const x = sx[v] - rad;
        let y = sy[v] + rad + 12;
        if (gr.rate !== 1e6) { clockIcon(g, x + 4, y - 4, CLOCK_COLOUR); g.fillText(rateWord(gr.rate), x + 10, y); y += 12; }
        if (gr.slow > 0) { hourglassIcon(g, x + 4, y - 4, SLOW_COLOUR); g.fillText(`+${duration(gr.slow)}`, x + 10, y); }
      }
    }
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
    const m = this.model, { i, ms, playing, speed } = this.view, sx = this.sx, sy = this.sy;
    const lastCh = i > 0 ? m.loaded(m.chunkOf(i - 1)) : null;
    const lj = lastCh ? i - 1 - lastCh.first : -1;
    if (!playing && lastCh && lj < lastCh.n && lastCh.kind[lj] === m.K.send && lastCh.peer[lj] >= 0 && lastCh.peer[lj] < m.n) {
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
    const span = Math.max(5, 50 * speed / 10); // ms of run time a dot takes to cross
    const since = ms - span;
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
        const f = Math.min(1, (ms - ch.t[j] / NS) / span);
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

  // jumps draws the clocks that jumped in the last moment as rings widening
  // from their nodes, with the jump (flashes lists them, for tests).
  jumps(g, off) {
    const s = this.view.state, { ms, speed } = this.view, sx = this.sx, sy = this.sy, rad = this.radius();
    const span = JUMP_FLASH_MS * Math.max(1, speed);
    this.flashes = [];
    for (const [v, gr] of s.gray) {
      if (gr.jumpMS < 0 || ms - gr.jumpMS >= span || ms < gr.jumpMS) continue;
      this.flashes.push(v);
      if (off(v)) continue;
      const f = (ms - gr.jumpMS) / span;
      g.globalAlpha = 1 - 0.7 * f;
      g.strokeStyle = g.fillStyle = CLOCK_COLOUR; g.lineWidth = 2;
      g.beginPath(); g.arc(sx[v], sy[v], rad + 4 + 14 * f, 0, 2 * Math.PI); g.stroke();
      g.font = 'bold 11px system-ui';
      clockIcon(g, sx[v] + rad + 8, sy[v] - rad - 17, CLOCK_COLOUR);
      g.fillText(jumpWord(gr.jumpBy), sx[v] + rad + 14, sy[v] - rad - 13);
      g.globalAlpha = 1; g.lineWidth = 1;
    }
  }

  // pick finds the node a click chose: the nearest within 20 pixels.
  pick(e) {
    const r = this.canvas.getBoundingClientRect();
    const px = e.clientX - r.left, py = e.clientY - r.top;
    let best = -1, bestD = 400;
    this.screen();
    for (let v = 0; v < this.model.n; v++) {
      const d = (this.sx[v] - px) ** 2 + (this.sy[v] - py) ** 2;
      if (d < bestD) { best = v; bestD = d; }
    }
    this.onPick(best);
  }
}
