package node

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/electgo/elect/algo"
	"github.com/electgo/elect/runtime"
)

// Settings are a node's options as an operator gives them (elect node's
// flags): text to read and numbers to check. Config turns them into a
// Config and the ServeOptions of its HTTP servers.
//
// Errors name each setting by its key, as Label spells it: "id",
// "listen", "peers", "param", "log-level", "log-format", "size", "hello",
// "hello-loss", "broadcast", "key-file", "faults", "insecure", "http",
// "admin", "cut-from", "cut-to", "clock-rate", "slow".
type Settings struct {
	ID, Value         int64
	Listen            string // UDP HOST:PORT, required
	Peers             string // ID=HOST:PORT,... (ParsePeers)
	HTTP, Admin       string // the HTTP servers' addresses (ServeOptions)
	KeyFile, StateDir string
	Algorithm         string
	Params            []string // NAME=VALUE
	Cluster           uint32
	Hello             time.Duration
	HelloLoss         int
	Broadcast         string // HOST:PORT
	Faults            string // runtime.ParseFaults
	Initiator         bool
	Size              int
	CrashOn           string
	Corrupt, Insecure bool
	// The gray failures the node starts with (Config.Gray): CutFrom and
	// CutTo are id lists "3,7" of listed peers, ClockRate 0 or 1 true
	// time, Slow 0 none.
	CutFrom, CutTo      string
	ClockRate           float64
	Slow                time.Duration
	LogLevel, LogFormat string    // debug, info, warn or error; text or json
	LogOutput           io.Writer // where the logger writes
	// Label names a setting in errors (elect node: its flag, "--id"); nil
	// names it by its key.
	Label func(key string) string
}

func (s *Settings) label(key string) string {
	if s.Label == nil {
		return key
	}
	return s.Label(key)
}

// Logger builds the slog logger of LogLevel and LogFormat on LogOutput.
func (s *Settings) Logger() (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(s.LogLevel)); err != nil {
		return nil, fmt.Errorf("%s %q: want debug, info, warn or error", s.label("log-level"), s.LogLevel)
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch s.LogFormat {
	case "text":
		return slog.New(slog.NewTextHandler(s.LogOutput, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(s.LogOutput, opts)), nil
	}
	return nil, fmt.Errorf("%s %q: want text or json", s.label("log-format"), s.LogFormat)
}

// Config checks the settings and builds the node's Config, naming the
// setting at fault, and the ServeOptions of its HTTP servers, their
// addresses resolved. Secure by default: beyond loopback, UDP and HTTP
// need a key, unless Insecure. The listen address is opened last (the
// Config's Transport, faulty as Faults says), so that a bad setting
// leaves nothing open.
func (s *Settings) Config() (Config, ServeOptions, error) {
	var cfg Config
	var serve ServeOptions
	l := s.label
	if s.ID < 0 || s.ID > 1<<31-1 {
		return cfg, serve, fmt.Errorf("%s %d: want a non-negative 32-bit integer", l("id"), s.ID)
	}
	if s.Listen == "" {
		return cfg, serve, fmt.Errorf("%s is required (e.g. %s 127.0.0.1:7000)", l("listen"), l("listen"))
	}
	peers, err := ParsePeers(s.Peers)
	if err != nil {
		return cfg, serve, fmt.Errorf("%s: %w", l("peers"), err)
	}
	params := map[string]string{}
	for _, p := range s.Params {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return cfg, serve, fmt.Errorf("%s %q: want NAME=VALUE", l("param"), p)
		}
		params[k] = v
	}
	logger, err := s.Logger()
	if err != nil {
		return cfg, serve, err
	}
	cfg = Config{
		ID: algo.NodeID(s.ID), Value: s.Value, Algorithm: s.Algorithm, Params: params,
		Cluster: s.Cluster, Peers: peers, Hello: s.Hello, HelloLoss: s.HelloLoss,
		StateDir: s.StateDir, Logger: logger, Initiator: s.Initiator,
		Size: s.Size, CrashOn: s.CrashOn, Corrupt: s.Corrupt,
	}
	if s.Size < 0 {
		return cfg, serve, fmt.Errorf("%s %d: want the number of nodes of the fixed network", l("size"), s.Size)
	}
	if cfg.Gray, err = s.gray(cfg.ID, peers); err != nil {
		return cfg, serve, err
	}
	if s.Hello <= 0 {
		return cfg, serve, fmt.Errorf("%s %v: want a positive duration", l("hello"), s.Hello)
	}
	if s.HelloLoss < 1 {
		return cfg, serve, fmt.Errorf("%s %d: want at least 1", l("hello-loss"), s.HelloLoss)
	}
	if s.Broadcast != "" {
		if cfg.Broadcast, err = ResolveAddr(s.Broadcast); err != nil {
			return cfg, serve, fmt.Errorf("%s: %w", l("broadcast"), err)
		}
	}
	if s.KeyFile != "" {
		key, err := runtime.ReadKeyFile(s.KeyFile)
		if err != nil {
			return cfg, serve, fmt.Errorf("%s: %w", l("key-file"), err)
		}
		cfg.Key = key
	}
	faults, err := runtime.ParseFaults(s.Faults)
	if err != nil {
		return cfg, serve, fmt.Errorf("%s: %w", l("faults"), err)
	}
	listenHost, _, err := net.SplitHostPort(s.Listen)
	if err != nil {
		return cfg, serve, fmt.Errorf("%s %q: want HOST:PORT (%v)", l("listen"), s.Listen, err)
	}
	if !Loopback(listenHost) && cfg.Key == nil && !s.Insecure {
		return cfg, serve, fmt.Errorf("%s %s reaches beyond this machine and there is no %s: anyone who reaches it could forge datagrams and lead the cluster; give %s (the same file on every node), or %s to run so anyway",
			l("listen"), s.Listen, l("key-file"), l("key-file"), l("insecure"))
	}
	serve = ServeOptions{Insecure: s.Insecure, HTTPName: l("http"), AdminName: l("admin")}
	if s.HTTP != "" {
		if serve.HTTP, err = s.guardedAddr("http", s.HTTP, cfg.Key != nil); err != nil {
			return cfg, serve, err
		}
	}
	if s.Admin != "" {
		if serve.Admin, err = s.guardedAddr("admin", s.Admin, cfg.Key != nil); err != nil {
			return cfg, serve, err
		}
		if serve.Admin == serve.HTTP {
			return cfg, serve, fmt.Errorf("%s %s is the %s address: give the operators an address of their own", l("admin"), s.Admin, l("http"))
		}
	}
	tr, err := runtime.ListenUDP(s.Listen)
	if err != nil {
		return cfg, serve, fmt.Errorf("%s: %w", l("listen"), err)
	}
	cfg.Transport = tr
	if faults != (runtime.Faults{}) {
		cfg.Transport, _ = runtime.NewFaulty(tr, faults) // valid: parsed above
		logger.Warn("injecting faults into what this node sends", "faults", faults.String())
	}
	return cfg, serve, nil
}

