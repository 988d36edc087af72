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

// Colours. Leaders take Paul Tol's muted palette (colour-blind safe), in
// the order the run first followed them (the index's leaders: a leader
// keeps its colour whatever moment is shown); messages take Okabe and
// Ito's, less its vermillion (a crash's, on the map and the timeline) and
// its green (too near the leaders' teal); the chart is drawn in greys. No
// colour of one set is among another's.
export const LEADER_COLOURS = ['#332288', '#117733', '#44AA99', '#999933', '#DDCC77', '#CC6677', '#882255', '#AA4499'];
export const TYPE_COLOURS = ['#E69F00', '#0072B2', '#56B4E9', '#000000', '#F0E442', '#7F7F7F'];
export const CRASH_COLOUR = '#D55E00', NO_LEADER = '#9a9a9a', ELECTING = '#333';
// A leader never followed in the index (a live run's newest) takes its
// id's place, until the index lists it.
let rank = null;
export function leaderRanks(ranks) { rank = ranks; }
export function leaderColour(l) {
  if (l < 0) return NO_LEADER;
  const r = rank && rank.get(l);
  return LEADER_COLOURS[(r ?? l) % LEADER_COLOURS.length];
}
// ink is the colour of a letter on a node of colour c: white on the dark
// ones.
const light = new Set(['#44AA99', '#999933', '#DDCC77', '#CC6677', '#AA4499', '#9a9a9a', '#ffffff']);
export function ink(c) { return light.has(c) ? '#111' : '#fff'; }
export function typeColour(k) { return TYPE_COLOURS[k % TYPE_COLOURS.length]; }

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

// afterPaint resolves in the task after the next frame is painted: work
// that can wait (the components, the log, the marks) lets a frame show
// first.
export const afterPaint = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));

// whenIdle resolves once the page's thread has nothing to do (or after
// 500 ms at most): after the first frame, what can wait for it waits for
// that, and goes after whatever else the page was asked.
export const whenIdle = () => new Promise((done) => (window.requestIdleCallback ? requestIdleCallback(() => done(), { timeout: 500 }) : setTimeout(done, 50)));
