package course

import (
	"fmt"
	"net/url"
	"strings"

	"arena/agents/course/courseref"
)

// Prefix starts every course agent reference.
const Prefix = courseref.Prefix

// Ref is a parsed course agent reference.
type Ref struct {
	Path   string            // what the course's framework was given (see docs/course-agents.md)
	Params map[string]string // the query options
}

// options each reference may carry; anything else is refused, so a typo
// is not silently ignored.
var knownOptions = map[string]string{
	"class":  "the Java player class (COMP424) or the Python player class (Cachex)",
	"python": "the Python interpreter",
	"java":   "the java launcher",
	"javac":  "the javac compiler",
	"cache":  "the folder compiled COMP424 repositories are kept in",
}

// ParseRef reads "course:PATH" or "course:PATH?k=v&k2=v2". The path may
// not contain '?'.
func ParseRef(ref string) (Ref, error) {
	rest, ok := strings.CutPrefix(ref, Prefix)
	if !ok {
		return Ref{}, fmt.Errorf("agent %q is not a course reference (want %sPATH)", ref, Prefix)
	}
	path, query, _ := strings.Cut(rest, "?")
	if path == "" {
		return Ref{}, fmt.Errorf("agent %q: no path", ref)
	}
	r := Ref{Path: path, Params: map[string]string{}}
	if query != "" {
		q, err := url.ParseQuery(query)
		if err != nil {
			return Ref{}, fmt.Errorf("agent %q: options: %w", ref, err)
		}
		for k, vs := range q {
			if _, ok := knownOptions[k]; !ok {
				return Ref{}, fmt.Errorf("agent %q: unknown option %q (known: class, python, java, javac, cache)", ref, k)
			}
			r.Params[k] = vs[len(vs)-1]
		}
	}
	return r, nil
}
