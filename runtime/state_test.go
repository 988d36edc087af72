package runtime

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestStateDir(t *testing.T) {
	d := StateDir(filepath.Join(t.TempDir(), "node3"))
	got, err := d.Load()
	if err != nil || got != nil {
		t.Fatalf("Load of a missing state: %v, %v; want nil, nil (a first boot)", got, err)
	}
	want := Saved{Algorithm: "vkt", ID: 3, Cluster: 9, ElectionIndex: 42, Machine: []byte{1, 2, 3, 0, 255}}
	if err := d.Store(want); err != nil {
		t.Fatal(err)
	}
	want.Version = savedVersion
	if got, err = d.Load(); err != nil || !reflect.DeepEqual(*got, want) {
		t.Fatalf("Load after Store: %+v, %v; want %+v", got, err, want)
	}
	// A second store replaces the first and leaves no temporary file.
	want.ElectionIndex = 43
	if err := d.Store(want); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(string(d))
	if len(entries) != 1 || entries[0].Name() != stateFile {
		t.Errorf("the state directory holds %v, want only %s", entries, stateFile)
	}
	if got, _ = d.Load(); got.ElectionIndex != 43 {
		t.Errorf("election index %d after the second store, want 43", got.ElectionIndex)
	}
}

func TestStateDirRefusesGarbage(t *testing.T) {
	for name, content := range map[string]string{
		"torn":    `{"version":1,"algorithm":"vk`,
		"version": `{"version":7,"algorithm":"vkt"}`,
	} {
		t.Run(name, func(t *testing.T) {
			d := StateDir(t.TempDir())
			if err := os.WriteFile(d.Path(), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := d.Load()
			if err == nil || !strings.Contains(err.Error(), d.Path()) {
				t.Errorf("Load of %s: %v; want an error naming the file", content, err)
			}
		})
	}
}
