// panel.js: the side panel and the page's words about the nodes: the
// counters (one number a line, with its unit), the components with their
// leaders and sizes, the messages' legend with their counts, a node's
// details (its history asked of the server) with when it took up its
// leader, its gray state and its links cut, a node in one line (the
// pointer's tooltip), and
// the accessible list of nodes (#nodes, whose data-leader, data-state and
// data-alive, and data-rate and data-slow for a node off true time or
// slow, the browser test reads).

import { fetchAgain } from './net.js';
import { $, short, typeColour, leaderColour, rateWord, duration, jumpWord } from './common.js';
import { components } from './components.js';

// grayWords says a node's gray state (data.js's GRAY_TRUE and the like) in
// a few words: its clock, its lateness.
function grayWords(g) {
  const words = [];
  if (g.rate !== 1e6) words.push(`clock ${rateWord(g.rate)}`);
  if (g.jumpMS >= 0) words.push(`clock jumped ${jumpWord(g.jumped)} in all`);
  if (g.slow > 0) words.push(`${duration(g.slow)} late`);
  return words;
}

const LISTED_NODES = 500;        // nodes in the accessible list, at most

// Panel writes view's moment (view.js: its state, event i and ms).
export class Panel {
  constructor(view) {
    const model = view.model;
    this.view = view;
    this.model = model;
    this.items = [];
    this.shown = { leader: new Int32Array(model.n).fill(-3), state: new Int8Array(model.n).fill(-1), gray: [] };
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
  }

  // legend lists the message types, each in its colour, with its count.
  legend() {
    const ul = $('legend');
    this.legendCounts = this.model.types.map((name, k) => {
      const li = document.createElement('li');
      li.innerHTML = `<span><span class="swatch" style="background:${typeColour(k)}"></span>${name}</span><span>0</span>`;
      ul.appendChild(li);
      return li.lastChild;
    });
  }

  // describe keeps the accessible list and the counters in step.
  describe() {
    const s = this.view.state, n = this.model.n, shown = this.shown, names = this.model.states;
    for (let v = 0; v < this.items.length; v++) {
      const leader = s.alive[v] ? s.leader[v] : -2;
      const state = s.alive[v] ? s.state[v] : -2;
      // A node's gray state is a new object whenever it changes.
      const gray = s.gray.get(v);
      if (shown.leader[v] === leader && shown.state[v] === state && shown.gray[v] === gray) continue;
      shown.leader[v] = leader; shown.state[v] = state; shown.gray[v] = gray;
      const li = this.items[v];
      li.dataset.leader = String(s.leader[v]);
      li.dataset.state = s.alive[v] ? names[s.state[v]] : 'crashed';
      li.dataset.alive = s.alive[v] ? 'true' : 'false';
      let text = s.alive[v] ? `node ${v}: ${names[s.state[v]] || 'booting'}, leader ${s.leader[v] < 0 ? 'none' : s.leader[v]}` : `node ${v}: crashed`;
      if (gray && gray.rate !== 1e6) li.dataset.rate = String(gray.rate); else delete li.dataset.rate;
      if (gray && gray.slow > 0) li.dataset.slow = String(gray.slow); else delete li.dataset.slow;
      if (gray) text += '; ' + grayWords(gray).join(', ');
      li.textContent = text;
    }
    s.sent.forEach((c, k) => { this.legendCounts[k].textContent = c; });
    const leaders = new Set(), norm = this.model.normCode;
    let electing = 0, orphans = 0;
    for (let v = 0; v < n; v++) {
      if (!s.alive[v]) continue;
      if (s.state[v] === norm && s.leader[v] >= 0) {
        leaders.add(s.leader[v]);
        if (!s.alive[s.leader[v]]) orphans++;
      }
      else if (s.state[v] !== 0 && s.state[v] !== norm) electing++;
    }
    let clocks = 0, slow = 0;
    for (const g of s.gray.values()) { if (g.rate !== 1e6) clocks++; if (g.slow > 0) slow++; }
    const gray = [];
    if (s.cuts.size) gray.push(`${s.cuts.size} link ${s.cuts.size === 1 ? 'direction' : 'directions'} cut`);
    if (clocks) gray.push(`${clocks} ${clocks === 1 ? 'clock' : 'clocks'} off true time`);
    if (slow) gray.push(`${slow} slow`);
    const frac = s.aliveTime > 0 ? (100 * s.leaderlessTime / s.aliveTime).toFixed(2) + ' %' : '–';
    const named = [...leaders].sort((a, b) => a - b);
    const count = (x, one, many = one + 's') => `${x.toLocaleString('en')} ${x === 1 ? one : many}`;
    const crashed = s.alive.length - s.aliveN;
    const counters = [
      ['time', (this.view.ms / 1000).toFixed(3) + ' s'],
      ['events so far', count(this.view.i, 'event')], ['events in the run', `${short(this.model.events)} events`],
      ['nodes alive now', count(s.aliveN, 'node')],
      ['following a leader now', count(s.ledN, 'node')],
      ['of them, a leader that crashed', count(orphans, 'node')],
      ['in an election now', count(electing, 'node')],
      ['without a leader now', count(s.aliveN - s.ledN - electing, 'node')],
      ['crashed or not started', count(crashed, 'node')],
      ['leaders now', count(named.length, 'leader')],
      ['leader ids', named.length > 12 ? `${named.slice(0, 12).join(', ')} and ${named.length - 12} more` : named.join(', ') || 'none'],
      ['messages sent so far', count(s.sentTotal, 'message')], ['elections started so far', count(s.elections, 'election')],
      ['value changes so far', count(s.valueChanges, 'value change')],
      ['leaderless node-time so far', frac],
      ['gray failures now', gray.join(', ') || 'none'],
    ];
    // Written once, then only the values that changed: a frame's DOM
    // work stays small.
    if (!this.counterCells) {
      $('counters').innerHTML = counters.map(([k]) => `<dt>${k}</dt><dd data-counter="${k}"></dd>`).join('');
      this.counterCells = [...$('counters').querySelectorAll('dd')];
    }
    counters.forEach(([, v], k) => {
      const text = String(v), cell = this.counterCells[k];
      if (cell.textContent !== text) cell.textContent = text;
    });
  }

