package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// A study on a real single-node Slurm: deploy/slurm/sweep.sbatch runs a
// sweep as a 4-task job array, each task its shard, and the merged shards
// make the same table and figures as the sweep run on one machine. The
// test starts Slurm's controller and node daemon itself (and munge), as
// root where slurm-wlm is installed (CI installs it); elsewhere it is
// skipped.
func TestSlurmArraySweep(t *testing.T) {
	for _, bin := range []string{"slurmctld", "slurmd", "sbatch", "squeue", "munged"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Skipf("%s not found: install slurm-wlm (Debian) to run a real Slurm", bin)
		}
	}
	if os.Geteuid() != 0 {
		t.Skip("starting Slurm's daemons needs root")
	}
	dir := t.TempDir()
	elect := filepath.Join(dir, "elect")
	if out, err := exec.Command("go", "build", "-o", elect, "github.com/electgo/elect/cmd/elect").CombinedOutput(); err != nil {
		t.Fatalf("building elect: %v\n%s", err, out)
	}
	conf := startSlurm(t, dir)

	sweep := "--algos vkt,park --experiments start,crash --topology ring:{n}@4..16*2 --seeds 2"
	shards := filepath.Join(dir, "shards")
	script, _ := filepath.Abs("../deploy/slurm/sweep.sbatch")
	submit := exec.Command("sbatch", "--parsable", "--output="+filepath.Join(dir, "task-%a.log"), script)
	submit.Env = append(os.Environ(), "SLURM_CONF="+conf, "OUT="+shards, "ELECT="+elect, "SWEEP="+sweep)
	out, err := submit.CombinedOutput()
	if err != nil {
		t.Fatalf("sbatch: %v\n%s", err, out)
	}
	job := strings.TrimSpace(string(out))
	deadline := time.Now().Add(2 * time.Minute)
	for {
		q := exec.Command("squeue", "--noheader", "--jobs", job)
		q.Env = append(os.Environ(), "SLURM_CONF="+conf)
		if out, err := q.CombinedOutput(); err == nil && strings.TrimSpace(string(out)) == "" || err != nil && strings.Contains(string(out), "Invalid job id") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s still queued or running after 2 minutes", job)
		}
		time.Sleep(300 * time.Millisecond)
	}
	files, _ := filepath.Glob(filepath.Join(shards, "results-*-of-4.csv"))
	if len(files) != 4 {
		logs, _ := filepath.Glob(filepath.Join(dir, "task-*.log"))
		var b strings.Builder
		for _, l := range logs {
			data, _ := os.ReadFile(l)
			fmt.Fprintf(&b, "%s:\n%s\n", l, data)
		}
		t.Fatalf("the array wrote %v, want 4 shards; task logs:\n%s", files, b.String())
	}

	merged, whole := filepath.Join(dir, "merged"), filepath.Join(dir, "whole")
	var stdout, stderr bytes.Buffer
	if code := Run(append([]string{"bench", "plot", "--out", merged, "--format", "svg"}, files...), &stdout, &stderr); code != ExitOK {
		t.Fatalf("bench plot: exit %d: %s", code, stderr.String())
	}
	if code := Run(append(append([]string{"bench"}, strings.Fields(sweep)...), "--out", whole, "--format", "svg", "--quiet"), &stdout, &stderr); code != ExitOK {
		t.Fatalf("the sweep on one machine: exit %d: %s", code, stderr.String())
	}
	for _, name := range []string{"summary.csv", "start-messages-per-election.svg", "crash-election-time.svg"} {
		a, errA := os.ReadFile(filepath.Join(merged, name))
		b, errB := os.ReadFile(filepath.Join(whole, name))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: the merged shards and the one-machine sweep differ (%v, %v)", name, errA, errB)
		}
	}
}

// startSlurm starts munge (if it is not running), and a Slurm controller
// and node daemon for this machine with their files in dir; they are
// stopped when the test ends. It returns the configuration's path, for
// SLURM_CONF.
func startSlurm(t *testing.T, dir string) string {
	t.Helper()
	if exec.Command("pgrep", "-x", "munged").Run() != nil {
		os.MkdirAll("/run/munge", 0o755)
		exec.Command("chown", "munge:munge", "/run/munge").Run()
		if out, err := exec.Command("munged", "--force").CombinedOutput(); err != nil {
			t.Fatalf("munged: %v\n%s", err, out)
		}
	}
	host, _ := os.Hostname()
	for _, d := range []string{"state", "spool", "log"} {
		os.MkdirAll(filepath.Join(dir, "slurm", d), 0o755)
	}
	s := filepath.Join(dir, "slurm")
	conf := filepath.Join(s, "slurm.conf")
	text := fmt.Sprintf(`ClusterName=electtest
SlurmctldHost=%[1]s
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=%[2]s/state
SlurmdSpoolDir=%[2]s/spool
SlurmctldPidFile=%[2]s/slurmctld.pid
SlurmdPidFile=%[2]s/slurmd.pid
SlurmctldLogFile=%[2]s/log/slurmctld.log
SlurmdLogFile=%[2]s/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=%[1]s CPUs=%[3]d State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
`, host, s, runtime.NumCPU())
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "SLURM_CONF="+conf)
	for _, daemon := range [][]string{{"slurmctld", "-c", "-i"}, {"slurmd", "-c"}} {
		cmd := exec.Command(daemon[0], daemon[1:]...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", daemon[0], err, out)
		}
	}
	t.Cleanup(func() {
		for _, pid := range []string{"slurmd.pid", "slurmctld.pid"} {
			if b, err := os.ReadFile(filepath.Join(s, pid)); err == nil {
				exec.Command("kill", strings.TrimSpace(string(b))).Run()
			}
		}
		time.Sleep(500 * time.Millisecond) // let them go before their files do
	})
	// Ready once the node is idle.
	deadline := time.Now().Add(30 * time.Second)
	for {
		q := exec.Command("sinfo", "--noheader", "--format=%t")
		q.Env = env
		if out, _ := q.CombinedOutput(); strings.TrimSpace(string(out)) == "idle" {
			return conf
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(s, "log", "slurmctld.log"))
			t.Fatalf("the Slurm node is not idle after 30 s; controller log:\n%s", log)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
