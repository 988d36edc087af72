#!/usr/bin/env bash
# Measures every registered election algorithm on 4 nodes three ways -- the
# simulator (elect sim), 4 real processes on loopback (elect cluster, at 0%
# and 20% loss) and the namespace emulator (elect emulate) -- and prints the
# table of docs/runtime-algorithms.md in markdown on stdout. Progress goes to
# stderr; every run's JSON is kept in $OUT.
#
#   docs/measure-runtime.sh                      # builds ./cmd/elect, runs everything (about 5 minutes)
#   ELECT=/tmp/elect docs/measure-runtime.sh     # with a binary already built
#   RUNS=9 EMU_RUNS=5 OUT=/tmp/m docs/measure-runtime.sh
#
# Environment:
#   ELECT         the elect binary (default: go build ./cmd/elect into $OUT)
#   ELECT_COMMIT  the commit ELECT was built from, for the table's heading
#                 (default: the one go stamped in it, if any)
#   OUT           where scenarios, raw JSON and logs go (default: a new /tmp directory)
#   RUNS          real-process runs per algorithm and loss rate (default 5)
#   EMU_RUNS      emulator runs per algorithm (default 3)
#   WITHIN        the cluster's --within at 0% loss (default 10s, its default)
#   WITHIN_LOSSY  the cluster's --within at 20% loss (default 30s: single runs
#                 there took up to 15 s, vkt, and 8 s, capture-sync)
#   HELLO         the cluster's --hello (default 50ms)
#   EMU_HELLO     the emulator's --hello (default 100ms)
#   SKIP_EMULATE  non-empty: skip the emulator (it needs root, ip and nft)
#   SUMMARY_ONLY  non-empty: run nothing, print the table again from the runs in $OUT
#
# Needs bash, go (unless ELECT is given) and python3. Exit status 0 when the
# table was printed, whatever the runs' outcomes (failed runs are listed).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-$(mktemp -d /tmp/measure-runtime.XXXXXX)}
RUNS=${RUNS:-5}
EMU_RUNS=${EMU_RUNS:-3}
WITHIN=${WITHIN:-10s}
WITHIN_LOSSY=${WITHIN_LOSSY:-30s}
HELLO=${HELLO:-50ms}
EMU_HELLO=${EMU_HELLO:-100ms}
SKIP_EMULATE=${SKIP_EMULATE:-}
SUMMARY_ONLY=${SUMMARY_ONLY:-}
mkdir -p "$OUT"

say() { printf '%s\n' "$*" >&2; }

if [[ -z ${ELECT:-} ]]; then
	ELECT=$OUT/elect
	if [[ -z $SUMMARY_ONLY ]]; then
		say "building $ELECT"
		(cd "$ROOT" && go build -o "$ELECT" ./cmd/elect)
		git -C "$ROOT" rev-parse --short=12 HEAD >"$OUT/commit" 2>/dev/null || echo unknown >"$OUT/commit"
		git -C "$ROOT" diff --quiet HEAD 2>/dev/null || echo "$(cat "$OUT/commit") with local changes" >"$OUT/commit"
	fi
elif [[ -z $SUMMARY_ONLY ]]; then
	# A binary built elsewhere: its commit if go stamped one in it.
	rev=${ELECT_COMMIT:-$(go version -m "$ELECT" 2>/dev/null | sed -n 's/.*vcs\.revision=\(.\{12\}\).*/\1/p')}
	echo "${rev:-unknown} (binary $ELECT)" >"$OUT/commit"
fi
command -v python3 >/dev/null || { say "python3 is needed"; exit 1; }

