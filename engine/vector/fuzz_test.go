package vector_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"arena/engine/vector"
	"arena/games/all"
)

// FuzzRead: any input is read without a panic, and every record read is
// replayed against its game (if it names one) without a panic: a vector
// file is data from outside, its moves and parameters included.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("../../games/*/testdata/*.jsonl")
	for _, file := range files {
		fh, err := os.Open(file)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		if sc.Scan() {
			f.Add(append([]byte(nil), sc.Bytes()...))
		}
		fh.Close()
	}
	f.Add([]byte(`{"game":"cachex","params":{"n":3},"moves":["PLACE 0 0"],"plies":[{},{}],"result":{}}` + "\n\n{}"))
	f.Add([]byte(`{"game":"hex-crossout","params":{"free":"12","seed":1},"moves":[],"plies":[{}]}`))
	reg := all.Registry()
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := vector.Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, rec := range recs {
			_ = rec.Label()
			g, err := reg.Lookup(rec.Game)
			if err != nil {
				continue
			}
			_, _ = vector.Replay(g, rec)
		}
	})
}