// gray reads the gray failures of the settings for node self of peers,
// naming the setting at fault.
func (s *Settings) gray(self algo.NodeID, peers map[algo.NodeID]netip.AddrPort) (Gray, error) {
	g := Gray{ClockRate: s.ClockRate, Slow: s.Slow}
	for _, c := range []struct {
		key, text string
		ids       *[]algo.NodeID
	}{{"cut-from", s.CutFrom, &g.CutFrom}, {"cut-to", s.CutTo, &g.CutTo}} {
		ids, err := parseIDs(c.text)
		if err == nil {
			err = checkCut(ids, self, peers)
		}
		if err != nil {
			return g, fmt.Errorf("%s %s: %w", s.label(c.key), c.text, err)
		}
		*c.ids = idSet(ids)
	}
	if err := checkRate(s.ClockRate); err != nil {
		return g, fmt.Errorf("%s %w", s.label("clock-rate"), err)
	}
	if err := checkSlow(s.Slow); err != nil {
		return g, fmt.Errorf("%s %w", s.label("slow"), err)
	}
	return g, nil
}

// guardedAddr reads the address of the HTTP setting key that serves POST
// /elect (GuardedHTTPAddr), naming the setting: beyond loopback it needs
// the key, or Insecure.
func (s *Settings) guardedAddr(key, value string, keyed bool) (string, error) {
	addr, _, err := GuardedHTTPAddr(value, keyed, s.Insecure)
	if errors.Is(err, ErrUnguardedHTTP) {
		return "", fmt.Errorf("%s %s reaches beyond this machine and there is no %s to guard POST /elect; give %s, serve on loopback or unix:PATH, or %s",
			s.label(key), value, s.label("key-file"), s.label("key-file"), s.label("insecure"))
	}
	if err != nil {
		return "", fmt.Errorf("%s %w", s.label(key), err)
	}
	return addr, nil
}