  // listComponents lists the components of the nodes alive (the links up
  // between them), largest first, each with its size and the leaders its
  // nodes follow; worked out again when the links or the nodes changed,
  // at most a few times a second while playing.
  listComponents() {
    const s = this.view.state;
    if (!s) return; // a live run's first state is still on its way
    const key = `${s.linksGen}:${s.nodesGen}`, now = performance.now();
    if (key === this.compKey || (this.view.playing && now - (this.compAt || 0) < 300)) return;
    this.compKey = key; this.compAt = now;
    const cs = components(this.model, s);
    this.components = cs;
    const shown = cs.slice(0, 8), rest = cs.slice(8);
    const leaderWords = (c) => c.leaders.length === 0 ? 'no leader'
      : c.leaders.slice(0, 3).map(([l, k]) => `<span class="swatch" style="background:${leaderColour(l)}"></span>leader ${l}${c.leaders.length > 1 ? ` (${k.toLocaleString('en')})` : ''}`).join(', ')
        + (c.leaders.length > 3 ? ` and ${c.leaders.length - 3} more` : '');
    let html = shown.map((c) => `<li data-size="${c.size}" data-leaders="${c.leaders.map((x) => x[0]).join(',')}">`
      + `<b>${c.size.toLocaleString('en')} ${c.size === 1 ? 'node' : 'nodes'}</b>: ${leaderWords(c)}</li>`).join('');
    if (rest.length) html += `<li>and ${rest.length} more of ${rest.reduce((a, c) => a + c.size, 0).toLocaleString('en')} nodes</li>`;
    $('components').innerHTML = html || '<li>no node alive</li>';
    $('components-count').textContent = `${cs.length} ${cs.length === 1 ? 'component' : 'components'}`;
  }

