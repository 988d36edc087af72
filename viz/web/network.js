// network.js: the network's picture on the canvas #net, on three layers:
// the links (a link cut one way as a dashed arrow the way it still
// carries, the links a partition cut dashed black), the nodes (nodes.js)
// and on top what moves (overlay.js: messages, a step's arrow, a clock's
// jump, a crash), with the node selected; zooming with the wheel (nodes
// grow with it, up to a size that carries their ids), panning by
// dragging, fitting again on a double click, picking the node nearest a
// click, and naming the node under the pointer.

import { $, CUT_COLOUR } from './common.js';
import { drawNodes } from './nodes.js';
import { drawOverlay } from './overlay.js';

const HOVER_PX = 14;             // the pointer names a node this near

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
    // A click picks the node nearest where the pointer went up: a
    // pointer event's place is to a fraction of a pixel, where nodes of a
    // large network are closer than a pixel.
    this.canvas.addEventListener('pointerup', (e) => { this.up = e; });
    this.canvas.addEventListener('click', (e) => { if (!this.dragged) this.pick(this.up && this.up.timeStamp <= e.timeStamp ? this.up : e); this.dragged = false; });
    this.wireZoom();
    this.wireHover();
  }

  // wireHover names the node under the pointer (#tip): its id, value,
  // state and leader.
  wireHover() {
    const c = this.canvas, tip = $('tip');
    let at = null;
    c.addEventListener('pointermove', (e) => {
      if (!at) requestAnimationFrame(() => { this.hover(at); at = null; });
      at = e;
    });
    c.addEventListener('pointerleave', () => { this.hovered = -1; tip.hidden = true; });
  }

  hover(e) {
    const tip = $('tip'), s = this.view.state;
    if (!e || !s || !this.sx) return;
    const r = this.rect || this.canvas.getBoundingClientRect();
    const px = e.clientX - r.left, py = e.clientY - r.top;
    const v = this.nearest(px, py, HOVER_PX);
    this.hovered = v;
    if (v < 0) { tip.hidden = true; return; }
    tip.textContent = this.view.panel.oneLine(v);
    tip.hidden = false;
    tip.style.left = `${this.sx[v] + 12}px`;
    tip.style.top = `${this.sy[v] + 12}px`;
  }

  // nearest is the node nearest (px, py) on the canvas within within
  // pixels, -1 if none.
  nearest(px, py, within) {
    let best = -1, bestD = within * within;
    const sx = this.sx, sy = this.sy;
    for (let v = 0; v < this.model.n; v++) {
      const dx = sx[v] - px, dy = sy[v] - py, d = dx * dx + dy * dy;
      if (d < bestD) { best = v; bestD = d; }
    }
    return best;
  }

  // centre brings node v to the middle of the canvas, zoomed in at least
  // so far that nodes carry their ids.
  centre(v, zoom) {
    this.screen();
    const { ox, oy, scale, r } = this.box;
    if (zoom) this.zoom = Math.max(this.zoom, zoom);
    this.panX = r.width / 2 - (ox + this.cx[v] * scale) * this.zoom;
    this.panY = r.height / 2 - (oy + this.cy[v] * scale) * this.zoom;
    this.draw();
  }

  // show brings node v into the canvas when it is off it (a step's
  // sender, a node searched).
  show(v) {
    const [x, y] = this.xy(v), r = this.box.r;
    if (x < 20 || y < 20 || x > r.width - 20 || y > r.height - 20) this.centre(v);
  }

  // zoomToRead is the zoom at which nodes carry their ids.
  zoomToRead() {
    const n = this.model.n;
    if (n <= 200) return 1;
    // Nodes 45 pixels apart on average: their ids side by side.
    const spacing = Math.sqrt(this.pos.w * this.pos.h / n) * this.box.scale;
    return Math.min(64, Math.max(1, 45 / spacing));
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
    c.addEventListener('dblclick', () => this.fitAll());
  }

  // fitAll shows the whole network; zoomBy zooms by f about the canvas's
  // middle.
  fitAll() { this.zoom = 1; this.panX = 0; this.panY = 0; this.draw(); }
  zoomBy(f) {
    if (!this.box) return;
    const z = Math.min(64, Math.max(0.25, this.zoom * f)), k = z / this.zoom, mx = this.box.r.width / 2, my = this.box.r.height / 2;
    this.panX = mx - (mx - this.panX) * k;
    this.panY = my - (my - this.panY) * k;
    this.zoom = z;
    this.draw();
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
      drawNodes(this, layer(this.nodesLayer), off);
    }
    const g = layer(c);
    drawOverlay(this, g, off);
    // The tooltip says the node under the pointer as it is now.
    if (this.hovered >= 0 && !$('tip').hidden) {
      const text = this.view.panel.oneLine(this.hovered);
      if ($('tip').textContent !== text) $('tip').textContent = text;
    }
    if (this.view.selected >= 0) {
      const v = this.view.selected;
      g.beginPath(); g.arc(sx[v], sy[v], this.radius() + 7, 0, 2 * Math.PI);
      g.strokeStyle = '#fff'; g.lineWidth = 5; g.stroke(); g.strokeStyle = '#0a58ca'; g.lineWidth = 2.5; g.stroke(); g.lineWidth = 1;
      this.view.card.place();
    }
    // The time a frame takes to draw, for the browser test and
    // bench.mjs: the last 120 frames.
    (this.frames ||= []).push(performance.now() - t0);
    if (this.frames.length > 120) this.frames.shift();
  }

  // radius is a node's on the canvas: small enough at the full view for
  // the network's size, and growing with the zoom up to a size that
  // carries an id and a letter.
  radius() {
    const n = this.model.n, base = n > 1000 ? 2 : n > 200 ? 4 : 8;
    if (n <= 200 || !this.box) return base;
    const spacing = Math.sqrt(this.pos.w * this.pos.h / n) * this.box.scale * this.zoom;
    return Math.max(base, Math.min(10, 0.3 * spacing));
  }

  // drawLinks draws the links up; of those with a direction cut, one cut
  // one way as a dashed arrow from the node still heard to the one that
  // hears it (oneWay lists them, for tests), one cut both ways not at all,
  // as a link down (bothWays lists them).
  drawLinks(g, off) {
    const s = this.view.state, m = this.model, n = m.n, sx = this.sx, sy = this.sy, cuts = s.cuts;
    const anyCut = cuts.size > 0;
    // Thin (a pixel: thinner, the browser strokes them far slower), and
    // fainter for a dense network or a zoom that shows ids: the links are
    // the ground the nodes stand on.
    g.strokeStyle = n > 1000 || (n > 200 && this.radius() >= 6) ? '#dedede' : '#ccc'; g.lineWidth = 1;
    g.beginPath();
    for (const k of s.links) {
      const a = Math.floor(k / n), b = k - a * n;
      if (off(a) && off(b)) continue;
      if (anyCut && (cuts.has(a * n + b) || cuts.has(b * n + a))) continue;
      g.moveTo(sx[a], sy[a]); g.lineTo(sx[b], sy[b]);
    }
    g.stroke();
    this.partitioned(g, off);
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

  // partitioned draws dashed, in the partition's black, the links of the
  // run's start (model.first.links, their keys, for a network that does
  // not move) down now
  // between nodes alive: the links a partition cut (cutLinks counts
  // them).
  partitioned(g, off) {
    const s = this.view.state, m = this.model, n = m.n, first = m.first, sx = this.sx, sy = this.sy;
    this.cutLinks = 0;
    if (!first || this.pos.tracks || s.links.size >= first.links.length) return;
    g.beginPath();
    for (const k of first.links) {
      if (s.links.has(k)) continue;
      const a = Math.floor(k / n), b = k - a * n;
      if (!s.alive[a] || !s.alive[b]) continue;
      this.cutLinks++;
      if (off(a) && off(b)) continue;
      g.moveTo(sx[a], sy[a]); g.lineTo(sx[b], sy[b]);
    }
    g.strokeStyle = '#000'; g.lineWidth = n > 1000 ? 1 : 1.5; g.setLineDash([3, 3]); g.stroke(); g.setLineDash([]); g.lineWidth = 1;
  }

  // pick finds the node a click chose: the nearest within 20 pixels.
  pick(e) {
    const r = this.canvas.getBoundingClientRect();
    this.screen();
    this.onPick(this.nearest(e.clientX - r.left, e.clientY - r.top, 20));
  }
}
