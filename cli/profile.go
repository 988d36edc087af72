package cli

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// withProfiles gives cmd --cpuprofile and --memprofile, so that anyone can
// see where a run's time and memory go (go tool pprof FILE).
func withProfiles(cmd *cobra.Command) *cobra.Command {
	var cpu, mem string
	cmd.Flags().StringVar(&cpu, "cpuprofile", "", "write a CPU profile of the command to this file (read it with go tool pprof)")
	cmd.Flags().StringVar(&mem, "memprofile", "", "write a heap profile at the command's end to this file (go tool pprof)")
	run := cmd.RunE
	cmd.RunE = func(c *cobra.Command, args []string) (err error) {
		if cpu != "" {
			f, err := os.Create(cpu)
			if err != nil {
				return fmt.Errorf("--cpuprofile: %w", err)
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				f.Close()
				return fmt.Errorf("--cpuprofile: %w", err)
			}
			defer func() {
				pprof.StopCPUProfile()
				if cerr := f.Close(); cerr != nil && err == nil {
					err = fmt.Errorf("--cpuprofile: %w", cerr)
				}
			}()
		}
		err = run(c, args)
		if mem != "" {
			f, ferr := os.Create(mem)
			if ferr != nil {
				return fmt.Errorf("--memprofile: %w", ferr)
			}
			runtime.GC() // the heap as it stands, not as of the last collection
			werr := pprof.WriteHeapProfile(f)
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil && err == nil {
				err = fmt.Errorf("--memprofile: %w", werr)
			}
		}
		return err
	}
	return cmd
}
