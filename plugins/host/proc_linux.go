package host

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat times; 100 on every
// Linux configuration Go supports.
const clockTicks = 100

// groupAlive reports whether any process of the group still exists.
func groupAlive(pgid int) bool {
	return killGroup(pgid, 0) == nil
}
