// common.js: what the page's parts share: $ for an element of the page,
// counts written short, and the colours of leaders and message types.

export const $ = (id) => document.getElementById(id);

// compact writes a count short: 950, 12k, 3.4M.
// short writes a count exactly up to 100,000, then compact.
export function short(v) { return v >= 1e5 ? compact(v) : String(v); }

export function compact(v) {
  if (v >= 1e6) return `${(v / 1e6).toFixed(v >= 1e7 ? 0 : 1)}M`;
  if (v >= 1e3) return `${(v / 1e3).toFixed(v >= 1e4 ? 0 : 1)}k`;
  return `${v}`;
}

// palette gives each leader and each message type a colour of its own.
function hue(k) { return (k * 137.508) % 360; }
const leaderColours = [];
export function leaderColour(l) { return l < 0 ? '#9a9a9a' : (leaderColours[l] ||= `hsl(${hue(l)}, 65%, 50%)`); }
const typeColours = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
export function typeColour(k) { return typeColours[k % typeColours.length]; }

// The gray failures' colours, on the network, the timeline and their keys
// (style.css has the same): a link cut one way, a clock off true time, a
// slow node.
export const CUT_COLOUR = '#d97400', CLOCK_COLOUR = '#7b3294', SLOW_COLOUR = '#8c6d1f';

// rateWord writes a clock's rate, in parts per million of true time, as a
// factor: ×0.8.
export function rateWord(ppm) { return '×' + Number((ppm / 1e6).toFixed(6)); }

// duration writes ns nanoseconds (0 or more) short, in its largest unit,
// as the server does (viz/chunk.go's durationWord): 200 ms, 1.5 s, 1 h.
export function duration(ns) {
  for (const [unit, name] of [[3600e9, 'h'], [60e9, 'min'], [1e9, 's'], [1e6, 'ms'], [1e3, 'µs']]) {
    if (ns >= unit) return `${Math.round(ns / unit * 1000) / 1000} ${name}`;
  }
  return `${ns} ns`;
}

// jumpWord writes a clock's jump, signed: +2 s, -1 h.
export function jumpWord(ns) { return (ns < 0 ? '-' : '+') + duration(Math.abs(ns)); }
