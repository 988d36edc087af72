// timeline.js: the timeline under the network (#timeline): play, start,
// next and end, the scrubber with the run's marks on it (faults and
// elections: a click goes there), the clock and the speed; and the moment
// in the address (#t=12.5s), read when it changes and written as it goes.

import { $ } from './common.js';
import { icon } from './icons.js';

// hashMS is the moment an address names (#t=12.5s, or ms), or null.
export function hashMS(hash) {
  const m = /t=([0-9.]+)(ms|s)?/.exec(hash);
  const v = m ? Number(m[1]) : NaN;
  if (!Number.isFinite(v)) return null;
  return m[2] === 'ms' ? v : v * 1000;
}

// Timeline drives view (view.js) from its controls and shows view's moment.
export class Timeline {
  constructor(view) {
    this.view = view;
    this.model = view.model;
    this.wire();
  }

  wire() {
    const view = this.view, scrub = $('scrub');
    scrub.addEventListener('input', () => { view.pause(); view.seek(Number(scrub.value)); });
    $('play').addEventListener('click', () => (view.playing ? view.pause() : view.play()));
    $('start').addEventListener('click', () => { view.pause(); view.seek(0); });
    $('end').addEventListener('click', () => { view.pause(); view.seek(this.model.end); });
    $('next').addEventListener('click', () => view.step());
    $('prev').addEventListener('click', () => view.back());
    $('speed').addEventListener('change', (e) => { view.speed = Number(e.target.value); });
    window.addEventListener('hashchange', () => this.fromHash());
  }

  // stretch makes the scrubber as long as the run is now.
  stretch() {
    $('scrub').max = this.model.end;
  }

  // marks puts on the timeline the index's marks (every crash, restart,
  // recovery, partition, heal, message lost, report, panic, election started and
  // leader elected, and the gray failures: a direction of a link cut or
  // carrying again, a clock's rate or jump, a node slowed or on time
  // again; a value that crossed: a node above its leader, a leader below
  // a follower), those of a kind close together as one; a click goes
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
      b.addEventListener('click', () => { this.view.pause(); this.view.seek(m.t); });
      strip.appendChild(b);
    }
  }

  // fromHash goes to the moment the address names: #t=12.5s (or ms).
  fromHash(hash = location.hash) {
    const ms = hashMS(hash);
    if (ms === null) return null;
    this.view.pause();
    return this.view.seek(ms);
  }

  // button shows the play button as pause while the view plays or
  // follows (on), else as play.
  button(on) {
    if (this.on === on) return;
    this.on = on;
    $('play').innerHTML = icon(on ? 'pause' : 'play');
    $('play').setAttribute('aria-label', on ? 'pause' : 'play');
    $('play').dataset.state = on ? 'playing' : 'paused';
  }

  // present shows where the view is: on the scrubber and the clock, in
  // the body's data-time and data-events (for tests), and, when it stays
  // there, in the address.
  present() {
    const view = this.view;
    $('scrub').value = view.ms;
    $('clock').value = (view.ms / 1000).toFixed(3) + ' s';
    document.body.dataset.time = view.ms;
    document.body.dataset.events = view.i;
    if (!view.playing && !view.following) {
      // The address carries the moment shown, for sharing it.
      history.replaceState(null, '', `#t=${(view.ms / 1000).toFixed(3)}s`);
    }
  }
}
