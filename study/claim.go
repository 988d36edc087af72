package study

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
	"go.yaml.in/yaml/v3"

	"github.com/electgo/elect/bench"
)

// Claim is what a source says about a measure of some of a study's runs,
// in one of four forms: a bound (at-least, at-most, between), a comparison
// with other runs (below, above), or a trend along the sizes or speeds of a
// sweep (grows, falls).
type Claim struct {
	ID string
	// Says is the claim in the source's words, or as close as a quotation
	// in another language allows.
	Says   string
	Source Source
	// Chosen says which settings of the runs are the study's own choice,
	// where the source does not give them.
	Chosen  string
	Measure bench.Measure
	Where   Selection
	// Relation is at-least, at-most, between, below, above, grows or falls.
	Relation string
	// Bounds are the claimed value (at-least, at-most) or the two ends
	// (between): numbers, or expressions of n and m (a point's mean node
	// and link counts) and size (the sweep's size, before it is filled in).
	Bounds []Bound
	// Than selects the runs that Where's are compared with (below, above):
	// each point of Where is paired with the point of Than that matches it
	// in every field Than does not name.
	Than *Selection
	// Along is size or speed: the parameter a trend follows.
	Along string
	// EachRun makes a bound bind every run, not the mean: for a worst case
	// (a theorem's message bound, "no election starts"), one run past it
	// is a counterexample. A measure that is EveryRun (violations) always
	// binds each run.
	EachRun bool
}

// Source is where a claim is made.
type Source struct {
	Document string `yaml:"document"`
	Where    string `yaml:"where"`
	Page     int    `yaml:"page"`
}

func (s Source) String() string {
	out := s.Document
	if s.Where != "" {
		out += ", " + s.Where
	}
	if s.Page > 0 {
		out += fmt.Sprintf(", p. %d", s.Page)
	}
	return out
}

// Selection picks points (the means over seeds of one experiment,
// algorithm, topology, size and speed) from a sweep: a field left empty
// picks every value.
type Selection struct {
	Sweep       *Sweep
	Experiments []string
	Algorithms  []string
	Topologies  []string // templates, as the sweep gives them ({n} unfilled)
	Sizes       []int
	Speeds      []float64
}

// Bound is a claimed value: a number, or an expression of n, m and size
// (expr-lang syntax, with log2, ln and sqrt beside its own floor, ceil,
// abs and round): "6 * (2 * n * floor(log2(n)) + n)", "2 * m + n - 1".
type Bound struct {
	Text string
	prog *vm.Program
	num  float64
}

// At is the bound's value at a point of n nodes and m links (means over
// its runs) and sweep size size.
func (b Bound) At(n, m float64, size int) (float64, error) {
	if b.prog == nil {
		return b.num, nil
	}
	out, err := expr.Run(b.prog, boundEnv(n, m, float64(size)))
	if err != nil {
		return 0, fmt.Errorf("bound %q: %w", b.Text, err)
	}
	v, ok := out.(float64)
	if !ok {
		if i, isInt := out.(int); isInt {
			return float64(i), nil
		}
		return 0, fmt.Errorf("bound %q is a %T, not a number", b.Text, out)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("bound %q is %v at n = %g, m = %g, size %d: not a number a measure can be held to", b.Text, v, n, m, size)
	}
	return v, nil
}

func boundEnv(n, m, size float64) map[string]any {
	return map[string]any{
		"n": n, "m": m, "size": size,
		"log2": math.Log2, "ln": math.Log, "sqrt": math.Sqrt,
	}
}

func parseBound(text string) (Bound, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return Bound{}, errors.New("an empty bound")
	}
	if v, err := strconv.ParseFloat(text, 64); err == nil {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Bound{}, fmt.Errorf("bound %q is not a finite number", text)
		}
		return Bound{Text: text, num: v}, nil
	}
	prog, err := expr.Compile(text, expr.Env(boundEnv(1, 1, 1)), expr.AsFloat64())
	if err != nil {
		return Bound{}, fmt.Errorf("bound %q is neither a number nor an expression of n, m and size: %w", text, err)
	}
	b := Bound{Text: text, prog: prog}
	if _, err := b.At(16, 24, 16); err != nil {
		return Bound{}, err
	}
	return b, nil
}

// list is a field that takes one value or several: "vkt" or [vkt, park].
type list []string

func (l *list) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		*l = list{n.Value}
		return nil
	case yaml.SequenceNode:
		var out []string
		if err := n.Decode(&out); err != nil {
			return err
		}
		*l = out
		return nil
	}
	return fmt.Errorf("line %d: want a value or a list of values", n.Line)
}

type fileWhere struct {
	Sweep      string `yaml:"sweep"`
	Experiment list   `yaml:"experiment"`
	Algorithm  list   `yaml:"algorithm"`
	Topology   list   `yaml:"topology"`
	Size       list   `yaml:"size"`
	Speed      list   `yaml:"speed"`
}

