package leaguefile

import (
	"fmt"
	"path/filepath"
	"strings"

	"arena/arena/entrants"
)

// EntrantsConfig enters a class's submissions without listing them: every
// file and subfolder of Dir, or every path matching Glob, is one agent
// named after it (docs/leagues.md, "Entrants from a folder").
type EntrantsConfig struct {
	Dir  string `mapstructure:"dir" json:"-"`
	Glob string `mapstructure:"glob" json:"-"`
}

// addEntrants appends the submissions of c.Entrants to c.Agents. A
// submission arena cannot classify, or whose name cannot name an agent,
// is refused into s.Refused and the league is played without it; one that
// would share a name with another agent stops the load, naming both.
func (s *Spec) addEntrants(ld *loader, c *Config, baseDir string, exclude map[string]entrants.Refusal) error {
	e := c.Entrants
	if e.Dir == "" && e.Glob == "" {
		return nil
	}
	if e.Dir != "" && e.Glob != "" {
		return ld.errorf("entrants", "give dir or glob, not both")
	}
	key, path := "entrants.dir", e.Dir
	if e.Glob != "" {
		key, path = "entrants.glob", e.Glob
	}
	if !filepath.IsAbs(path) && ld.source(key) == s.File {
		path = filepath.Join(baseDir, path)
	}
	var found *entrants.Found
	var err error
	if e.Dir != "" {
		found, err = entrants.FromDir(path)
		s.EntrantsRoot = filepath.Clean(path)
	} else {
		found, err = entrants.FromGlob(path)
		s.EntrantsRoot = globRoot(path)
	}
	if err != nil {
		return ld.errorf(key, "%v", err)
	}
	s.Refused = append(s.Refused, found.Refused...)
	listed := map[string]int{}
	for i, a := range c.Agents {
		listed[a.Name] = i
	}
	for _, en := range found.Entrants {
		if !nameRE.MatchString(en.Name) {
			s.Refused = append(s.Refused, entrants.Refusal{Source: en.Source,
				Reason: fmt.Sprintf("%q cannot name an agent (letters, digits and . _ + # - only)", en.Name),
				Fix:    "rename it, or give a name in its " + entrants.ManifestName})
			continue
		}
		if i, dup := listed[en.Name]; dup {
			return ld.errorf(key, "%s would be named %q, which agents[%d] already is: rename one", en.Source, en.Name, i)
		}
		if r, ok := exclude[en.Name]; ok {
			s.Refused = append(s.Refused, r)
			continue
		}
		listed[en.Name] = len(c.Agents)
		c.Agents = append(c.Agents, AgentConfig{Name: en.Name, Agent: en.Ref, Options: en.Options, source: en.Source})
		s.Entrants = append(s.Entrants, en)
	}
	return nil
}

// globRoot is the folder of a glob before its first pattern character.
func globRoot(glob string) string {
	i := strings.IndexAny(glob, "*?[\\")
	if i < 0 {
		return filepath.Dir(filepath.Clean(glob))
	}
	return filepath.Dir(glob[:i] + "x")
}
