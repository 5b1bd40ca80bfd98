package lua

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"

	glua "github.com/yuin/gopher-lua"
)

// pcgStream is the second PCG seed word of every script's generator.
const pcgStream = 0x6c75612d61726e61

// Limits of one Lua state. Recursion runs out of call frames and ends with
// a "stack overflow" error; values pushed in bulk (unpack of a huge range)
// run out of registry and end with "registry overflow". Both are ordinary
// Lua errors, caught like any other.
const (
	callStackSize   = 1000
	registrySize    = 8 << 10
	registryMaxSize = 256 << 10
	// registryGrowStep is large because the registry grows by copying:
	// small steps would copy it hundreds of times on the way to its cap.
	registryGrowStep = 32 << 10

	// maxResults caps the values one unpack or string.byte returns, as
	// Lua 5.1 does (LUAI_MAXCSTACK), so that they fail cleanly long
	// before the registry fills.
	maxResults = 8000

	// maxStringBytes caps what one string.rep or string.format may build.
	maxStringBytes = 16 << 20
	// maxArrayIndex bounds gopher-lua's array part: assigning t[n] fills
	// every slot below n in one step, so t[6e7] = 1 alone would allocate
	// about 1 GiB. Larger keys go to the hash part, which grows only with
	// the entries actually stored.
	maxArrayIndex = 1 << 22
)

func init() {
	// gopher-lua's only knob for this is a package variable: set it once,
	// before any Lua state exists, and never again.
	glua.MaxArrayIndex = maxArrayIndex
}

// newSandbox returns a Lua state with base (trimmed), table, string and
// math only: no io, os, debug, package, channel or coroutine. print writes
// to stderr; math.random draws from rng, so a game replays from its seed.
func newSandbox(stderr io.Writer, src *rand.PCG, rng *rand.Rand) *glua.LState {
	L := glua.NewState(glua.Options{
		SkipOpenLibs:     true,
		CallStackSize:    callStackSize,
		RegistrySize:     registrySize,
		RegistryMaxSize:  registryMaxSize,
		RegistryGrowStep: registryGrowStep,
	})
	for _, lib := range []struct {
		name string
		open glua.LGFunction
	}{
		{glua.BaseLibName, glua.OpenBase},
		{glua.TabLibName, glua.OpenTable},
		{glua.StringLibName, glua.OpenString},
		{glua.MathLibName, glua.OpenMath},
	} {
		L.Push(L.NewFunction(lib.open))
		L.Push(glua.LString(lib.name))
		L.Call(1, 0)
	}
	// These base functions load code from files or strings (bytecode
	// included), reach the collector, or print to stdout, which carries
	// the plugin handshake.
	removedBase := []string{"dofile", "loadfile", "load", "loadstring", "require", "module", "collectgarbage", "newproxy", "_printregs"}
	missingLibs := []string{"os", "io", "debug", "package", "channel", "coroutine"}
	unavailable := map[string]bool{}
	for _, name := range removedBase {
		L.SetGlobal(name, glua.LNil)
		unavailable[name] = true
	}
	for _, name := range missingLibs {
		unavailable[name] = true
	}
	// Reading a left-out name is an error saying so, rather than a nil
	// that fails later as "attempt to index a non-table object".
	gmt := L.NewTable()
	gmt.RawSetString("__index", L.NewFunction(func(L *glua.LState) int {
		if name, ok := L.Get(2).(glua.LString); ok && unavailable[string(name)] {
			L.RaiseError("%s is not available to arena Lua scripts (the sandbox has the base library without loading, table, string and math)", string(name))
		}
		L.Push(glua.LNil)
		return 1
	}))
	L.SetMetatable(L.G.Global, gmt)
	L.SetGlobal("print", L.NewFunction(printTo(stderr)))

	if orig, ok := L.GetGlobal("unpack").(*glua.LFunction); ok && orig.IsG {
		L.SetGlobal("unpack", L.NewFunction(cappedUnpack(orig.GFunction)))
	}

	// The string table is also the strings' metatable index, so these
	// replacements cover method calls such as ("x"):rep(n) too.
	str := L.GetGlobal(glua.StringLibName).(*glua.LTable)
	str.RawSetString("dump", glua.LNil)
	str.RawSetString("rep", L.NewFunction(cappedRep))
	if orig, ok := str.RawGetString("format").(*glua.LFunction); ok && orig.IsG {
		str.RawSetString("format", L.NewFunction(cappedFormat(orig.GFunction)))
	}
	if orig, ok := str.RawGetString("byte").(*glua.LFunction); ok && orig.IsG {
		str.RawSetString("byte", L.NewFunction(cappedByte(orig.GFunction)))
	}

	m := L.GetGlobal(glua.MathLibName).(*glua.LTable)
	m.RawSetString("random", L.NewFunction(mathRandom(rng)))
	m.RawSetString("randomseed", L.NewFunction(mathRandomseed(src)))
	return L
}

