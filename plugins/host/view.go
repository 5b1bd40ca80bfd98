package host

// View is what a sandboxed agent of one kind sees of its own files.
type View struct {
	Kind string // as in Command.Kind
	Own  string // its own files, shown read-only at their paths
}

// Views says, for each kind of agent, what its sandbox shows besides what
// every agent sees: sandbox.Runtime (read-only), a /proc of its own PID
// namespace, /dev/null, /dev/zero, /dev/random, /dev/urandom, and its
// private directory (writable: its working directory, HOME, TMPDIR and
// plugin socket). The folders on the way to a shown path hold nothing else.
// Launcher.command shows exactly these; docs/security.md prints the table.
var Views = []View{
	{Kind: "binary", Own: "its program file (an SDK binary)"},
	{Kind: "builtin", Own: "the agent host binary (the arena or arena-agent)"},
	{Kind: "lua", Own: "the agent host binary and its script file"},
	{Kind: "course", Own: "the agent host binary and its course folder: a script's or module's folder, a Cachex package's parent, a COMP424 repository and its compiled classes in the course cache"},
}
