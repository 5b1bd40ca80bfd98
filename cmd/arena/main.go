// Command arena referees course board games between agent programs.
//
// Run `arena --help` for the commands. The binary also hosts its built-in
// and Lua agents: the arena re-executes itself with a hidden first argument
// to serve one agent as a plugin subprocess. It is each agent sandbox's
// init too: plugins/sandbox takes over before main when the first argument
// is __sandbox-init. The commands are in internal/cli.
package main

import "arena/cmd/arena/internal/cli"

func main() { cli.Main() }
