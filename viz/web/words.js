// words.js: an event of a chunk in words, as the event log, the step's
// line and the tests read it: "5122 sent heartbeat to 6636", "node 5122
// crashes", "17 follows 5122".

import { rateWord, duration, jumpWord } from './common.js';

const EVERYONE = -2;

// The kinds of the log's filter: a group or a kind of its own.
export const MESSAGE_KINDS = new Set(['send', 'deliver', 'drop']);
// A value event is a change: a node's value (desirability) moving.
export const QUIET_KINDS = new Set(['send', 'deliver', 'drop', 'timer']);

// Flags of a value event (viz/chunk.go): it rose, it fell, c holds the
// value before.
const ROSE = 1, FELL = 2, BEFORE = 4;

// words says event j of chunk ch of model m.
export function words(m, ch, j) {
  const kind = m.info.kinds[ch.kind[j]], v = ch.node[j], p = ch.peer[j], a = ch.a[j], b = ch.b[j];
  const type = () => (a >= 0 && a < m.types.length ? m.types[a] : 'a message');
  const text = () => (ch.text && a >= 0 && a < ch.text.length ? ch.text[a] : '');
  switch (kind) {
    case 'send': return p === EVERYONE ? `${v} sent ${type()} to everyone in range` : `${v} sent ${type()} to ${p}`;
    case 'deliver': return `${v} got ${type()} from ${p}`;
    case 'drop': return `${type()} from ${v} to ${p} lost`;
    case 'status': {
      const state = m.states[ch.flag[j]] || '?', norm = ch.flag[j] === m.normCode;
      if (ch.c[j] === v && (ch.b[j] !== 0 || ch.c[j] !== 0) && !norm) return `${v} starts an election (${state})`;
      if (norm && a === v) return `${v} becomes leader`;
      if (norm && a >= 0) return `${v} follows ${a}`;
      if (norm) return `${v} has no leader`;
      return `${v} is in ${state}${a >= 0 ? `, leader ${a}` : ''}`;
    }
    case 'crash': return `node ${v} crashes`;
    case 'restart': return `node ${v} restarts`;
    case 'recover': return `node ${v} recovers`;
    case 'elect': return `${v} is asked to start an election`;
    case 'node': return `node ${v} joins, value ${b}`;
    // One that crossed its leader's comes in the server's words (metrics'
    // ValueMove): "node 7's value rises to 120, above its leader 4's 90".
    case 'value': {
      if (a >= 0 && text()) return text();
      const f = ch.flag[j], how = f & ROSE ? 'rises to' : f & FELL ? 'falls to' : 'becomes';
      return `node ${v}'s value ${how} ${b}${f & BEFORE ? ` (was ${ch.c[j]})` : ''}`;
    }
    case 'link_up': return `link ${v}–${p} up${ch.flag[j] ? ' (moved into range)' : ''}`;
    case 'link_down': return `link ${v}–${p} down${ch.flag[j] ? ' (moved out of range)' : ''}`;
    case 'timer': return `${v}'s timer ${a} fires`;
    case 'report': return `${v} reports: ${text()}`;
    case 'panic': return `${v} panicked: ${text()}`;
    case 'act': return text() || 'an action';
    case 'end': return 'the run ends';
    case 'cut': return `link ${v}→${p} cut one way: ${p} no longer hears ${v}`;
    case 'uncut': return `link ${v}→${p} carries again`;
    case 'clock': return b === 1e6 ? `${v}'s clock runs true again` : `${v}'s clock runs at ${rateWord(b)}`;
    case 'jump': return `${v}'s clock jumps ${jumpWord(b)}`;
    case 'slow': return b === 0 ? `${v} handles its inputs on time again` : `${v} handles its inputs ${duration(b)} late`;
  }
  return `${kind} at ${v}`;
}

// touches says event j of chunk ch concerns node v (its node or peer).
export function touches(ch, j, v) { return ch.node[j] === v || ch.peer[j] === v; }