  // oneLine says node v in a line: its id, value, state and leader.
  oneLine(v) {
    const s = this.view.state, m = this.model;
    if (!s.alive[v]) return `node ${v}: ${s.since[v] >= 0 ? 'crashed' : 'not started'}`;
    const l = s.leader[v];
    return `node ${v}: value ${s.value[v]}, ${m.states[s.state[v]] || 'booting'}, ${l < 0 ? 'no leader' : l === v ? 'leader' : `leader ${l}`}`;
  }

  // since says when node v took up its leader (or crashed, or
  // restarted), and how long ago (ago).
  since(v, ago = true) {
    const s = this.view.state, at = s.since[v];
    if (at < 0) return 'since the start';
    const before = ago ? ` (${((this.view.ms - at) / 1000).toFixed(3)} s ago)` : '';
    return `since ${(at / 1000).toFixed(3)} s${before}`;
  }

  // clear says no node is selected.
  clear() {
    $('details').textContent = 'Click a node.';
  }

  // details shows node v: its state now, its neighbours, and (asked of
  // the server, which looks back through the run) its last messages and
  // changes.
  details(v) {
    const s = this.view.state, m = this.model;
    const nbrs = [];
    for (const k of s.links) {
      const [a, b] = m.ends(k);
      if (a === v) nbrs.push(b); else if (b === v) nbrs.push(a);
    }
    nbrs.sort((a, b) => a - b);
    const shown = nbrs.length > 24 ? `${nbrs.slice(0, 24).join(', ')} and ${nbrs.length - 24} more` : nbrs.join(', ') || 'none';
    const state = s.alive[v] ? m.states[s.state[v]] || 'booting' : 'crashed';
    // Its gray state: its clock, its pace, the directions of its links cut.
    const g = m.grayOf(s, v);
    let clock = g.rate === 1e6 ? 'true time' : `${rateWord(g.rate)} (${g.rate} ppm of true time)`;
    if (g.jumpMS >= 0) clock += `; jumped ${jumpWord(g.jumped)} in all, last at ${(g.jumpMS / 1000).toFixed(3)} s by ${jumpWord(g.jumpBy)}`;
    const pace = g.slow > 0 ? `inputs handled ${duration(g.slow)} late` : 'on time';
    const cuts = [];
    for (const k of s.cuts) {
      const [from, to] = [Math.floor(k / m.n), k % m.n];
      const both = m.cut(s, to, from) ? ', cut both ways' : '';
      if (from === v) cuts.push([to, `to ${to}: ${to} does not hear ${v}${both}`]);
      else if (to === v && !both) cuts.push([from, `from ${from}: ${v} does not hear ${from}`]);
    }
    cuts.sort((a, b) => a[0] - b[0]);
    $('details').innerHTML = `<dl>
      <dt>node</dt><dd>${v}</dd><dt>value</dt><dd>${s.value[v]}</dd>
      <dt>alive</dt><dd>${s.alive[v] ? 'yes' : 'no'}</dd>
      <dt>state</dt><dd>${state}</dd>
      <dt>leader</dt><dd>${s.leader[v] < 0 ? 'none' : s.leader[v]}</dd>
      <dt>${s.alive[v] ? 'its leader' : 'crashed'}</dt><dd id="detail-since">${this.since(v)}</dd>
      <dt>index</dt><dd>${s.idxID[v] >= 0 ? `⟨${s.idxNum[v]}, ${s.idxID[v]}⟩` : '–'}</dd>
      <dt>neighbours</dt><dd id="detail-neighbours">${shown}</dd>
      <dt>clock</dt><dd id="detail-clock">${clock}</dd>
      <dt>pace</dt><dd id="detail-slow">${pace}</dd>
      <dt>links cut</dt><dd id="detail-cuts">${cuts.map((c) => c[1]).join('; ') || 'none'}</dd></dl>
      <h3>last messages</h3><ol id="detail-messages"><li>…</li></ol>
      <h3>last changes</h3><ol id="detail-changes"><li>…</li></ol>`;
    const at = this.view.i, key = `${v}:${at}`;
    if (this.asked === key) { this.showHistory(this.told); return; }
    this.asked = key;
    this.view.task(fetchAgain(`node?v=${v}&i=${at}`).then((r) => r.json()).then((h) => {
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
