package cli

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"go/format"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"text/template"

	"github.com/spf13/cobra"

	"arena/internal/childcmd"
)

//go:embed templates
var templates embed.FS

// scaffoldDepth is the search depth each game's scaffold starts with:
// shallow enough that a move takes milliseconds at the course's limits
// (Pentago-Twist has ~300 moves a ply), deep enough to see a capture.
var scaffoldDepth = map[string]int{
	"bohnenspiel":    6,
	"pentago-twist":  2,
	"cachex":         2,
	"dots-and-boxes": 3,
	"hex-crossout":   4,
}

type newAgentOpts struct {
	game  string
	lang  string
	src   string
	force bool
	tidy  bool
}

func newNewAgentCmd(e *Env) *cobra.Command {
	var o newAgentOpts
	cmd := &cobra.Command{
		Use:   "new-agent --game GAME --lang go|lua DIR",
		Short: "Write a ready-to-build agent for a game into DIR, to edit",
		Long: `Write a new agent for GAME into DIR (created; it must be empty or absent).
It plays legal moves as written, and is meant to be edited:

  --lang go   main.go: a main package on the arena SDK with one documented
              move function that searches the engine's own position
              (sdk.Turn.State) with the SDK's search library; main_test.go:
              a whole game against itself, every reply checked; go.mod;
              README.md (build, run against the house bots, check, submit).
  --lang lua  NAME.lua: init and choose_move, with pointers to docs/lua.md;
              README.md.

The arena's module is called "arena" and is not fetched from the network:
go.mod requires arena v0.0.0 and replaces it with this arena's source
checkout, found in this order: --arena-src; the checkout this arena binary
was built from (its source path, recorded at build time, when it still
holds the arena's go.mod); the current directory or one above it. Then
"go mod tidy" runs in DIR (--tidy=false skips it and says so), so
"go build" works at once.`,
		Example: `  arena new-agent --game bohnenspiel --lang go mybot
  arena new-agent --game cachex --lang lua cachexbot
  arena new-agent --game hex-crossout --lang go --arena-src ~/src/arena mybot`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runNewAgent(cmd.Context(), e, cmd.OutOrStdout(), args[0], o)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.game, "game", "g", "", "the game the agent plays (arena games lists them)")
	f.StringVar(&o.lang, "lang", "go", "the agent's language: go or lua")
	f.StringVar(&o.src, "arena-src", "", "the arena source checkout go.mod points to (default: the one this binary was built from)")
	f.BoolVar(&o.force, "force", false, "write into DIR even if it is not empty (existing files of the same name are overwritten)")
	f.BoolVar(&o.tidy, "tidy", true, "run go mod tidy in DIR after writing a Go agent")
	_ = cmd.MarkFlagRequired("game")
	return cmd
}

// scaffold is what the templates are filled with.
type scaffold struct {
	Name, Game, Title, Course, Profile string
	Src                                string // the arena checkout (absolute)
	Depth                              int
	HasScores                          bool
	Heuristic                          string
	TestParams                         string // Go map literal entries for the test's game
}

