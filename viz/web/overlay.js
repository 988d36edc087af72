// overlay.js: what the network's top canvas draws each frame over the
// links and the nodes: messages in flight (or a step's arrow, its ends
// ringed so that it is found among thousands of nodes), a clock's jump as
// a ring widening a moment, and a crash where it happened: a vermillion
// cross on the node, which stays while nodes still follow it, and a pulse
// the moment it crashes.

import { $, typeColour, CLOCK_COLOUR, CRASH_COLOUR, jumpWord } from './common.js';
import { NS } from './data.js';
import { clockIcon } from './nodes.js';

const MAX_MESSAGES_DRAWN = 3000; // beyond that, an aggregate count instead
const EVERYONE = -2;             // the peer of a broadcast's send: every node in range
const FLASH_MS = 1000;           // a jump or a crash pulses this long (real time, at the view's speed)
const CRASH_MARKED_MS = 3000;    // a crash keeps its big cross this long (run time), or while followed

// drawOverlay draws net's top layer on g (off: a node off the canvas).
export function drawOverlay(net, g, off) {
  messages(net, g);
  jumps(net, g, off);
  crashes(net, g, off);
}

// arrowTo draws an arrow from (ax, ay) to (bx, by), stopping short of it.
function arrowTo(g, ax, ay, bx, by, stop, head) {
  const len = Math.hypot(bx - ax, by - ay) || 1, ux = (bx - ax) / len, uy = (by - ay) / len;
  const tx = bx - ux * stop, ty = by - uy * stop;
  g.beginPath(); g.moveTo(ax, ay); g.lineTo(tx, ty); g.stroke();
  g.beginPath(); g.moveTo(tx, ty); g.lineTo(tx - ux * head - uy * head / 2, ty - uy * head + ux * head / 2);
  g.lineTo(tx - ux * head + uy * head / 2, ty - uy * head - ux * head / 2); g.closePath(); g.fill();
}

// messages draws the messages sent in the last moments as dots moving
// from sender to receiver, or, when there are too many, says how many.
// Stepping, the message just sent is an arrow, its ends ringed. It reads
// only the chunks at hand.
function messages(net, g) {
  const m = net.model, { i, ms, playing, speed } = net.view, sx = net.sx, sy = net.sy, rad = net.radius();
  const lastCh = i > 0 ? m.loaded(m.chunkOf(i - 1)) : null;
  const lj = lastCh ? i - 1 - lastCh.first : -1;
  net.arrow = null;
  if (!playing && lastCh && lj < lastCh.n && lastCh.kind[lj] === m.K.send && lastCh.peer[lj] >= 0 && lastCh.peer[lj] < m.n) {
    const from = lastCh.node[lj], to = lastCh.peer[lj];
    g.strokeStyle = '#111'; g.lineWidth = 2;
    for (const v of [from, to]) { g.beginPath(); g.arc(sx[v], sy[v], rad + 9, 0, 2 * Math.PI); g.stroke(); }
    g.strokeStyle = g.fillStyle = typeColour(lastCh.a[lj]);
    g.lineWidth = 3;
    arrowTo(g, sx[from], sy[from], sx[to], sy[to], rad + 4, 10);
    g.lineWidth = 1;
    net.arrow = { from, to };
  }
  const span = Math.max(5, 50 * speed / 10); // ms of run time a dot takes to cross
  const since = ms - span;
  // The sends of the last span, newest first, as far as chunks are at hand.
  let shown = 0, drawn = 0;
  // Dots by type, each type's filled as one path afterwards.
  const dots = new Map();
  for (let k = m.chunkOf(Math.max(0, i - 1)); k >= 0 && i > 0; k--) {
    const ch = m.loaded(k);
    if (!ch) break;
    let j = Math.min(ch.n, i - ch.first) - 1;
    for (; j >= 0 && ch.t[j] / NS >= since; j--) {
      shown++;
      if (ch.kind[j] !== m.K.send || ch.peer[j] === -1 || drawn >= MAX_MESSAGES_DRAWN) continue;
      drawn++;
      const f = Math.min(1, (ms - ch.t[j] / NS) / span);
      const a = ch.node[j], b = ch.peer[j];
      if (b === EVERYONE) { // a broadcast: one ring widening from the sender
        g.beginPath(); g.arc(sx[a], sy[a], 4 + 26 * f, 0, 2 * Math.PI);
        g.strokeStyle = typeColour(ch.a[j]); g.stroke();
        continue;
      }
      if (b < 0 || b >= m.n) continue;
      let xy = dots.get(ch.a[j]);
      if (!xy) dots.set(ch.a[j], xy = []);
      xy.push(sx[a] + (sx[b] - sx[a]) * f, sy[a] + (sy[b] - sy[a]) * f);
    }
    if (j >= 0) break;
  }
  // Dots edged in white, apart from the nodes under them.
  g.strokeStyle = '#fff'; g.lineWidth = 0.75;
  for (const [type, xy] of dots) {
    g.beginPath();
    for (let k = 0; k < xy.length; k += 2) { g.moveTo(xy[k] + 3, xy[k + 1]); g.arc(xy[k], xy[k + 1], 3, 0, 2 * Math.PI); }
    g.fillStyle = typeColour(type); g.fill(); g.stroke();
  }
  g.lineWidth = 1;
  const status = drawn >= MAX_MESSAGES_DRAWN
    ? `${shown} events in the last ${span.toFixed(0)} ms: too many to draw one by one` : '';
  if ($('status').textContent !== status) $('status').textContent = status;
}