# Per algorithm: the topology (sim spec and cluster name) and the values.
# Node 1 is the most valued; chang-roberts takes its worst case, values
# decreasing along the ring (n(n+1)/2 election messages).
topology() { case $1 in ring | chang-roberts) echo ring ;; *) echo complete ;; esac; }
values() { case $1 in chang-roberts) echo 3,2,1,0 ;; *) echo 5,9,2,7 ;; esac; }
yaml_values() { # 5,9,2,7 -> {0: 5, 1: 9, 2: 2, 3: 7}
	local i=0 out="" v
	IFS=, read -ra vs <<<"$1"
	for v in "${vs[@]}"; do out+="${out:+, }$i: $v"; i=$((i + 1)); done
	echo "{$out}"
}
# vkt and park elect on their own and then send heartbeats for ever: their
# runs get a time limit, the static algorithms run until no event is left.
spontaneous() { case $1 in vkt | park) return 0 ;; *) return 1 ;; esac; }
# Parameters at 20% loss, where the defaults assume messages in time.
lossy_params() {
	case $1 in
	bully) echo --param answer_timeout=1s --param coordinator_timeout=3s ;;
	ring) echo --param timeout=20s --param wait_timeout=60s ;;
	esac
}

scenario() { # algorithm duration file
	{
		echo "algorithm: $1"
		echo "topology: $(topology "$1"):4"
		echo "values: $(yaml_values "$(values "$1")")"
		echo "duration: $2"
	} >"$3"
}

# Runs everything, keeping each run's command, exit status, JSON and stderr in $OUT.
measure() {
	nproc >"$OUT/cores"
	date -u +%Y-%m-%d >"$OUT/date"

	# 1. The simulator: one run each (it is deterministic).
	for a in $ALGOS; do
		d=0
		spontaneous "$a" && d=10s
		scenario "$a" "$d" "$OUT/sim-$a.yaml"
		say "sim $a"
		"$ELECT" sim "$OUT/sim-$a.yaml" --json >"$OUT/sim-$a.json"
	done

	# 2. Real processes on loopback: RUNS at 0% loss, RUNS at 20% loss.
	for a in $ALGOS; do
		for loss in 0 0.2; do
			for i in $(seq 1 "$RUNS"); do
				args=(cluster --algo "$a" --topology "$(topology "$a")" --nodes 4 --values "$(values "$a")"
					--elect none --hello "$HELLO" --json)
				if [[ $loss == 0 ]]; then
					args+=(--within "$WITHIN")
				else
					# shellcheck disable=SC2207
					args+=(--within "$WITHIN_LOSSY" --faults "loss=$loss" $(lossy_params "$a"))
				fi
				f=$OUT/cluster-$a-loss$loss-$i
				echo "$ELECT ${args[*]}" >"$f.cmd"
				rc=0
				"$ELECT" "${args[@]}" >"$f.json" 2>"$f.err" || rc=$?
				echo "$rc" >"$f.rc"
				say "cluster $a loss=$loss run $i: exit $rc"
			done
		done
	done

	# 3. The emulator: EMU_RUNS runs of 5 s for each algorithm it takes.
	if [[ -z $SKIP_EMULATE && $(id -u) == 0 ]] && command -v nft >/dev/null && command -v ip >/dev/null; then
		for a in $ALGOS; do
			scenario "$a" 5s "$OUT/emu-$a.yaml"
			for i in $(seq 1 "$EMU_RUNS"); do
				f=$OUT/emu-$a-$i
				echo "$ELECT emulate $OUT/emu-$a.yaml --hello $EMU_HELLO --json" >"$f.cmd"
				rc=0
				"$ELECT" emulate "$OUT/emu-$a.yaml" --hello "$EMU_HELLO" --json >"$f.json" 2>"$f.err" || rc=$?
				echo "$rc" >"$f.rc"
				say "emulate $a run $i: exit $rc"
				if [[ $rc != 0 && ! -s $f.json ]]; then
					break # refused (a fixed network it cannot give): once is enough
				fi
			done
		done
	else
		say "emulator skipped (needs root, ip and nft, and SKIP_EMULATE empty)"
	fi
}

say "results in $OUT"
if [[ -n $SUMMARY_ONLY ]]; then
	ALGOS=$(ls "$OUT" | sed -n 's/^sim-\(.*\)\.json$/\1/p')
	[[ -n $ALGOS ]] || { say "no runs in $OUT"; exit 1; }
