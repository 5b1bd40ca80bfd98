package entrants

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/viper"
)

// Manifest is a submission's arena-entrant.yaml.
type Manifest struct {
	// Kind is binary, go, lua or course.
	Kind string `mapstructure:"kind"`
	// Name replaces the folder's name in the league.
	Name string `mapstructure:"name"`
	// Entry is the file or folder inside the submission that is the agent
	// (default: the submission itself).
	Entry string `mapstructure:"entry"`
	// Options are the agent's options (a course agent's class, python, …);
	// their names are read lower-case, as every option name is.
	Options map[string]string `mapstructure:"options"`
}

// Classify decides what one submission is. A submission it cannot
// classify comes back as a *Refusal saying why and what to do.
func Classify(path string) (*Entrant, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, &Refusal{Source: path, Reason: "cannot be read: " + err.Error(), Fix: "check the submission's permissions"}
	}
	if !fi.IsDir() {
		return classifyFile(path, fi)
	}
	if _, err := os.Stat(filepath.Join(path, ManifestName)); err == nil {
		return fromManifest(path)
	}
	return classifyDir(path)
}

func classifyFile(path string, fi os.FileInfo) (*Entrant, error) {
	switch {
	case strings.HasSuffix(path, ".lua"):
		return &Entrant{Source: path, Kind: KindLua, Ref: "lua:" + path, Why: "a .lua file"}, nil
	case strings.HasSuffix(path, ".py"):
		return &Entrant{Source: path, Kind: KindCourse, Ref: "course:" + path, Why: "a .py file: a course Python agent"}, nil
	case fi.Mode().IsRegular() && fi.Mode()&0o111 != 0:
		return &Entrant{Source: path, Kind: KindBinary, Ref: path, Why: "an executable file: an SDK agent binary"}, nil
	}
	return nil, &Refusal{Source: path, Reason: "neither a Lua script, a Python agent nor an executable",
		Fix: "submit a .lua or .py file, an agent binary (chmod +x), or a folder with an " + ManifestName}
}

// classifyDir detects a folder's kind from the shapes the courses and the
// SDK give submissions.
func classifyDir(path string) (*Entrant, error) {
	has := func(rel string) bool { _, err := os.Stat(filepath.Join(path, rel)); return err == nil }
	course := func(why string) (*Entrant, error) {
		return &Entrant{Source: path, Kind: KindCourse, Ref: "course:" + path, Why: why}, nil
	}
	switch {
	case has("src/student_player"):
		return course("src/student_player: a COMP424 repository")
	case has("__init__.py"):
		return course("__init__.py: a Cachex (COMP30024) package")
	}
	if gos, _ := filepath.Glob(filepath.Join(path, "*.go")); len(gos) > 0 {
		return &Entrant{Source: path, Kind: KindGo, Ref: path, Why: "Go files: a Go package agent"}, nil
	}
	// A folder holding one agent file and its helpers.
	candidates, err := agentFiles(path)
	if err != nil {
		return nil, &Refusal{Source: path, Reason: "cannot be listed: " + err.Error(), Fix: "check the submission's permissions"}
	}
	if len(candidates) == 1 {
		fi, err := os.Stat(candidates[0])
		if err != nil {
			return nil, &Refusal{Source: path, Reason: err.Error(), Fix: "check the submission's permissions"}
		}
		e, err := classifyFile(candidates[0], fi)
		if err != nil {
			return nil, err
		}
		e.Source, e.Why = path, "its one agent file "+filepath.Base(candidates[0])+": "+e.Why
		return e, nil
	}
	names := make([]string, len(candidates))
	for i, c := range candidates {
		names[i] = filepath.Base(c)
	}
	reason := "holds no agent file arena recognises"
	if len(names) > 1 {
		reason = "holds several possible agents (" + strings.Join(names, ", ") + ")"
	}
	return nil, &Refusal{Source: path, Reason: reason,
		Fix: "add " + ManifestName + " with kind (binary, go, lua or course) and entry (the agent's file)"}
}

// agentFiles lists a folder's files that could be an agent: Lua and Python
// files and executables, without a course's client library (STcpClient*.py,
// which hex cross-out scripts import).
func agentFiles(dir string) ([]string, error) {
	list, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range list {
		n := e.Name()
		if e.IsDir() || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "STcpClient") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		if strings.HasSuffix(n, ".lua") || strings.HasSuffix(n, ".py") || info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return out, nil
}

// fromManifest reads a submission's manifest. Misspelt keys are refused
// (viper ignores them otherwise), naming the file.
func fromManifest(dir string) (*Entrant, error) {
	file := filepath.Join(dir, ManifestName)
	v := viper.New()
	v.SetConfigFile(file)
	v.SetConfigType("yaml")
	if err := v.ReadInConfig(); err != nil {
		return nil, &Refusal{Source: dir, Reason: fmt.Sprintf("%s cannot be read: %v", file, err), Fix: "fix the YAML"}
	}
	var m Manifest
	if err := v.UnmarshalExact(&m, func(dc *mapstructure.DecoderConfig) { dc.ErrorUnused = true }); err != nil {
		return nil, &Refusal{Source: dir, Reason: fmt.Sprintf("%s: %v", file, err), Fix: "the keys are kind, name, entry and options"}
	}
	entry := dir
	if m.Entry != "" {
		if filepath.IsAbs(m.Entry) || strings.HasPrefix(filepath.Clean(m.Entry), "..") {
			return nil, &Refusal{Source: dir, Reason: fmt.Sprintf("%s: entry %q is outside the submission", file, m.Entry), Fix: "give a path inside the folder"}
		}
		entry = filepath.Join(dir, m.Entry)
		if _, err := os.Stat(entry); err != nil {
			return nil, &Refusal{Source: dir, Reason: fmt.Sprintf("%s: entry %s does not exist", file, m.Entry), Fix: "name a file or folder inside the submission"}
		}
	}
	e := &Entrant{Source: dir, Name: m.Name, Kind: m.Kind, Options: m.Options, Why: "stated in " + ManifestName}
	switch m.Kind {
	case KindBinary, KindGo:
		e.Ref = entry
	case KindLua:
		e.Ref = "lua:" + entry
	case KindCourse:
		e.Ref = "course:" + entry + query(m.Options)
		e.Options = nil // carried in the reference, as course agents take them
	default:
		return nil, &Refusal{Source: dir, Reason: fmt.Sprintf("%s: kind %q", file, m.Kind), Fix: "kind is binary, go, lua or course"}
	}
	return e, nil
}

// query is options as a reference's ?k=v&… part, in a fixed order.
func query(opts map[string]string) string {
	if len(opts) == 0 {
		return ""
	}
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = url.QueryEscape(k) + "=" + url.QueryEscape(opts[k])
	}
	return "?" + strings.Join(parts, "&")
}
