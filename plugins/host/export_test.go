package host

// RepinTree is Repin with a call between passes, for the tests of
// package host_test that make a straggler there.
func RepinTree(root int, cpus []int, between func()) error {
	set := cpuSet(cpus)
	return repinTree(root, &set, between)
}
