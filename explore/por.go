package explore

// Partial-order reduction by sleep sets (Godefroid): two steps at different
// nodes commute (either order leads to the same state), so once a state's
// step a is explored, a sibling b independent of a need not be taken again
// after a in b's own branch: b's children start with a asleep, and a
// sleeping step is skipped until a step dependent on it wakes it. Every
// reachable state is still reached; what is pruned is the second way to a
// state already met (Result.Pruned). With states cached, a state met again
// with fewer steps asleep than when it was explored is explored again for
// the steps it skipped then (and keeps only the steps asleep both times).
//
// Independence is decided on the steps' kinds and nodes, conservatively:
// deliveries and timers at different nodes are independent (a machine
// touches only itself and appends to the links it sends on; the message
// a delivery takes is not one another step could send); a loss is
// independent of steps on other links, except another loss (they share
// the budget); a crash, a restart or a link change depends on every step.
// Timed, two steps commute only at the same time (the second may not come
// before the first). The machines see a constant clock untimed (clock), so
// the order of independent steps cannot reach them through time.

// independent says whether steps a and b commute.
func (x *explorer) independent(a, b Step) bool {
	if x.s.Timed && a.At != b.At {
		return false
	}
	switch {
	case !local(a.Kind) || !local(b.Kind):
		return false
	case a.Kind == Lose && b.Kind == Lose:
		return false
	case a.Kind == Lose || b.Kind == Lose:
		return a.Node != b.Node || a.Peer != b.Peer // other links
	}
	return a.Node != b.Node
}

func local(k StepKind) bool { return k == Deliver || k == Fire || k == Lose }

// same says whether a and b are the same step of a state (untimed, their
// times are labels only).
func (x *explorer) same(a, b Step) bool {
	return a.Kind == b.Kind && a.Node == b.Node && a.Peer == b.Peer && a.Seq == b.Seq && a.Timer == b.Timer &&
		(!x.s.Timed || a.At == b.At)
}

// asleep says whether st is one of set.
func (x *explorer) asleep(st Step, set []Step) bool {
	for _, z := range set {
		if x.same(st, z) {
			return true
		}
	}
	return false
}

// childSleep is the sleep set of the state that step st leads to: the
// steps asleep before it, and its siblings explored before it, that st
// does not wake.
func (x *explorer) childSleep(st Step, sleep, taken []Step) []Step {
	if x.opt.NoSleepSets {
		return nil
	}
	if len(sleep)+len(taken) == 0 {
		return nil
	}
	out := make([]Step, 0, len(sleep)+len(taken))
	for _, set := range [2][]Step{sleep, taken} {
		for _, z := range set {
			if x.independent(st, z) {
				out = append(out, z)
			}
		}
	}
	return out
}

// minus is a without the steps of b.
func (x *explorer) minus(a, b []Step) []Step {
	var out []Step
	for _, z := range a {
		if !x.asleep(z, b) {
			out = append(out, z)
		}
	}
	return out
}

// intersect is the steps of a that are in b.
func (x *explorer) intersect(a, b []Step) []Step {
	var out []Step
	for _, z := range a {
		if x.asleep(z, b) {
			out = append(out, z)
		}
	}
	return out
}
