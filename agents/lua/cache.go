package lua

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	glua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
)

// maxScriptBytes bounds what is read as a script; anything larger is
// surely not one.
const maxScriptBytes = 4 << 20

// Script is one compiled script. Its function prototype is immutable and
// shared by every Lua state that runs it.
type Script struct {
	Path  string // as given
	Hash  string // SHA-256 of the source, hex
	proto *glua.FunctionProto
}

// Cache holds compiled scripts by path and content hash, so a script is
// parsed once however many games or checks use it, and an edited file is
// compiled afresh. The zero value is ready to use; it is safe for
// concurrent use.
type Cache struct {
	mu      sync.Mutex
	scripts map[cacheKey]*Script
}

type cacheKey struct{ path, hash string }

// Load reads and compiles the script at path, or returns the compiled
// script from the cache when the file has not changed.
func (c *Cache) Load(path string) (*Script, error) {
	src, err := readScript(path)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(src)
	key := cacheKey{path, hex.EncodeToString(sum[:])}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.scripts[key]; ok {
		return s, nil
	}
	proto, err := compile(path, src)
	if err != nil {
		return nil, err
	}
	s := &Script{Path: path, Hash: key.hash, proto: proto}
	if c.scripts == nil {
		c.scripts = map[cacheKey]*Script{}
	}
	c.scripts[key] = s
	return s, nil
}

// Check compiles the script at path through the cache.
func (c *Cache) Check(path string) error {
	_, err := c.Load(path)
	return err
}

// Check compiles the script at path, reporting a syntax error as
// "file:line: message". It runs none of the script.
func Check(path string) error {
	return new(Cache).Check(path)
}

func readScript(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("lua script: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("lua script: %w", err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("lua script %s is a directory", path)
	}
	if fi.Size() > maxScriptBytes {
		return nil, fmt.Errorf("lua script %s: %d bytes, over the %d MiB a script may have", path, fi.Size(), maxScriptBytes>>20)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("lua script: %w", err)
	}
	return src, nil
}

// compile parses and compiles a chunk, naming it by path so that every
// error and traceback position reads "path:line:".
func compile(path string, src []byte) (*glua.FunctionProto, error) {
	if bytes.HasPrefix(src, []byte("\x1bLua")) {
		return nil, fmt.Errorf("%s:1: precompiled Lua bytecode is not accepted; give the source", path)
	}
	chunk, err := parse.Parse(bytes.NewReader(src), path)
	if err != nil {
		return nil, syntaxError(path, src, err)
	}
	if chunk == nil && len(bytes.TrimSpace(src)) > 0 {
		return nil, fmt.Errorf("%s: cannot be parsed", path)
	}
	proto, err := glua.Compile(chunk, path)
	if err != nil {
		var ce *glua.CompileError
		if errors.As(err, &ce) {
			return nil, fmt.Errorf("%s:%d: %s", path, ce.Line, ce.Message)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if !bytes.Contains(src, []byte("choose_move")) {
		return nil, fmt.Errorf("%s: the script never defines choose_move(state, clock), the function that returns its move", path)
	}
	return proto, nil
}

// syntaxError rewrites the parser's "name line:N(column:C) near 'tok':
// msg" into the usual "file:line: msg near 'tok'".
func syntaxError(path string, src []byte, err error) error {
	var pe *parse.Error
	if !errors.As(err, &pe) {
		return fmt.Errorf("%s: %s", path, strings.TrimSpace(err.Error()))
	}
	msg := strings.TrimSpace(pe.Message)
	if pe.Pos.Line == parse.EOF {
		line := bytes.Count(src, []byte("\n"))
		if len(src) > 0 && src[len(src)-1] != '\n' {
			line++
		}
		return fmt.Errorf("%s:%d: %s at the end of the file", path, max(line, 1), msg)
	}
	if pe.Token != "" {
		return fmt.Errorf("%s:%d: %s near '%s'", path, pe.Pos.Line, msg, pe.Token)
	}
	return fmt.Errorf("%s:%d: %s", path, pe.Pos.Line, msg)
}