else
	ALGOS=$("$ELECT" algos | sed -n 's/^\([a-z0-9-]*\): .*/\1/p')
	[[ -n $ALGOS ]] || { say "elect algos listed nothing"; exit 1; }
	measure
fi

# 4. The table.
python3 - "$OUT" $ALGOS <<'PY'
import glob, json, os, re, statistics, sys

out, algos = sys.argv[1], sys.argv[2:]
def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
def text(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return ""
def runs(prefix):
    """(rc, json, stderr, cmd) of the runs prefix-1, prefix-2, ... in order."""
    found = []
    for p in glob.glob(prefix + "-*.rc"):
        m = re.search(r"-(\d+)\.rc$", p)
        if m:
            found.append(int(m.group(1)))
    res = []
    for i in sorted(found):
        base = f"{prefix}-{i}"
        res.append((int(text(base + ".rc") or 1), load(base + ".json"), text(base + ".err"), text(base + ".cmd")))
    return res
def med(xs):
    return statistics.median(xs) if xs else None
def num(x):
    if x is None:
        return "—"
    if abs(x - round(x)) < 1e-9:
        return str(int(round(x)))
    return f"{x:.1f}"
def ms(x):
    if x is None:
        return "—"
    return f"{x:.1f}" if x < 100 else f"{x:.0f}"

SPONTANEOUS = {"vkt", "park"}
MUST_EQUAL = {"chang-roberts", "ring", "echo", "all-to-all", "capture-sync"}
rows, problems, failures, refusals, spread = [], [], [], [], []
def rng(xs, f):
    return "—" if not xs else (f(min(xs)) if min(xs) == max(xs) else f"{f(min(xs))}–{f(max(xs))}")

for a in algos:
    sim = load(f"{out}/sim-{a}.json") or {}
    bt = sim.get("messages", {}).get("by_type", {})
    total = sim.get("messages", {}).get("total")
    el = (sim.get("elections", {}).get("list") or [])
    sim_ms = el[0]["end_ms"] - el[0]["start_ms"] if el else sim.get("elections", {}).get("mean_time_ms")
    if a in SPONTANEOUS and total is not None:
        hb = bt.get("heartbeat", 0)
        sim_msgs = f"{total - hb} ({total} in {sim.get('end_ms', 0) / 1000:.0f} s)"
        sim_count = total - hb
    else:
        sim_msgs, sim_count = num(total), total

    cells = [a, sim_msgs, ms(sim_ms)]
    for loss in ("0", "0.2"):
        rs = runs(f"{out}/cluster-{a}-loss{loss}")
        ok = [j for rc, j, _, _ in rs if rc == 0 and j and j.get("control", {}).get("elected", -1) >= 0]
        for rc, j, err, cmd in rs:
            if not (rc == 0 and j and j.get("control", {}).get("elected", -1) >= 0):
                last = err.splitlines()[-1] if err else ""
                fin = (j or {}).get("final", [])
                failures.append(f"`{cmd}` → exit {rc}: {last} (per node: algorithm messages sent "
                                f"{[n.get('sent', 0) for n in fin]}, states {[n.get('state') for n in fin]}, "
                                f"leaders {[n.get('leader') for n in fin]}, link failures "
                                f"{[n.get('link_failures', '?') for n in fin]})")
        def per_run(field):
            return [sum(n.get(field, 0) for n in j.get("final", [])) for j in ok]
        sent = per_run("sent")
        spread_cells = spread_cells if loss != "0" else [a]
        spread_cells += [rng(sent, num), rng([j["control"]["election_ms"] for j in ok], ms)]
        mark = "†" if a in SPONTANEOUS else ""
        cells += [f"{len(ok)}/{len(rs)}",
                  (num(med(sent)) + mark) if sent else "—",
                  ms(med([j["control"]["election_ms"] for j in ok])),
                  num(med(per_run("acks"))) if ok else "—",
                  num(med(per_run("retransmits"))) if ok else "—",
                  num(med(per_run("sync_messages"))) if ok else "—"]
        if a in MUST_EQUAL and sim_count is not None:
            allsent = [sum(n.get("sent", 0) for n in j.get("final", [])) for _, j, _, _ in rs if j]
            bad = [s for s in allsent if s != sim_count]
            if bad or len(ok) < len(rs):
                problems.append(f"{a} at loss {loss}: simulator {sim_count} messages, real runs {allsent} "
                                f"({len(ok)}/{len(rs)} elected)")

    es = runs(f"{out}/emu-{a}")
    eok = [j for rc, j, _, _ in es if rc == 0 and j]
    if not es:
        cells += ["not run", "—"]
    elif not eok:
        err = es[0][2].splitlines()[-1] if es[0][2] else "failed"
        reason = re.sub(r"^elect: \S+: algorithm: ", "", err)
        m = re.search(r"assumes a fixed (\w+) network", reason)
        cells += ["—", f"— (refused: fixed {m.group(1)} network)" if m else "— (failed, see below)"]
        refusals.append(f"{a}: `{es[0][3]}` → exit {es[0][0]}: {reason}")
    else:
        emsgs, etimes = [], []
        for j in eok:
            t = j["messages"]["total"]
            if a in SPONTANEOUS:
                t -= j["messages"]["by_type"].get("heartbeat", 0)
            emsgs.append(t)
            el = j.get("elections", {}).get("list") or []
            if el:
                etimes.append(el[0]["end_ms"] - el[0]["start_ms"])
        if a in SPONTANEOUS:
            tot = med([j["messages"]["total"] for j in eok])
            m = f"{num(med(emsgs))} ({num(tot)} in 5 s)"
        else:
            m = num(med(emsgs))
        if len(eok) < len(es):
            m += f" ({len(eok)}/{len(es)} ran)"
        cells += [m, ms(med(etimes))]
        spread_cells += [rng(emsgs, num), rng(etimes, ms)]
    if len(spread_cells) == 5:
        spread_cells += ["—", "—"]
    rows.append(cells)
    spread.append(spread_cells)

commit = text(f"{out}/commit")[:12]
print(f"Measured {text(out + '/date')} on {text(out + '/cores')} cores, commit {commit}; raw runs in {out}.\n")
head = ["algorithm", "sim msgs", "sim ms",
        "0%: elected", "0%: msgs", "0%: ms", "0%: acks", "0%: retr", "0%: sync",
        "20%: elected", "20%: msgs", "20%: ms", "20%: acks", "20%: retr", "20%: sync",
        "emu msgs", "emu ms"]
print("| " + " | ".join(head) + " |")
print("|" + "|".join(["---"] + ["--:"] * (len(head) - 1)) + "|")
for r in rows:
    print("| " + " | ".join(r) + " |")
print()
print("Spread over the runs (min–max; real runs that elected, emulator runs):\n")
head2 = ["algorithm", "0%: msgs", "0%: ms", "20%: msgs", "20%: ms", "emu msgs", "emu ms"]
print("| " + " | ".join(head2) + " |")
print("|" + "|".join(["---"] + ["--:"] * (len(head2) - 1)) + "|")
for r in spread:
    print("| " + " | ".join(r) + " |")
print()
print("Real runs: medians over the runs that elected. † vkt and park: every message "
      "up to the end of the run (heartbeats included once the run lasts past the first, 1 s); "
      "the simulator and emulator columns give theirs without heartbeats, then the total over the run.")
print()
print("Message counts that must equal the simulator's (chang-roberts, ring, echo, all-to-all, capture-sync): "
      + ("all equal, every run elected." if not problems else ""))
for p in problems:
    print(f"- MISMATCH or failure: {p}")
if refusals:
    print()
    print("The emulator refused:")
    for r in refusals:
        print(f"- {r}")
if failures:
    print()
    print("Runs that did not elect:")
    for f in failures:
        print(f"- {f}")
PY