func printTo(w io.Writer) glua.LGFunction {
	return func(L *glua.LState) int {
		var b strings.Builder
		for i := 1; i <= L.GetTop(); i++ {
			if i > 1 {
				b.WriteByte('\t')
			}
			b.WriteString(L.ToStringMeta(L.Get(i)).String())
		}
		b.WriteByte('\n')
		_, _ = io.WriteString(w, b.String())
		return 0
	}
}

// cappedRep is string.rep refusing results over maxStringBytes, which
// would otherwise be built in one step, out of reach of the heap watch.
func cappedRep(L *glua.LState) int {
	s := L.CheckString(1)
	n := float64(L.CheckNumber(2))
	if n < 1 || s == "" {
		L.Push(glua.LString(""))
		return 1
	}
	if size := float64(len(s)) * math.Floor(n); size > maxStringBytes {
		L.RaiseError("string.rep: the result would be %.0f bytes, over the %d MiB a string may have", size, maxStringBytes>>20)
	}
	L.Push(glua.LString(strings.Repeat(s, int(n))))
	return 1
}

// cappedUnpack is unpack refusing more than maxResults values.
func cappedUnpack(orig glua.LGFunction) glua.LGFunction {
	return func(L *glua.LState) int {
		t := L.CheckTable(1)
		i := L.OptInt(2, 1)
		j := L.OptInt(3, t.Len())
		if j >= i && j-i >= maxResults {
			L.RaiseError("too many results to unpack (%d, at most %d)", j-i+1, maxResults)
		}
		return orig(L)
	}
}

// cappedByte is string.byte refusing more than maxResults values.
func cappedByte(orig glua.LGFunction) glua.LGFunction {
	return func(L *glua.LState) int {
		s := L.CheckString(1)
		n := len(s)
		i := L.OptInt(2, 1)
		j := L.OptInt(3, i)
		if i < 0 {
			i = n + i + 1
		}
		if j < 0 {
			j = n + j + 1
		}
		i, j = max(i, 1), min(j, n)
		if j >= i && j-i >= maxResults {
			L.RaiseError("string.byte: string slice too long (%d bytes, at most %d)", j-i+1, maxResults)
		}
		return orig(L)
	}
}

// cappedFormat is string.format with Lua 5.1's limit of two digits for a
// width or precision, and a bound on the result's size.
func cappedFormat(orig glua.LGFunction) glua.LGFunction {
	return func(L *glua.LState) int {
		f := L.CheckString(1)
		size := len(f)
		for i := 0; i < len(f); i++ {
			if f[i] != '%' {
				continue
			}
			i++
			if i < len(f) && f[i] == '%' {
				continue
			}
			for i < len(f) && strings.IndexByte("-+ #0", f[i]) >= 0 {
				i++
			}
			width := 0
			for i < len(f) && f[i] >= '0' && f[i] <= '9' {
				i++
				width++
			}
			prec := 0
			if i < len(f) && f[i] == '.' {
				i++
				for i < len(f) && f[i] >= '0' && f[i] <= '9' {
					i++
					prec++
				}
			}
			if width > 2 || prec > 2 {
				L.RaiseError("string.format: invalid format %q (width or precision too long)", clip(f, 40))
			}
			size += 2 * 99
		}
		for i := 2; i <= L.GetTop(); i++ {
			if s, ok := L.Get(i).(glua.LString); ok {
				size += len(s)
			} else {
				size += 32
			}
		}
		if size > maxStringBytes {
			L.RaiseError("string.format: the result could be %d bytes, over the %d MiB a string may have", size, maxStringBytes>>20)
		}
		return orig(L)
	}
}