func runNewAgent(ctx context.Context, e *Env, out io.Writer, dir string, o newAgentOpts) error {
	g, err := e.Registry.Lookup(o.game)
	if err != nil {
		return err
	}
	if o.lang != "go" && o.lang != "lua" {
		return fmt.Errorf("--lang %q: want go or lua", o.lang)
	}
	src, how, err := arenaSource(o.src)
	if err != nil {
		return err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if err := emptyDir(abs, o.force); err != nil {
		return err
	}
	info := g.Info()
	d := scaffold{
		Name: agentName(abs), Game: info.Name, Title: info.Title, Course: info.Course, Profile: info.Profile,
		Src: src, Depth: scaffoldDepth[info.Name], HasScores: info.HasScores, Heuristic: "the engine's static evaluation of " + info.Title,
	}
	if d.Depth == 0 {
		d.Depth = 2
	}
	if info.Name == "cachex" {
		d.TestParams = `"n": "5"` // a small board keeps the self-play test quick
	}
	var files map[string]string
	switch o.lang {
	case "go":
		files = map[string]string{
			"main.go":      "templates/go/main.go.tmpl",
			"main_test.go": "templates/go/main_test.go.tmpl",
			"README.md":    "templates/go/README.md.tmpl",
		}
	case "lua":
		files = map[string]string{
			d.Name + ".lua": "templates/lua/agent.lua.tmpl",
			"README.md":     "templates/lua/README.md.tmpl",
		}
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return err
	}
	for name, tmpl := range files {
		b, err := render(tmpl, d)
		if err != nil {
			return err
		}
		if strings.HasSuffix(name, ".go") {
			if b, err = format.Source(b); err != nil {
				return fmt.Errorf("template %s: %w", tmpl, err)
			}
		}
		if err := os.WriteFile(filepath.Join(abs, name), b, 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "wrote a %s agent for %s in %s\n", o.lang, info.Name, abs)
	if o.lang == "lua" {
		fmt.Fprintf(out, "try it:  arena play %s lua:%s builtin:random --games 4\ncheck it: arena check lua:%s --game %s\n",
			info.Name, filepath.Join(dir, d.Name+".lua"), filepath.Join(dir, d.Name+".lua"), info.Name)
		return nil
	}
	gomod := fmt.Sprintf("module %s\n\ngo %s\n\nrequire arena v0.0.0\n\n// The arena module is not published: it is this checkout (%s).\nreplace arena => %s\n",
		d.Name, goVersion(src), how, src)
	if err := os.WriteFile(filepath.Join(abs, "go.mod"), []byte(gomod), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(out, "go.mod: replace arena => %s (%s)\n", src, how)
	next := fmt.Sprintf("build it: cd %s && go build -o %s .\ncheck it: arena check %s --game %s\n",
		dir, d.Name, filepath.Join(dir, d.Name), info.Name)
	if !o.tidy {
		fmt.Fprintf(out, "run go mod tidy in %s before the first build\n%s", dir, next)
		return nil
	}
	tidy := childcmd.Command(ctx, "go", "mod", "tidy")
	tidy.Dir = abs
	if msg, err := tidy.CombinedOutput(); err != nil {
		return fmt.Errorf("the agent is written, but go mod tidy failed in %s (run it there again once the module proxy is reachable): %w\n%s", abs, err, msg)
	}
	fmt.Fprintf(out, "go mod tidy: done\n%s", next)
	return nil
}

func render(name string, d scaffold) ([]byte, error) {
	t, err := template.ParseFS(templates, name)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, d); err != nil {
		return nil, fmt.Errorf("template %s: %w", name, err)
	}
	return b.Bytes(), nil
}

// arenaSource finds the arena checkout an agent's go.mod points to, and
// says how it was found.
func arenaSource(flag string) (string, string, error) {
	if flag != "" {
		abs, err := filepath.Abs(flag)
		if err != nil {
			return "", "", err
		}
		if err := isArenaCheckout(abs); err != nil {
			return "", "", fmt.Errorf("--arena-src: %w", err)
		}
		return abs, "--arena-src", nil
	}
	// The compiler records this file's path (cmd/arena/internal/cli in
	// the checkout the binary was built from; absent with -trimpath).
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		root := filepath.Join(filepath.Dir(file), "..", "..", "..", "..")
		if isArenaCheckout(root) == nil {
			return root, "the checkout this arena was built from", nil
		}
	}
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			if isArenaCheckout(d) == nil {
				return d, "found from the current directory", nil
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return "", "", errors.New("cannot find the arena source checkout (this binary was built elsewhere, or with -trimpath): give it with --arena-src PATH")
}

var moduleLine = regexp.MustCompile(`(?m)^module\s+arena\s*$`)

// isArenaCheckout insists on the arena's own go.mod and its SDK.
func isArenaCheckout(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return fmt.Errorf("%s is not the arena's source checkout: %w", dir, err)
	}
	if !moduleLine.Match(b) {
		return fmt.Errorf("%s/go.mod is not the arena module", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "plugins", "sdk")); err != nil {
		return fmt.Errorf("%s has no plugins/sdk: %w", dir, err)
	}
	return nil
}

var goLine = regexp.MustCompile(`(?m)^go\s+(\S+)\s*$`)

// goVersion is the go line of the arena's go.mod, which the agent's module
// needs at least.
func goVersion(src string) string {
	b, err := os.ReadFile(filepath.Join(src, "go.mod"))
	if err == nil {
		if m := goLine.FindSubmatch(b); m != nil {
			return string(m[1])
		}
	}
	return strings.TrimPrefix(runtime.Version(), "go")
}

// emptyDir refuses to write into a directory that already has files,
// unless forced.
func emptyDir(dir string, force bool) error {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(ents) > 0 && !force {
		return fmt.Errorf("%s is not empty: choose a new directory, or --force to write into it", dir)
	}
	return nil
}

var nameChars = regexp.MustCompile(`[^a-z0-9_-]+`)

// agentName is the agent's module, binary and script name: DIR's base name
// in lower case, letters, digits, '-' and '_' only.
func agentName(dir string) string {
	n := strings.Trim(nameChars.ReplaceAllString(strings.ToLower(filepath.Base(dir)), "-"), "-_")
	if n == "" || (n[0] >= '0' && n[0] <= '9') {
		n = "agent" + n
	}
	return n
}
