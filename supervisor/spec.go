package supervisor

// Spec describes what a Process runs, where it writes, and how it is
// reached: the same for all of its lives.
type Spec struct {
	// Name names the process in errors: "node 3".
	Name string
	// Binary and Args are the command of every life: the elect binary and
	// "node --id 3 ..." (Process.SetArgs changes the Args of later lives).
	Binary string
	Args   []string
	// Wrap, when set, is a command that runs Binary and Args: the
	// emulator's ["ip", "netns", "exec", NS] enters a namespace, then
	// execs the node, which keeps the parent-death signal of the wrapper.
	Wrap []string
	// Env is the environment of every life; nil is the supervisor's own.
	Env []string
	// Dir is the working directory of every life; "" is the supervisor's.
	Dir string
	// StateDir is the node's state directory: a Fresh life begins with it
	// emptied, the others keep it. "" when the node saves no state.
	StateDir string
	// Log is the file that every life's standard output and error are
	// appended to, so that a crash and the recovery after it read in
	// order. It is required.
	Log string
	// Banner, when set, heads each life's part of the log with a line
	// "=== BANNER, life N (MODE), TIME", so that a reader can tell where
	// one life ends and the next begins.
	Banner string
	// HTTP is where a life serves its status: AwaitUp and Status ask it.
	HTTP Endpoint
	// Token is the credential that Elect's, SetGray's, SetValue's and PostJSON's
	// requests carry (Authorization: Bearer), node.HTTPToken of the
	// cluster's key; "" for a node without a key.
	Token string
	// OnExit, when set, is called with the error of cmd.Wait once a life
	// that ended on its own (not by Kill, Stop or a failed AwaitUp) is
	// reaped: an unplanned exit, which the supervisor's user may count,
	// journal as a crash, or report. It runs on the goroutine that reaped
	// the life, with no lock held: it may Launch the next one.
	OnExit func(err error)
}

// Mode is how a life starts, as far as its state directory goes.
type Mode int

const (
	// Start is a first life: the node finds whatever its state directory
	// holds (nothing, or the state of an earlier run).
	Start Mode = iota
	// Fresh empties the state directory first: the node starts with no
	// state, as a new node that elects.
	Fresh
	// Recover keeps the state directory: the node restores what it saved
	// and merges with its neighbours rather than elect.
	Recover
)

// String is the mode as elect cluster shows it: start, fresh or recover.
func (m Mode) String() string {
	switch m {
	case Fresh:
		return "fresh"
	case Recover:
		return "recover"
	}
	return "start"
}