// jumps draws the clocks that jumped in the last moment as rings widening
// from their nodes, with the jump (net.flashes lists them, for tests).
function jumps(net, g, off) {
  const s = net.view.state, { ms, speed } = net.view, sx = net.sx, sy = net.sy, rad = net.radius();
  const span = FLASH_MS * Math.max(1, speed);
  net.flashes = [];
  for (const [v, gr] of s.gray) {
    if (gr.jumpMS < 0 || ms - gr.jumpMS >= span || ms < gr.jumpMS) continue;
    net.flashes.push(v);
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

// crashes draws, where a node crashed, a big vermillion cross while nodes
// still follow it or for a few seconds of the run, labelled with the
// node, and a pulse the moment it crashed (net.crosses and net.pulses
// list them, for tests).
function crashes(net, g, off) {
  const s = net.view.state, { ms, speed } = net.view, sx = net.sx, sy = net.sy, rad = net.radius();
  const span = FLASH_MS * Math.max(1, speed);
  net.crosses = []; net.pulses = [];
  for (const v of net.crashed || []) {
    const at = s.since[v], followed = (net.followers && net.followers.get(v)) || 0;
    if (!(followed > 0 || (ms >= at && ms - at < CRASH_MARKED_MS))) continue;
    net.crosses.push(v);
    if (ms >= at && ms - at < span) net.pulses.push(v);
    if (off(v)) continue;
    const x = sx[v], y = sy[v], q = rad + 6;
    g.lineCap = 'round';
    g.beginPath(); g.moveTo(x - q, y - q); g.lineTo(x + q, y + q); g.moveTo(x + q, y - q); g.lineTo(x - q, y + q);
    g.strokeStyle = '#fff'; g.lineWidth = 6; g.stroke();
    g.strokeStyle = CRASH_COLOUR; g.lineWidth = 3.5; g.stroke();
    g.lineCap = 'butt';
    g.font = 'bold 12px system-ui'; g.fillStyle = CRASH_COLOUR;
    const words = followed ? `${v} crashed: ${followed} still follow it` : `${v} crashed`;
    g.strokeStyle = '#fff'; g.lineWidth = 3; g.strokeText(words, x + q + 4, y + q + 10); g.fillText(words, x + q + 4, y + q + 10);
    if (ms >= at && ms - at < span) {
      const f = (ms - at) / span;
      g.globalAlpha = 1 - f;
      g.strokeStyle = CRASH_COLOUR; g.lineWidth = 3;
      g.beginPath(); g.arc(x, y, q + 6 + 40 * f, 0, 2 * Math.PI); g.stroke();
      g.globalAlpha = 1;
    }
    g.lineWidth = 1;
  }
}
