package bench

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Report writes the report of a sweep's results into dir: the table of the
// means (to out as well as to summary.txt), every measure's mean, 95%
// interval and runs (summary.csv) and the plots, in style; then it says on
// out which figures it plotted, which it could not plot and why, and which
// it plotted in part.
func Report(out io.Writer, results []*Result, dir string, style Style) error {
	points := Aggregate(results)
	if err := createFilled(filepath.Join(dir, "summary.txt"), func(w io.Writer) error {
		return WriteTable(io.MultiWriter(out, w), points)
	}); err != nil {
		return err
	}
	if err := createFilled(filepath.Join(dir, "summary.csv"), func(w io.Writer) error {
		return WriteSummaryCSV(w, points)
	}); err != nil {
		return err
	}
	plots, err := PlotStyled(points, dir, style)
	if err != nil {
		return err
	}
	if len(plots.Files) == 0 {
		fmt.Fprintln(out, "plots: none")
	} else {
		fmt.Fprintf(out, "plots: %s\n", strings.Join(plots.Files, " "))
	}
	for _, s := range plots.Skipped {
		fmt.Fprintf(out, "not plotted: %s\n", s)
	}
	for _, s := range plots.Partial {
		fmt.Fprintf(out, "plotted in part: %s\n", s)
	}
	return nil
}

// WriteResults writes results to a results file (WriteCSV's) at path,
// made or emptied first.
func WriteResults(path string, results []*Result) error {
	return createFilled(path, func(w io.Writer) error { return WriteCSV(w, results) })
}

// createFilled creates the file at path and has write fill it, closing it
// whatever happens.
func createFilled(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
