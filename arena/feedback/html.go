package feedback

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"math"

	"arena/arena/league/standings"
	"arena/arena/web"
)

//go:embed templates/page.html
var templateFS embed.FS

func fmtElo(f float64) string {
	switch {
	case math.IsNaN(f):
		return "-"
	case math.IsInf(f, 0):
		return fmt.Sprintf("%+v", f)
	case math.Abs(f) < 0.5:
		return "0"
	}
	return fmt.Sprintf("%+.0f", f)
}

func fmtInterval(lo, hi float64) string {
	if math.IsNaN(lo) || math.IsNaN(hi) || lo == hi {
		return ""
	}
	return "[" + fmtElo(lo) + ", " + fmtElo(hi) + "]"
}

func fmtPoints(f float64) string {
	if f == math.Trunc(f) {
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprintf("%.1f", f)
}

func parse() (*template.Template, template.CSS, error) {
	css, err := web.Stylesheet()
	if err != nil {
		return nil, "", err
	}
	t, err := template.New("").Funcs(template.FuncMap{
		"elo": fmtElo, "interval": fmtInterval, "points": fmtPoints,
		// svg marks a board drawn by the game's own code from the
		// canonical board text; no agent-written text reaches it.
		"svg": func(s string) template.HTML { return template.HTML(s) },
	}).ParseFS(templateFS, "templates/page.html")
	if err != nil {
		return nil, "", fmt.Errorf("feedback templates: %w", err)
	}
	return t, css, nil
}

// WriteHTML writes the page as one HTML file that opens offline: the
// viewer's stylesheet inline, every board as SVG, and each game as the
// viewer's self-contained game file, packed (packGame) and unpacked into
// a sandboxed frame when the game is opened.
func (p *Page) WriteHTML(w io.Writer) error {
	t, css, err := parse()
	if err != nil {
		return err
	}
	files := map[string][]string{}
	for _, s := range p.Sections {
		for _, g := range s.Games {
			packed, err := packGame(p, g)
			if err != nil {
				return fmt.Errorf("game %s: %w", g.ID, err)
			}
			files[s.League.Name] = append(files[s.League.Name], packed)
		}
	}
	return t.ExecuteTemplate(w, "page", map[string]any{"P": p, "CSS": css, "Files": files})
}

// packGame is the viewer's game file for g, gzip-compressed and
// base64url-encoded (no padding) for the page's script to unpack when the
// game is opened. A game file is mostly one SVG board per ply, which
// compresses about twentyfold: inline as it is, 40 games made a 12 MB
// page.
func packGame(p *Page, g Game) (string, error) {
	var b bytes.Buffer
	enc := base64.NewEncoder(base64.RawURLEncoding, &b)
	zw, err := gzip.NewWriterLevel(enc, gzip.BestCompression)
	if err != nil {
		return "", err
	}
	if err := web.GameFile(zw, p.reg, g.rec, g.leagueNm, p.Title); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return b.String(), nil
}

// IndexEntry is one entrant's line in the index of feedback pages.
type IndexEntry struct {
	Entrant, League, File string
	Row                   standings.Row
	Penalties             int
}

// WriteIndex writes index.html for pages written to files (each page's
// file name by entrant), one line per entrant and league.
func WriteIndex(w io.Writer, pages []*Page, files map[string]string, title, made string) error {
	t, css, err := parse()
	if err != nil {
		return err
	}
	var entries []IndexEntry
	for _, p := range pages {
		for _, s := range p.Sections {
			entries = append(entries, IndexEntry{Entrant: p.Entrant, League: s.League.Name, File: files[p.Entrant], Row: s.Row, Penalties: len(s.Penalties)})
		}
	}
	return t.ExecuteTemplate(w, "index", map[string]any{"Title": title, "Made": made, "CSS": css, "Entries": entries})
}
