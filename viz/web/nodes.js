// nodes.js: the nodes, on their canvas layer, each in a look that says
// its state at any size: following a leader, filled in the leader's
// colour; following a leader that crashed, hollow in its colour; in an
// election, a dark diamond (a dark square, larger than the others, while
// nodes are tiny); with no leader, a grey ring; crashed, a grey cross.
// Leaders are ringed and labelled with their ids; zoomed in far enough,
// every node carries its id and its state's letter; gray nodes their
// halo, ring and badges.

import { leaderColour, ink, CLOCK_COLOUR, SLOW_COLOUR, NO_LEADER, ELECTING, rateWord, duration } from './common.js';

// Past this radius (zooming in) nodes carry their ids and state letters.
export const LABEL_RADIUS = 6;
const MAX_LABELS = 2500;          // ids drawn at most (those on the canvas)
const MAX_LEADER_LABELS = 60;     // leaders labelled at most

// clockIcon draws a small clock centred at (x, y), and leaves the fill
// style colour for its label; hourglassIcon an hourglass. (Drawn: an
// emoji's font is not everywhere.)
export function clockIcon(g, x, y, colour) {
  g.strokeStyle = g.fillStyle = colour; g.lineWidth = 1;
  g.beginPath(); g.arc(x, y, 3.5, 0, 2 * Math.PI); g.stroke();
  g.beginPath(); g.moveTo(x, y - 2.5); g.lineTo(x, y); g.lineTo(x + 2, y); g.stroke();
}

export function hourglassIcon(g, x, y, colour) {
  g.strokeStyle = g.fillStyle = colour; g.lineWidth = 1;
  g.beginPath(); g.moveTo(x - 3, y - 4); g.lineTo(x + 3, y - 4); g.lineTo(x - 3, y + 4); g.lineTo(x + 3, y + 4); g.closePath(); g.fill();
}

// look says how node v shows in state s: 'led', 'orphan' (its leader
// crashed), 'electing', 'none' (no leader), 'crashed', or 'absent' (not
// in the run yet).
export function look(s, v, norm) {
  if (!s.alive[v]) return s.since[v] >= 0 ? 'crashed' : 'absent';
  const st = s.state[v], l = s.leader[v];
  if (st !== 0 && st !== norm) return 'electing';
  if (st === 0 || l < 0) return 'none';
  return l < s.alive.length && !s.alive[l] ? 'orphan' : 'led';
}

