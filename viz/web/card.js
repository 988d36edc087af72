// card.js: the card of the node selected (#card), floating beside it on
// the network: its id, value, state and leader, and since when it has
// had that leader; the panel's details say the rest. Clicks go through it
// to the network (a click elsewhere, or Escape, lets the node go).

import { $ } from './common.js';

const WIDTH = 250, HEIGHT = 110; // the card's size (style.css), to keep it on the canvas

export class Card {
  constructor(view) {
    this.view = view;
    this.el = $('card');
  }

  // fill writes node v's card (-1: none, hidden).
  fill(v) {
    if (v < 0) { this.el.hidden = true; this.placed = ''; return; }
    const p = this.view.panel, html = `<b>${p.oneLine(v)}</b><br>${this.view.state.alive[v] ? 'its leader' : 'crashed'} ${p.since(v, false)}`;
    if (this.html !== html) { $('card-body').innerHTML = html; this.html = html; }
    this.el.hidden = false;
    this.place();
  }

  // place puts the card beside the node selected, on the canvas.
  place() {
    const v = this.view.selected, net = this.view.net;
    if (v < 0 || !net.box) return;
    const [x, y] = net.xy(v), r = net.box.r, q = net.radius() + 12;
    // To its left: a leader's label, a crash's words and the tooltip are
    // to its right.
    let left = x - q - WIDTH, top = y - HEIGHT / 2;
    if (left < 0) left = x + q;
    top = Math.max(4, Math.min(r.height - HEIGHT - 4, top));
    left = Math.max(4, left);
    const at = `${Math.round(left)}:${Math.round(top)}`;
    if (at === this.placed) return;
    this.placed = at;
    this.el.style.left = `${Math.round(left)}px`;
    this.el.style.top = `${Math.round(top)}px`;
  }
}
