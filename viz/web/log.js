// log.js: the event log under the network (#log): the events around the
// moment shown, in words, the last one before it on its own line
// (#log-now); filtered by kind (#log-kind: changes and faults, every
// event, messages, or one kind) and by node (#log-node); a click on an
// event goes to the moment just after it. A step writes its event there
// and brings it into view, whatever the filter.

import { $ } from './common.js';
import { NS } from './data.js';
import { words, touches, MESSAGE_KINDS, QUIET_KINDS } from './words.js';

const BEFORE = 14, AFTER = 6;    // events listed before and after the moment
const LOOK_BACK = 2;             // chunks the log looks back through, at most
const PLAYING_EVERY_MS = 500;    // the log is written again at most this often while playing

export class Log {
  constructor(view) {
    this.view = view;
    this.model = view.model;
    this.stepped = -1;
    const sel = $('log-kind');
    for (const k of this.model.info.kinds) {
      const o = document.createElement('option');
      o.value = o.textContent = k;
      sel.appendChild(o);
    }
    sel.addEventListener('change', () => this.update(true));
    $('log-node').addEventListener('input', () => this.update(true));
    $('log').addEventListener('click', (e) => {
      const li = e.target.closest('li[data-i]');
      if (li) this.go(Number(li.dataset.i), Number(li.dataset.t));
    });
    $('log').addEventListener('keydown', (e) => {
      const li = e.target.closest('li[data-i]');
      if (li && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); e.stopPropagation(); this.go(Number(li.dataset.i), Number(li.dataset.t)); }
    });
  }

  // go shows the run just after event i, at ms.
  go(i, ms) {
    this.view.pause();
    this.stepped = i;
    this.view.show(i + 1, ms);
  }

  // matcher is, by kind code, whether the filter lets the kind through.
  matcher() {
    const want = $('log-kind').value, kinds = this.model.info.kinds;
    return Uint8Array.from(kinds, (k) => (want === 'all' ? 1 : want === 'changes' ? !QUIET_KINDS.has(k)
      : want === 'messages' ? MESSAGE_KINDS.has(k) : k === want) ? 1 : 0);
  }

  // step notes that the view stepped onto event i: the log names it and
  // brings it into view.
  step(i) { this.stepped = i; this.update(true); }

  // update writes the log for the view's moment (force: even while
  // playing, or when nothing seems to have changed).
  update(force = false) {
    const v = this.view, m = this.model, now = performance.now();
    if (!force && v.playing && now - (this.at || 0) < PLAYING_EVERY_MS) return;
    const nodeText = $('log-node').value.trim(), node = nodeText === '' ? -1 : Number(nodeText);
    const key = `${v.i}:${$('log-kind').value}:${node}:${this.stepped}:${m.events}`;
    if (!force && key === this.key) return;
    this.at = now;
    const ok = this.matcher(), i = v.i;
    const fits = (ch, j) => (ok[ch.kind[j]] && (node < 0 || touches(ch, j, node))) || ch.first + j === this.stepped;
    const item = (ch, j) => ({ i: ch.first + j, t: ch.t[j] / NS, kind: m.info.kinds[ch.kind[j]], what: words(m, ch, j) });
    const before = [], after = [];
    let missing = false, last = null;
    for (let k = m.chunkOf(Math.max(0, i - 1)); i > 0 && k >= 0 && k > m.chunkOf(i - 1) - LOOK_BACK && before.length < BEFORE; k--) {
      const ch = m.loaded(k);
      if (!ch) {
        // The moment's own chunk is fetched (a jump fetches it anyway);
        // an older one only when at hand.
        missing = true;
        if (k === m.chunkOf(i - 1) && this.view.started) this.view.task(m.chunk(k).then(() => this.update(true))).catch(() => {});
        break;
      }
      for (let j = Math.min(ch.n, i - ch.first) - 1; j >= 0 && before.length < BEFORE; j--) {
        if (ch.first + j === i - 1 && !last) last = item(ch, j);
        if (fits(ch, j)) before.push(item(ch, j));
      }
    }
    for (let k = m.chunkOf(i); k < m.chunks.length && after.length < AFTER; k++) {
      const ch = m.loaded(k);
      if (!ch) break;
      for (let j = Math.max(0, i - ch.first); j < ch.n && after.length < AFTER; j++) if (fits(ch, j)) after.push(item(ch, j));
      if (k > m.chunkOf(i)) break;
    }
    this.key = key;
    $('log-now').textContent = last ? `event ${(last.i + 1).toLocaleString('en')} at ${(last.t / 1000).toFixed(3)} s: ${last.what}`
      : i === 0 ? 'the start: no event yet' : 'reading the events…';
    const li = (e, cls) => `<li data-i="${e.i}" data-t="${e.t}" data-kind="${e.kind}" tabindex="0" class="${cls}${e.i === this.stepped ? ' stepped' : ''}">`
      + `<time>${(e.t / 1000).toFixed(3)} s</time> ${escape(e.what)}</li>`;
    const none = before.length + after.length === 0
      ? `<li class="none">${missing ? 'reading the events…' : `no such event in the ${LOOK_BACK} chunks before this moment`}</li>` : '';
    $('log').innerHTML = before.reverse().map((e) => li(e, 'past')).join('')
      + `<li class="moment" aria-hidden="true">now: ${(v.ms / 1000).toFixed(3)} s</li>`
      + after.map((e) => li(e, 'later')).join('') + none;
    const focus = $('log').querySelector('li.stepped') || $('log').querySelector('li.moment');
    const box = $('log');
    box.scrollTop = Math.max(0, focus.offsetTop - box.offsetTop - box.clientHeight / 2);
  }
}

function escape(s) { return s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]); }