type fileClaim struct {
	ID      string     `yaml:"id"`
	Says    string     `yaml:"says"`
	Source  Source     `yaml:"source"`
	Chosen  string     `yaml:"chosen"`
	Measure string     `yaml:"measure"`
	Where   fileWhere  `yaml:"where"`
	AtLeast *string    `yaml:"at-least"`
	AtMost  *string    `yaml:"at-most"`
	Between []string   `yaml:"between"`
	Below   *fileWhere `yaml:"below"`
	Above   *fileWhere `yaml:"above"`
	Grows   bool       `yaml:"grows"`
	Falls   bool       `yaml:"falls"`
	Along   string     `yaml:"along"`
	EachRun bool       `yaml:"each-run"`
}

func (f *fileClaim) claim(st *Study) (*Claim, error) {
	if !namePattern.MatchString(f.ID) {
		return nil, fmt.Errorf("id %q: want lower-case letters, digits and dashes", f.ID)
	}
	if strings.HasPrefix(f.ID, "spec-") {
		return nil, fmt.Errorf("id %q: spec- names the specification's claim of each sweep, which every study carries", f.ID)
	}
	c := &Claim{ID: f.ID, Says: strings.TrimSpace(f.Says), Source: f.Source, Chosen: strings.TrimSpace(f.Chosen)}
	if c.Says == "" {
		return nil, errors.New("says: what the source claims, in its words")
	}
	if strings.TrimSpace(c.Source.Document) == "" {
		return nil, errors.New("source: document: the document the claim comes from")
	}
	if c.Source.Page < 0 {
		return nil, fmt.Errorf("source: page %d", c.Source.Page)
	}
	var err error
	if c.Measure, err = bench.MeasureOf(f.Measure); err != nil {
		return nil, fmt.Errorf("measure: %w", err)
	}
	if c.Where, err = f.Where.selection(st); err != nil {
		return nil, fmt.Errorf("where: %w", err)
	}
	var forms []string
	if f.AtLeast != nil {
		forms = append(forms, "at-least")
		c.Relation = "at-least"
		b, err := parseBound(*f.AtLeast)
		if err != nil {
			return nil, fmt.Errorf("at-least: %w", err)
		}
		c.Bounds = []Bound{b}
	}
	if f.AtMost != nil {
		forms = append(forms, "at-most")
		c.Relation = "at-most"
		b, err := parseBound(*f.AtMost)
		if err != nil {
			return nil, fmt.Errorf("at-most: %w", err)
		}
		c.Bounds = []Bound{b}
	}
	if f.Between != nil {
		forms = append(forms, "between")
		c.Relation = "between"
		if len(f.Between) != 2 {
			return nil, fmt.Errorf("between: want [LOW, HIGH], not %d values", len(f.Between))
		}
		for _, t := range f.Between {
			b, err := parseBound(t)
			if err != nil {
				return nil, fmt.Errorf("between: %w", err)
			}
			c.Bounds = append(c.Bounds, b)
		}
		if c.Bounds[0].prog == nil && c.Bounds[1].prog == nil && c.Bounds[0].num > c.Bounds[1].num {
			return nil, fmt.Errorf("between: %s is above %s", c.Bounds[0].Text, c.Bounds[1].Text)
		}
	}
	for _, cmp := range []struct {
		name  string
		where *fileWhere
	}{{"below", f.Below}, {"above", f.Above}} {
		if cmp.where == nil {
			continue
		}
		forms = append(forms, cmp.name)
		c.Relation = cmp.name
		than, err := cmp.where.selection(st)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cmp.name, err)
		}
		c.Than = &than
	}
	if f.Grows {
		forms = append(forms, "grows")
		c.Relation = "grows"
	}
	if f.Falls {
		forms = append(forms, "falls")
		c.Relation = "falls"
	}
	switch len(forms) {
	case 0:
		return nil, errors.New("no claim: give one of at-least, at-most, between, below, above, grows, falls")
	case 1:
	default:
		return nil, fmt.Errorf("%s together: a claim states one thing (write two claims)", strings.Join(forms, " and "))
	}
	switch {
	case c.Relation == "grows" || c.Relation == "falls":
		c.Along = f.Along
		if c.Along == "" {
			c.Along = "size"
		}
		if c.Along != "size" && c.Along != "speed" {
			return nil, fmt.Errorf("along: %q, want size or speed", f.Along)
		}
		if c.Along == "speed" && len(c.Where.Sweep.Full.Speeds) < 2 {
			return nil, fmt.Errorf("along: speed, and sweep %s has not two speeds to follow", c.Where.Sweep.Name)
		}
	case f.Along != "":
		return nil, errors.New("along: only a trend (grows, falls) follows a parameter")
	}
	c.EachRun = f.EachRun
	if c.EachRun && len(c.Bounds) == 0 {
		return nil, errors.New("each-run: only a bound (at-least, at-most, between) binds each run")
	}
	// A selection that picks no run of a form would leave the claim
	// undecided for ever: refused here, naming the form.
	for _, small := range []bool{false, true} {
		for _, sel := range []*Selection{&c.Where, c.Than} {
			if sel != nil && !sel.picksRun(small) {
				return nil, fmt.Errorf("%s picks no run of the sweep's %s form", sel.String(), formName(small))
			}
		}
	}
	return c, nil
}

