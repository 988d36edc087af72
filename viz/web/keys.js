// keys.js: the keyboard and the search for a node. Space plays and
// pauses; → steps one event, ← goes back one; shift with an arrow seeks a
// second (Page Up and Page Down a tenth of the run); Home and End go to
// the start and the end; + and - zoom, 0 fits; / searches a node by id;
// ? lists the keys (#help); Escape closes it and lets the node go.

import { $ } from './common.js';

export const KEYS = [
  ['Space', 'play or pause'], ['→', 'the next event (step)'], ['←', 'the event before'],
  ['Shift →, Shift ←', 'a second on, a second back'], ['Page Down, Page Up', 'a tenth of the run on, back'],
  ['Home, End', 'the start, the end'], ['+, -, 0', 'zoom in, out, fit'],
  ['/', 'search a node by id'], ['?', 'these keys'], ['Escape', 'close this; let the node selected go'],
];

export function wireKeys(view) {
  const help = $('help');
  $('help-keys').innerHTML = KEYS.map(([k, what]) => `<dt><kbd>${k}</kbd></dt><dd>${what}</dd>`).join('');
  const toggleHelp = (open = help.hidden) => {
    if (!open && help.contains(document.activeElement)) document.activeElement.blur();
    help.hidden = !open;
    if (open) $('help-close').focus();
  };
  $('help-button').addEventListener('click', () => toggleHelp());
  $('help-close').addEventListener('click', () => toggleHelp(false));
  $('search').addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); search(view); } });
  $('search').addEventListener('change', () => search(view));
  window.addEventListener('keydown', (e) => {
    const t = e.target, typing = t.matches && t.matches('input, select, textarea');
    if (typing) { if (e.key === 'Escape') t.blur(); return; }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const m = view.model, net = view.net;
    const seek = (ms) => { view.pause(); view.seek(Math.max(0, Math.min(m.end, ms))); };
    switch (e.key) {
      case ' ':
        if (t.matches && t.matches('button, [tabindex]') && t !== document.body) return; // the button's own
        view.playing || view.following ? view.pause() : view.play(); break;
      case 'ArrowRight': e.shiftKey ? seek(view.ms + 1000) : view.step(); break;
      case 'ArrowLeft': e.shiftKey ? seek(view.ms - 1000) : view.back(); break;
      case 'PageDown': seek(view.ms + m.end / 10); break;
      case 'PageUp': seek(view.ms - m.end / 10); break;
      case 'Home': seek(0); break;
      case 'End': seek(m.end); break;
      case '+': case '=': net.zoomBy(1.5); break;
      case '-': net.zoomBy(1 / 1.5); break;
      case '0': net.fitAll(); break;
      case '/': $('search').focus(); $('search').select(); break;
      case '?': toggleHelp(); break;
      case 'Escape': if (!help.hidden) toggleHelp(false); else view.select(-1); break;
      default: return;
    }
    e.preventDefault();
  });
}

// search selects the node whose id is in #search and brings it to the
// middle, zoomed in to read ids; #search-note says when there is none.
export function search(view) {
  const text = $('search').value.trim(), n = view.model.n, v = Number(text);
  const note = $('search-note');
  if (text === '') { note.textContent = ''; return -1; }
  if (!/^\d+$/.test(text) || v >= n) {
    note.textContent = `no node ${text}: the ids are 0 to ${n - 1}`;
    $('search').setAttribute('aria-invalid', 'true');
    return -1;
  }
  note.textContent = '';
  $('search').removeAttribute('aria-invalid');
  view.select(v);
  view.net.centre(v, view.net.zoomToRead());
  return v;
}
