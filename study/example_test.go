package study_test

import (
	"fmt"
	"os"

	_ "github.com/electgo/elect/algo/all"
	"github.com/electgo/elect/study"
)

// A study from Go: the exact message count of the echo wave (seed 002) on
// the layered networks of seed 000, run and judged.
func Example() {
	st, err := study.Parse([]byte(`
name: echo-count
sweeps:
  - name: waves
    experiments: [start]
    algorithms: [echo]
    topologies: ["layered:{n}@2..3"]
    seeds: 2
claims:
  - id: exact
    says: explorer and echo over each link, information down the tree
    source: {document: seed 002}
    measure: messages
    where: {sweep: waves}
    between: ["2 * m + n - 1", "2 * m + n - 1"]
`), "echo-count.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	out, _ := os.MkdirTemp("", "study")
	defer os.RemoveAll(out)
	res, err := st.Run(study.Options{Out: out, Jobs: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range res.Outcomes {
		fmt.Println(o.Claim.ID, o.Verdict)
	}
	fmt.Println("study", res.Verdict())
	// Output:
	// spec-waves holds
	// exact holds
	// study holds
}