// picksRun says whether the selection holds a run of the sweep's form.
func (s *Selection) picksRun(small bool) bool {
	runs, err := s.Sweep.Form(small).Runs()
	if err != nil {
		return false
	}
	for _, r := range runs {
		p := bench.Point{Experiment: r.Experiment, Algorithm: r.Algorithm, Template: r.Template, Size: r.Size, Speed: r.Speed}
		if s.picks(&p) {
			return true
		}
	}
	return false
}

func (w *fileWhere) selection(st *Study) (Selection, error) {
	var s Selection
	for _, sw := range st.Sweeps {
		if sw.Name == w.Sweep {
			s.Sweep = sw
		}
	}
	if s.Sweep == nil {
		var names []string
		for _, sw := range st.Sweeps {
			names = append(names, sw.Name)
		}
		return s, fmt.Errorf("sweep %q is not one of the study's (%s)", w.Sweep, strings.Join(names, ", "))
	}
	full := s.Sweep.Full
	for _, e := range w.Experiment {
		if !slices.Contains(full.Experiments, e) {
			return s, fmt.Errorf("experiment %q is not run by sweep %s (%s)", e, s.Sweep.Name, strings.Join(full.Experiments, ", "))
		}
	}
	s.Experiments = w.Experiment
	for _, a := range w.Algorithm {
		if !slices.Contains(full.Algorithms, a) && !slices.Contains(s.Sweep.Small.Algorithms, a) {
			return s, fmt.Errorf("algorithm %q is not run by sweep %s (%s)", a, s.Sweep.Name, strings.Join(full.Algorithms, ", "))
		}
	}
	s.Algorithms = w.Algorithm
	topologies := fileForm{Topologies: slices.Clone(w.Topology)}
	topologies.besideFile(st.File) // as the sweeps' own
	w.Topology = topologies.Topologies
	for _, t := range w.Topology {
		if !hasTemplate(s.Sweep.Full, t) && !hasTemplate(s.Sweep.Small, t) {
			return s, fmt.Errorf("topology %q is not a template of sweep %s (give it without its sizes)", t, s.Sweep.Name)
		}
	}
	s.Topologies = w.Topology
	for _, v := range w.Size {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return s, fmt.Errorf("size %q is not a size", v)
		}
		s.Sizes = append(s.Sizes, n)
	}
	for _, v := range w.Speed {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || x < 0 {
			return s, fmt.Errorf("speed %q is not a speed in m/s", v)
		}
		s.Speeds = append(s.Speeds, x)
	}
	return s, nil
}

func hasTemplate(sw *bench.Sweep, t string) bool {
	for _, tp := range sw.Topologies {
		if tp.Template == t {
			return true
		}
	}
	return false
}

// picks says whether the selection holds a point.
func (s *Selection) picks(p *bench.Point) bool {
	return (len(s.Experiments) == 0 || slices.Contains(s.Experiments, p.Experiment)) &&
		(len(s.Algorithms) == 0 || slices.Contains(s.Algorithms, p.Algorithm)) &&
		(len(s.Topologies) == 0 || slices.Contains(s.Topologies, p.Template)) &&
		(len(s.Sizes) == 0 || slices.Contains(s.Sizes, p.Size)) &&
		(len(s.Speeds) == 0 || slices.Contains(s.Speeds, p.Speed))
}

// String writes the selection as the report shows it.
func (s *Selection) String() string {
	parts := []string{"sweep " + s.Sweep.Name}
	add := func(name string, vs []string) {
		if len(vs) > 0 {
			parts = append(parts, name+" "+strings.Join(vs, ", "))
		}
	}
	add("experiment", s.Experiments)
	add("algorithm", s.Algorithms)
	add("topology", s.Topologies)
	var sizes, speeds []string
	for _, n := range s.Sizes {
		sizes = append(sizes, strconv.Itoa(n))
	}
	for _, v := range s.Speeds {
		speeds = append(speeds, ftoa(v)+" m/s")
	}
	add("size", sizes)
	add("speed", speeds)
	return strings.Join(parts, ", ")
}

// Statement writes what the claim asserts in the study's terms:
// "leader-time at least 97".
func (c *Claim) Statement() string {
	switch c.Relation {
	case "at-least", "at-most":
		return fmt.Sprintf("%s %s %s", c.Measure.Name, strings.ReplaceAll(c.Relation, "-", " "), c.Bounds[0].Text)
	case "between":
		return fmt.Sprintf("%s between %s and %s", c.Measure.Name, c.Bounds[0].Text, c.Bounds[1].Text)
	case "below", "above":
		return fmt.Sprintf("%s %s that of %s", c.Measure.Name, c.Relation, c.Than.String())
	default:
		return fmt.Sprintf("%s %s with %s", c.Measure.Name, c.Relation, c.Along)
	}
}