// drawNodes draws state s's nodes on g for net (network.js: the nodes'
// places sx, sy, the radius, the zoom); off says a node is off the
// canvas. It leaves on net what the page and the tests read: looks (how
// many nodes of each look), leaders (the leaders labelled), crashed (the
// nodes crashed) and followers (of each crashed node, how many still
// follow it).
export function drawNodes(net, g, off) {
  const m = net.model, s = net.view.state, n = m.n, sx = net.sx, sy = net.sy, rad = net.radius(), norm = m.normCode;
  // Nodes of one look and colour go as one path: a few fills a frame,
  // not one a node. Many small nodes are squares, which fill faster.
  const led = new Map(), orphans = new Map(), electing = [], none = [], crashed = [], absent = [], leaders = [];
  const looks = { led: 0, orphan: 0, electing: 0, none: 0, crashed: 0, absent: 0 };
  const followers = new Map();
  let shown = 0;
  for (let v = 0; v < n; v++) {
    const k = look(s, v, norm);
    looks[k]++;
    if (k === 'orphan') followers.set(s.leader[v], (followers.get(s.leader[v]) || 0) + 1);
    if (k === 'crashed') crashed.push(v);
    if (off(v)) continue;
    shown++;
    if (k === 'led' || k === 'orphan') {
      const by = k === 'led' ? led : orphans, c = leaderColour(s.leader[v]);
      let group = by.get(c);
      if (!group) by.set(c, group = []);
      group.push(v);
      if (k === 'led' && s.leader[v] === v) leaders.push(v);
    } else if (k === 'electing') electing.push(v);
    else if (k === 'none') none.push(v);
    else if (k === 'absent') absent.push(v);
  }
  net.looks = looks; net.crashed = crashed; net.followers = followers;
  const square = rad <= 2 && net.zoom < 2;
  const shapes = (vs, q, round = !square) => {
    g.beginPath();
    for (const v of vs) {
      if (!round) g.rect(sx[v] - q, sy[v] - q, 2 * q, 2 * q);
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
  shapes(slow, rad + Math.max(4, rad * 0.8), true); g.fillStyle = 'rgba(140, 109, 31, 0.35)'; g.fill();
  shapes(absent, Math.max(1, rad - 1)); g.fillStyle = '#e4e4e4'; g.fill();
  for (const [colour, vs] of led) { shapes(vs, rad); g.fillStyle = colour; g.fill(); }
  // Hollow: the leader's colour round white, as thick as a small node
  // allows.
  const edge = Math.max(1.5, rad * 0.4), inner = rad + 0.5;
  g.lineWidth = edge;
  for (const [colour, vs] of orphans) { shapes(vs, inner); g.fillStyle = '#fff'; g.fill(); g.strokeStyle = colour; g.stroke(); }
  shapes(none, inner); g.fillStyle = '#fff'; g.fill(); g.strokeStyle = NO_LEADER; g.stroke();
  // Electing: a diamond a little larger than a node (left open: a fill
  // closes it, and closePath on thousands of them costs the browser
  // hundreds of milliseconds).
  // Tiny, a dark square a little larger than a node's: ten thousand
  // squares fill faster than diamonds.
  const d = rad + Math.max(1.5, rad * 0.35);
  if (square) shapes(electing, rad + 1);
  else {
    g.beginPath();
    for (const v of electing) { g.moveTo(sx[v], sy[v] - d); g.lineTo(sx[v] + d, sy[v]); g.lineTo(sx[v], sy[v] + d); g.lineTo(sx[v] - d, sy[v]); }
  }
  g.fillStyle = ELECTING; g.fill();
  // Crashed: a grey cross.
  const x = rad + 0.5;
  g.beginPath();
  for (const v of crashed) {
    if (off(v)) continue;
    g.moveTo(sx[v] - x, sy[v] - x); g.lineTo(sx[v] + x, sy[v] + x); g.moveTo(sx[v] + x, sy[v] - x); g.lineTo(sx[v] - x, sy[v] + x);
  }
  g.strokeStyle = '#8a8a8a'; g.lineWidth = Math.max(1.2, rad * 0.4); g.stroke();
  g.lineWidth = 1;
  shapes(clocked, rad + 2, true); g.strokeStyle = CLOCK_COLOUR; g.lineWidth = 1.5; g.setLineDash([2, 2]); g.stroke(); g.setLineDash([]); g.lineWidth = 1;
  if (n <= 1000 || net.zoom >= 2) badges(net, g, off, rad);
  net.idsDrawn = shown <= MAX_LABELS && (rad >= LABEL_RADIUS || n <= 64) ? shown : 0;
  if (net.idsDrawn) ids(net, g, off, rad);
  net.leaders = labelLeaders(net, g, leaders, rad);
}

// badges writes under the gray nodes their clock's rate and lateness.
function badges(net, g, off, rad) {
  const s = net.view.state, sx = net.sx, sy = net.sy;
  g.font = '10px system-ui';
  for (const [v, gr] of s.gray) {
    if (off(v)) continue;
    const x = sx[v] - rad;
    let y = sy[v] + rad + 12;
    if (gr.rate !== 1e6) { clockIcon(g, x + 4, y - 4, CLOCK_COLOUR); g.fillText(rateWord(gr.rate), x + 10, y); y += 12; }
    if (gr.slow > 0) { hourglassIcon(g, x + 4, y - 4, SLOW_COLOUR); g.fillText(`+${duration(gr.slow)}`, x + 10, y); }
  }
}

// ids writes each node's id beside it and its state's letter in it (N,
// E, W; none for a node crashed or not booted); a small network also its
// state's name beside the id, for those not in Norm.
function ids(net, g, off, rad) {
  const m = net.model, s = net.view.state, sx = net.sx, sy = net.sy, norm = m.normCode, small = m.n <= 64;
  g.font = `${Math.round(Math.min(12, 7 + rad / 2))}px system-ui`;
  g.textBaseline = 'alphabetic'; g.textAlign = 'left';
  g.fillStyle = '#222';
  for (let v = 0; v < m.n; v++) {
    if (off(v)) continue;
    const st = small && s.alive[v] && s.state[v] && s.state[v] !== norm ? ' ' + m.states[s.state[v]] : '';
    g.fillText(String(v) + st, sx[v] + rad + 2, sy[v] - rad);
  }
  if (rad < LABEL_RADIUS) return;
  g.font = `bold ${Math.round(rad * 1.1)}px system-ui`;
  g.textAlign = 'center'; g.textBaseline = 'middle';
  for (let v = 0; v < m.n; v++) {
    if (off(v) || !s.alive[v] || !s.state[v]) continue;
    const k = look(s, v, norm);
    g.fillStyle = k === 'electing' ? '#fff' : k === 'led' ? ink(leaderColour(s.leader[v])) : '#222';
    g.fillText(m.states[s.state[v]][0], sx[v], sy[v] + 0.5);
  }
  g.textAlign = 'left'; g.textBaseline = 'alphabetic';
}

// labelLeaders rings each leader and labels it with its id, in its
// colour; it returns the leaders labelled, in order.
function labelLeaders(net, g, leaders, rad) {
  const sx = net.sx, sy = net.sy;
  leaders.sort((a, b) => a - b);
  const shown = leaders.slice(0, MAX_LEADER_LABELS);
  g.beginPath();
  for (const v of shown) { g.moveTo(sx[v] + rad + 4, sy[v]); g.arc(sx[v], sy[v], rad + 4, 0, 2 * Math.PI); }
  g.strokeStyle = '#fff'; g.lineWidth = 4; g.stroke();
  g.strokeStyle = '#111'; g.lineWidth = 2; g.stroke(); g.lineWidth = 1;
  g.font = 'bold 12px system-ui'; g.textBaseline = 'middle';
  for (const v of shown) {
    const text = `leader ${v}`, w = g.measureText(text).width + 8, x = sx[v] + rad + 6, y = sy[v] - rad - 12;
    const c = leaderColour(v);
    g.fillStyle = c; g.strokeStyle = '#111';
    g.beginPath(); g.rect(x, y - 8, w, 16); g.fill(); g.stroke();
    g.fillStyle = ink(c); g.fillText(text, x + 4, y + 0.5);
  }
  g.textBaseline = 'alphabetic';
  return shown;
}