func mathRandom(rng *rand.Rand) glua.LGFunction {
	return func(L *glua.LState) int {
		switch L.GetTop() {
		case 0:
			L.Push(glua.LNumber(rng.Float64()))
			return 1
		case 1:
			hi := int64(L.CheckNumber(1))
			if hi < 1 {
				L.ArgError(1, "interval is empty")
			}
			L.Push(glua.LNumber(1 + rng.Int64N(hi)))
			return 1
		default:
			lo, hi := int64(L.CheckNumber(1)), int64(L.CheckNumber(2))
			if hi < lo {
				L.ArgError(2, "interval is empty")
			}
			L.Push(glua.LNumber(lo + rng.Int64N(hi-lo+1)))
			return 1
		}
	}
}

func mathRandomseed(src *rand.PCG) glua.LGFunction {
	return func(L *glua.LState) int {
		src.Seed(math.Float64bits(float64(L.CheckNumber(1))), pcgStream)
		return 0
	}
}

// clip shortens s for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// luaError is a script failure as the user should see it.
func luaError(err error) string {
	var ae *glua.ApiError
	msg := err.Error()
	if errors.As(err, &ae) {
		msg = ae.Object.String()
		if _, ok := ae.Object.(glua.LString); !ok {
			msg = "error raised with a " + ae.Object.Type().String() + " value instead of a message: " + msg
		}
	}
	switch {
	case strings.Contains(msg, "stack overflow"):
		msg += fmt.Sprintf(" (calls nest at most %d deep: unbounded recursion?)", callStackSize)
	case strings.Contains(msg, "registry overflow"):
		msg += " (too many values on the Lua stack: unbounded recursion or a huge unpack?)"
	}
	return msg
}

// maxTraceFrames bounds a traceback; deep recursion would make it huge.
const maxTraceFrames = 12

// traceHandler is a Lua error handler that writes a short traceback of
// where the error was raised into *trace and passes the error on. It also
// spares gopher-lua its own traceback, which lists every tail call ever
// made by the failing frame and can take longer than the move's time.
func traceHandler(L *glua.LState, trace *string) *glua.LFunction {
	return L.NewFunction(func(L *glua.LState) int {
		var b strings.Builder
		b.WriteString("stack traceback:")
		for level := 1; level <= maxTraceFrames; level++ {
			dbg, ok := L.GetStack(level)
			if !ok {
				break
			}
			if _, err := L.GetInfo("Sln", dbg, glua.LNil); err != nil {
				break
			}
			// gopher-lua calls the bottom frame the main chunk whatever it runs;
			// only a function defined at line 0 is the chunk itself.
			switch {
			case dbg.What == "G":
				fmt.Fprintf(&b, "\n\t[Go]: in function '%s'", dbg.Name)
			case dbg.LineDefined == 0:
				fmt.Fprintf(&b, "\n\t%s:%d: in the main chunk", dbg.Source, dbg.CurrentLine)
			case dbg.Name != "" && dbg.Name != "main chunk":
				fmt.Fprintf(&b, "\n\t%s:%d: in function '%s'", dbg.Source, dbg.CurrentLine, dbg.Name)
			default:
				fmt.Fprintf(&b, "\n\t%s:%d: in function <%s:%d>", dbg.Source, dbg.CurrentLine, dbg.Source, dbg.LineDefined)
			}
		}
		*trace = b.String()
		L.Push(L.Get(1))
		return 1
	})
}
